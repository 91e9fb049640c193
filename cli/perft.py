"""``crystalpick perft``: count the move paths from a position (engine/perft.py)."""
from __future__ import annotations

import sys

import click

from crystalpick.engine.perft import ROOT_BY_ROOT_DEPTH, count_perft

from .common import (InputError, Interrupted, command, emit_json, game_arguments, impl_option,
                     json_option, load_state, seed_note, user_errors)
from .interrupts import stoppable
from .params import PERFT_DEPTH


@command()
@game_arguments
@click.option("--depth", "-d", type=PERFT_DEPTH, required=True,
              help="Number of plies to count.")
@click.option("--divide", "divided", is_flag=True,
              help="Also count the subtree under each legal move (for debugging movegen).")
@impl_option
@json_option
@user_errors
def perft(game, position, moves, rules, seed, tileset, depth, divided, impl, as_json):
    """Count the move paths of length DEPTH from a position.

    Every ply counts, decisions and chance outcomes alike, so in games with chance the count
    is the number of paths through both. The last ply is bulk-counted (its moves are listed,
    not played); 'nps' is counted nodes per second.
    """
    from tqdm import tqdm

    if divided and depth < 1:
        raise InputError("--divide needs --depth 1 or more (it counts under each root move)")
    game_obj, state = load_state(game, position, moves, rules, seed, tileset, impl)
    by_root = depth >= ROOT_BY_ROOT_DEPTH or divided
    with tqdm(total=len(state.legal_moves()), desc="root moves", file=sys.stderr,
              disable=None if by_root else True, leave=False) as bar:
        count, _ = stoppable(lambda stop: count_perft(state, depth, divided, stop,
                                                      lambda: bar.update(1)))
    if as_json:
        emit_json(count.document(game_obj, impl, divided))
    else:
        listed = count.by_move if divided or not count.finished else {}
        for name, nodes in listed.items():
            click.echo(f"{name}: {nodes}")
        if listed:
            click.echo("")
        click.echo(f"position: {count.position}")
        if seed_note(game_obj):
            click.echo(seed_note(game_obj))
        if count.finished:
            click.echo(f"perft {depth}: {count.nodes:,} nodes in {count.seconds:.3f} s "
                       f"({count.nps:,.0f} nodes/s, {impl})")
    if not count.finished:
        raise Interrupted(count.stopped_text())
