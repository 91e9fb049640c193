"""Exploitability against wall time of the whole-game regret search (docs/cardbattle.md,
"Convergence against time"): on each small card battle configuration, one search from the
deal per seed, stopped at doubling times (1/32 s .. --seconds), and at each stop the exact
exploitability of its average strategy, read at every information set.

    python bench/experiments/cardbattle_convergence.py [--config NAME ...] [--engine SPEC ...]
        [--seconds 2] [--seed 1 ...] [--json FILE] [--plot FILE.svg]

SPEC is ``mccfr[:options]`` (from the history, the default root): its table does not depend
on the decision asked, so the strategy after T seconds is what the engine with ``time=T``
answers at every decision of a fresh game (the bench ``cardbattle_exploitability.py``
checks the same through the engine). The times are of the
search alone (measuring stops the clock) on this machine, and the iterations reached are
printed beside them: compare rates across machines by those. Exploitability: (BR_1 + BR_2 -
1) / 2 in win probability (solvers/exact/response.py).
"""
from __future__ import annotations

import argparse
import json
import sys
import time

from crystalpick.engine.cardbattle import CardBattle
from crystalpick.engine.cardbattle.smallgames import small_games
from crystalpick.search import make_engine
from crystalpick.solvers.exact.levels import levels
from crystalpick.solvers.exact.policy import search_strategy
from crystalpick.solvers.exact.response import exploitability
from crystalpick.solvers.exact.tree import build_tree
from crystalpick.search.mccfr import MCCFR
from crystalpick.search.specs import parse_spec

FIRST_STOP = 1 / 32


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def whole_game_search(text: str, kernel, seed: int) -> MCCFR:
    """The search ``text`` names, from ``kernel``'s root, as its engine would build it."""
    spec = parse_spec(text)
    if spec.name != "mccfr" or spec.options.get("root", "history") != "history":
        raise ValueError(f"{text}: expected mccfr[:options] (from the history)")
    engine = make_engine(spec.name, **{k: v for k, v in spec.options.items() if k != "seed"})
    return MCCFR(kernel, 0, **engine.settings(seed))  # from the deal: no horizon, no playouts


def stops(seconds: float) -> list[float]:
    found, t = [], FIRST_STOP
    while t < seconds * (1 + 1e-9):
        found.append(t)
        t *= 2
    return found


def curve(tree, layers, text: str, seed: int, seconds: float) -> list[dict]:
    """One search's exploitability at each stop: ``{seconds, iterations, exploitability}``."""
    search = whole_game_search(text, tree.start.search_kernel().clone(), seed)
    strategy = search_strategy(tree, search)
    points, spent = [], 0.0
    for stop in stops(seconds):
        start = time.monotonic()
        search.run(2**62, start + (stop - spent))
        spent += time.monotonic() - start
        value = exploitability(tree, (strategy, strategy), layers).exploitability
        points.append({"seconds": spent, "iterations": search.simulations,
                       "exploitability": value})
        say(f"  {text} seed {seed}: {spent:.3f} s, {search.simulations:,} iterations, "
            f"exploitability {value:.4f}")
    return points


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    configs = small_games()
    parser.add_argument("--config", action="append", choices=list(configs),
                        help="a configuration (default: all)")
    parser.add_argument("--engine", action="append", metavar="SPEC",
                        help="mccfr[:options] (default: mccfr)")
    parser.add_argument("--seconds", type=float, default=2.0, help="the last stop")
    parser.add_argument("--seed", type=int, action="append", help="search seeds (default: 1)")
    parser.add_argument("--json", metavar="FILE", help="write the curves as JSON")
    parser.add_argument("--plot", metavar="FILE", help="draw them (.svg or .png; needs the "
                                                       "plots extra)")
    args = parser.parse_args()
    engines, seeds = args.engine or ["mccfr"], args.seed or [1]
    try:
        for text in engines:
            whole_game_search(text, CardBattle().small_configuration("open-3")
                              .setup_state().search_kernel(), 0)
        if args.plot:
            from crystalpick.apps.plots import check_target
            check_target("--plot", args.plot)
    except ValueError as err:
        say(f"error: {err}")
        return 2
    print(f"search seeds {', '.join(map(str, seeds))}; stops at {FIRST_STOP:g} s doubling to "
          f"{args.seconds:g} s\n")
    document = {"seeds": seeds, "curves": []}
    try:
        for name in args.config or list(configs):
            tree = build_tree(CardBattle().small_configuration(name).setup_state(), recall=True)
            layers = levels(tree)
            say(f"{name}: {tree.nodes:,} information-set nodes, {len(tree.infosets):,} sets")
            for text in engines:
                runs = [curve(tree, layers, text, seed, args.seconds) for seed in seeds]
                document["curves"].append({"configuration": name, "engine": text,
                                           "runs": runs})
    except KeyboardInterrupt:
        say("interrupted: the table holds the curves finished")
    print("| configuration | engine | " + " | ".join(f"{t:g} s" for t in stops(args.seconds))
          + " |")
    print("|---|---|" + "---|" * len(stops(args.seconds)))
    for entry in document["curves"]:
        cells = []
        for index in range(len(stops(args.seconds))):
            values = [run[index]["exploitability"] for run in entry["runs"]]
            iterations = sum(run[index]["iterations"] for run in entry["runs"]) / len(values)
            spread = f" ({min(values):.3f}-{max(values):.3f})" if len(values) > 1 else ""
            cells.append(f"{sum(values) / len(values):.4f}{spread}, {iterations:,.0f} it.")
        print(f"| {entry['configuration']} | {entry['engine']} | " + " | ".join(cells) + " |")
    if args.json:
        with open(args.json, "w") as out:
            json.dump(document, out, indent=1)
    if args.plot:
        from crystalpick.apps.plots import convergence_graph
        convergence_graph(document, args.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
