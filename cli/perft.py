"""``crystalpick perft``: count the move paths from a position (engine/perft.py)."""
from __future__ import annotations

import sys
import time

import click

from crystalpick.engine.perft import perft_by_move

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
    root = state.position()
    started = time.perf_counter()
    counts, at_work = {}, {"position": root}      # what was being counted when stopped
    if depth >= 5 or divided:   # root move by root move: progress shown
        roots = len(state.legal_moves())

        def count_roots(stop):
            nonlocal at_work
            with tqdm(total=roots, desc="root moves", file=sys.stderr, disable=None,
                      leave=False) as bar:
                for count in perft_by_move(state, depth, stop):
                    if count.nodes is None:
                        at_work = {"move": count.move, "position": count.position}
                    else:
                        counts[count.move] = count.nodes
                        bar.update(1)
            return sum(counts.values())

        nodes, interrupted = stoppable(count_roots)
        finished = len(counts) == roots
    else:
        nodes, interrupted = stoppable(lambda stop: state.perft(depth, stop))
        finished = nodes is not None
    seconds = time.perf_counter() - started
    if finished:
        interrupted = None              # stopped after the last count: nothing is missing
    nodes = nodes or 0
    nps = nodes / seconds if seconds > 0 else 0.0
    document = {"game": game_obj.name, "position": root, "depth": depth,
                "nodes": nodes, "seconds": round(seconds, 6), "nps": round(nps), "impl": impl}
    if divided or interrupted:
        document["divide"] = counts
    if game_obj.seed is not None:
        document["seed"] = game_obj.seed
    stopped = None
    if interrupted:
        document.update(interrupted=True, counting=at_work)
        done = f" after {len(counts)} of {roots} root moves ({nodes:,} nodes" \
            f"{', listed above' if counts else ''}) of" if depth >= 5 or divided else ":"
        counting = f"{at_work['move']} ({at_work['position']})" if "move" in at_work else root
        stopped = Interrupted(f"interrupted{done} perft {depth} from {root}, while counting "
                              f"{counting}")
    if as_json:
        emit_json(document)
    else:
        for name, count in counts.items() if divided or interrupted else ():
            click.echo(f"{name}: {count}")
        if counts and (divided or interrupted):
            click.echo("")
        click.echo(f"position: {root}")
        if seed_note(game_obj):
            click.echo(seed_note(game_obj))
        if not interrupted:
            click.echo(f"perft {depth}: {nodes:,} nodes in {seconds:.3f} s ({nps:,.0f} "
                       f"nodes/s, {impl})")
    if stopped:
        raise stopped
