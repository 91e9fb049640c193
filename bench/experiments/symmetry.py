"""Symmetric positions sharing table entries: each searcher with and without (issue 32).

    python bench/experiments/symmetry.py [--depth 6] [--nodes 1000000] [--positions 8]

Alpha-beta (default options, fixed depth) from Mattock's start, on the bench positions and
on suite positions 10 plies from the end; df-pn on suite positions 10 plies from the end
with a node budget (proof only). Node counts are exact; CPU seconds are this process's.
"""
from __future__ import annotations

import argparse
import time

from crystalpick.engine import get_game
from crystalpick.positions import parse_suite, read_text
from crystalpick.search.alphabeta import AlphaBeta
from crystalpick.search.solve import Solver
from crystalpick.search.symmetry import first_move_classes


def alphabeta(game, positions, depth, symmetry):
    nodes, started = 0, time.process_time()
    for position in positions:
        state = game.parse_position(position)
        searcher = AlphaBeta(state.search_kernel().clone(), game.evaluator(), 64,
                             symmetry=symmetry)
        searcher.begin()
        for d in range(1, depth + 1):
            searcher.iterate(d)
        nodes += searcher.nodes
    return nodes, time.process_time() - started


def dfpn(game, positions, nodes, symmetry):
    total, proven, started = 0, 0, time.process_time()
    for position in positions:
        solver = Solver(game, 64, symmetry="on" if symmetry else "off")
        solution = solver.solve(game.parse_position(position), nodes=nodes, exact=False)
        total += solution.nodes
        proven += solution.score is not None
    return total, time.process_time() - started, proven


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--depth", type=int, default=6, help="alpha-beta depth (default 6)")
    parser.add_argument("--nodes", type=int, default=1_000_000,
                        help="df-pn node budget per position (default 1,000,000)")
    parser.add_argument("--positions", type=int, default=8,
                        help="suite positions 10 plies from the end (default 8)")
    args = parser.parse_args()
    game = get_game("mattock")
    start = game.new_initial_state()
    suite = [case.position for case in parse_suite(read_text("mattock.endgames"))
             if case.id.startswith("mattock-end-10")][:args.positions]
    bench = [case.position for case in game.bench_suite()]
    print(f"start: {len(start.legal_moves())} first moves in "
          f"{len(first_move_classes(start))} classes")
    print(f"{'search':<44} {'off: nodes':>12} {'CPU s':>6} {'on: nodes':>12} {'CPU s':>6}")
    for name, positions in ((f"alpha-beta depth {args.depth}, start", [start.position()]),
                            (f"alpha-beta depth {args.depth}, {len(bench)} bench positions",
                             bench),
                            (f"alpha-beta depth {args.depth}, {len(suite)} suite 10-out",
                             suite)):
        off, on = (alphabeta(game, positions, args.depth, s) for s in (False, True))
        print(f"{name:<44} {off[0]:>12,} {off[1]:>6.2f} {on[0]:>12,} {on[1]:>6.2f}")
    off, on = (dfpn(game, suite, args.nodes, s) for s in (False, True))
    print(f"{f'df-pn {args.nodes:,} nodes, {len(suite)} suite 10-out':<44} {off[0]:>12,} "
          f"{off[1]:>6.2f} {on[0]:>12,} {on[1]:>6.2f}  (proven {off[2]} / {on[2]})")


if __name__ == "__main__":
    main()
