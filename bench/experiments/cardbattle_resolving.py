"""Safe re-solving measured exactly (issue 43, item 3; docs/research/cardbattle-resolving.md):
on small card battle configurations, a blueprint (CFR+ after a few iterations) is re-solved
for one player below the start of a round, with each gadget and, where the subgame is cut at
the next round, each kind of value there; the other player's exact best-response win
probability against the player's strategy, before and after, is what the table shows.

    python bench/experiments/cardbattle_resolving.py --config hidden-3 --target 1 --round 0
    python bench/experiments/cardbattle_resolving.py --config boost-3 --target 2 --round 0 --cut 1
"""
from __future__ import annotations

import argparse
import re
import time

import numpy as np

from crystalpick.engine.cardbattle import CardBattle
from crystalpick.engine.cardbattle.smallgames import small_game
from crystalpick.solvers.exact.cfr import CFRPlus
from crystalpick.solvers.exact.levels import backward_values, edge_weights, levels
from crystalpick.solvers.exact.resolve import GADGETS, resolve
from crystalpick.solvers.exact.response import best_response, best_response_sigma, tabular
from crystalpick.solvers.exact.tree import build_tree


def round_starts(tree, number: int) -> list[int]:
    """The nodes where round ``number`` begins: its caller's call."""
    pattern = re.compile(rf"phase=call .* round={number} ")
    return [n for n in np.flatnonzero(tree.infoset >= 0).tolist()
            if pattern.search(tree.infosets[tree.infoset[n]].observation)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", default="hidden-3")
    parser.add_argument("--target", default="1", help="crystals to win (the rule option)")
    parser.add_argument("--round", type=int, default=0, help="re-solve from this round's start")
    parser.add_argument("--cut", type=int, help="cut the subgame at this round's start")
    parser.add_argument("--iterations", type=int, nargs="+", default=[1, 3, 10],
                        help="CFR+ iterations of the blueprints")
    args = parser.parse_args()
    config = small_game(args.config)
    game = CardBattle({**config.rules, "target": args.target}, tileset=config.tileset)
    tree = build_tree(game.setup_state())
    layers = levels(tree)
    roots = round_starts(tree, args.round)
    cuts = round_starts(tree, args.cut) if args.cut is not None else []
    print(f"{args.config} target {args.target}: {tree.nodes:,} nodes; {len(roots):,} roots "
          f"(round {args.round}), {len(cuts):,} leaves")
    print("| blueprint | player | values at the cut | gadget | other's best response: "
          "before | after | bound | seconds |")
    for iterations in args.iterations:
        solver = CFRPlus(tree)
        solver.iterate(iterations)
        sigma = solver.average()
        for player in (0, 1):
            other = 1 - player
            before = best_response(tree, other, tabular(tree, sigma), layers).value
            blueprint = backward_values(tree, layers, edge_weights(tree, sigma))
            answered = backward_values(tree, layers, edge_weights(
                tree, best_response_sigma(tree, other, sigma)))
            kinds = {"blueprint": {c: (blueprint[c],) for c in cuts},
                     "blueprint or best response": {c: (blueprint[c], answered[c])
                                                    for c in cuts}} if cuts else {"-": None}
            for kind, leaves in kinds.items():
                for gadget in GADGETS:
                    start = time.perf_counter()
                    done = resolve(tree, sigma, player, roots, leaves=leaves, gadget=gadget,
                                   target=1e-6)
                    after = best_response(tree, other, tabular(tree, done.sigma), layers).value
                    print(f"| CFR+ {iterations} | P{player + 1} | {kind} | {gadget} | "
                          f"{before:.4f} | {after:.4f} | {done.bound:.1e} | "
                          f"{time.perf_counter() - start:.1f} |", flush=True)


if __name__ == "__main__":
    main()
