"""``crystalpick engine``: serve the engine protocol (apps/protocol.py) on stdin/stdout."""
from __future__ import annotations


import click

from crystalpick.engine import GAMES

from .common import command


@command("engine")
@click.argument("game", type=click.Choice(sorted(GAMES), case_sensitive=False))
def engine_command(game):
    """Speak the crystalpick engine protocol on stdin/stdout (for GUIs and match runners).

    The protocol is documented in docs/protocol.md: protocol, isready, setoption, newgame,
    position, go, stop, show, moves, quit.
    """
    from crystalpick.apps.protocol import serve
    serve(game)
