"""The ``crystalpick`` command line: the group, and which module holds which command.

Every command lives in a module of its family (``cli/positions.py``, ``cli/records.py``, ...)
as a thin layer: parse, call one library function, print. What they share (the one-line
errors with exit status 2, the options naming a state, JSON output) is in ``cli/common.py``.
Errors caused by the user's input (``engine.GameError``) become a one-line message and exit
status 2; Ctrl-C and SIGTERM are handled by the one runner of ``cli/interrupts.py``.
"""
from __future__ import annotations

import io
import select
import sys

import click

from . import (analyse, bench, cards, deck, engine_protocol, interrupts, matches, perft, play,
               positions, records, results, solving, tournaments)
from .common import CONTEXT, OneLineErrors


@click.group(cls=OneLineErrors, context_settings=CONTEXT)
@click.version_option(package_name="crystalpick")
def cli():
    """Analysis, perft and engine matches for Mattock, Maatatahay and the card battle game.

    Positions are given in each game's one-line notation (see 'crystalpick show GAME' for the
    start position's string); moves in the game's move notation.
    """
    for stream in (sys.stdin, sys.stdout, sys.stderr):
        # undecodable input is replaced, not fatal, whatever PYTHONIOENCODING says
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="replace")


COMMANDS = (positions.games, positions.engines, positions.show, positions.moves, perft.perft,
            bench.bench, analyse.analyse, solving.solve, play.play, records.replay,
            records.annotate, deck.deck, cards.cards, matches.match, tournaments.tournament,
            results.results, results.ratings, engine_protocol.engine_command)
for registered in COMMANDS:
    cli.add_command(registered)


def run():
    """The commands, once the interrupt runner is installed (``cli/start.py``)."""
    try:
        cli(prog_name="crystalpick")
    except SystemExit as end:
        if end.code == 1 and reader_gone():
            interrupts.leave(0)      # `crystalpick engines | head`: the reader had enough
        if not isinstance(end.code, int) or end.code - 128 not in interrupts.STOPPING:
            raise
        interrupts.leave(end.code)   # what was found is printed, every worker is stopped


def reader_gone() -> bool:
    """Whether standard output is a pipe nobody reads any more (Click exits 1 on writing
    to it): on Linux such a pipe polls as an error."""
    try:
        poller = select.poll()
        poller.register(1, select.POLLOUT)
        return any(events & select.POLLERR for _, events in poller.poll(0))
    except (AttributeError, OSError, ValueError):
        return False


def main():
    """The entry point under its older name (``crystalpick.cli.start.main`` is the one that
    installs the interrupt runner before these imports)."""
    interrupts.run(lambda: run)


if __name__ == "__main__":
    main()
