"""Print the README's performance table from a fresh measurement on this machine.

    python bench/perf_table.py [--plot FILE.svg|FILE.png]

For each game: perft nodes/second of the fast and reference implementations on the same
positions and depths in the same run (and their ratio), the fast perft at a deeper depth,
MCTS simulations/second (the default engine, whose Mattock playouts stop after one ply,
and plain UCT with uniformly random playouts to the end of the game) and alpha-beta nodes/second from the
start position on one core, and MCTS bytes per node. ``--plot`` also draws the rates per game
(``crystalpick.apps.plots.rates_chart``, the ``plots`` extra), to compare builds at a glance.
"""
from __future__ import annotations

import argparse
import datetime
import os
import platform
import time

from crystalpick.engine import get_game
from crystalpick.positions import perft_suite
from crystalpick.search import Limits, make_engine

# (game, perft-table entry, depth for both implementations, deeper depth for the fast one)
PERFT = {"mattock": ("start-5", 3, 4)}
SEARCH_SECONDS = 3.0


def rate(work) -> float:
    started = time.perf_counter()
    nodes = work()
    return nodes / (time.perf_counter() - started)


def perft_rates(game: str) -> dict:
    cases = {case.id: case for case in perft_suite(game)}
    if game in PERFT:
        entry, depth, deep = PERFT[game]
    else:                                     # the largest entry the reference can do quickly
        case = max((c for c in cases.values() if max(c.counts.values()) <= 200_000),
                   key=lambda c: max(c.counts.values()))
        entry, depth = case.id, max(d for d, n in case.counts.items() if n <= 200_000)
        deep = max(case.counts)
    position = cases[entry].position
    fast = get_game(game).parse_position(position)
    reference = get_game(game, impl="reference").parse_position(position)
    same_fast = max(rate(lambda: fast.perft(depth)) for _ in range(5))
    same_reference = rate(lambda: reference.perft(depth))
    return {"entry": entry, "depth": depth, "fast": same_fast, "reference": same_reference,
            "deep_depth": deep, "deep": max(rate(lambda: fast.perft(deep)) for _ in range(3))}


def search_rates(game: str) -> dict:
    state = get_game(game, seed=1).new_initial_state()
    while state.is_chance_node():                 # Maatatahay: a seeded setup first
        state.play(state.legal_moves()[0])
    mcts = make_engine("mcts", seed=1, reuse=False).analyse(
        state, Limits(time=SEARCH_SECONDS), None, state.current_player(), 1)
    # plain UCT (no priors, so no evaluation at expansions): the rate of the playouts themselves
    full = make_engine("mcts", seed=1, playout="random", playout_depth=0, prior=0, minimax=0,
                       widen=0, reuse=False).analyse(
        state, Limits(time=SEARCH_SECONDS), None, state.current_player(), 1)
    alphabeta = make_engine("alphabeta").analyse(
        state, Limits(time=SEARCH_SECONDS), None, state.current_player(), 1)
    return {"sims": mcts.simulations / mcts.elapsed, "full": full.simulations / full.elapsed,
            "bytes_per_node": mcts.bytes_per_node,
            "alphabeta": alphabeta.nps}


def plotted_rates(perft: dict, search: dict) -> dict[str, float]:
    """One game's rates as ``--plot`` draws them (per second: nodes, or simulations)."""
    return {"perft, fast": perft["fast"], "perft, reference": perft["reference"],
            "perft, fast, deeper": perft["deep"],
            "MCTS (default)": search["sims"], "MCTS (plain UCT)": search["full"],
            "alpha-beta": search["alphabeta"]}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description="Measure the README's performance table.")
    parser.add_argument("--plot", metavar="FILE", default=None,
                        help="also draw the rates per game to FILE (.svg or .png)")
    plot = parser.parse_args(argv).plot
    if plot:
        from crystalpick.engine import GameError
        from crystalpick.apps.plots import check_target
        try:
            check_target("--plot", plot)
        except GameError as err:
            parser.exit(2, f"perf_table.py: {err}\n")
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as handle:
            cpu = next(line.split(":", 1)[1].strip() for line in handle
                       if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    print(f"Measured {datetime.date.today()} on {os.cpu_count()} cores ({cpu}), Python "
          f"{platform.python_version()}, one core per measurement, by `python bench/perf_table.py`:")
    print()
    print("| game | perft, fast | perft, reference | ratio | perft, fast, deeper | "
          "MCTS simulations/s (default engine) | MCTS simulations/s (plain UCT, random playouts to the "
          "end) | alpha-beta nodes/s | MCTS bytes/node |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    rates = {}
    for game in ("mattock", "maatatahay"):
        p, s = perft_rates(game), search_rates(game)
        rates[game] = plotted_rates(p, s)
        print(f"| {game} | {p['fast'] / 1e6:.1f} M/s ({p['entry']}, depth {p['depth']}) | "
              f"{p['reference'] / 1e3:.1f} k/s | {p['fast'] / p['reference']:,.0f}× | "
              f"{p['deep'] / 1e6:.1f} M/s (depth {p['deep_depth']}) | {s['sims']:,.0f} | "
              f"{s['full']:,.0f} | "
              f"{s['alphabeta']:,.0f} | {s['bytes_per_node']} |")
    if plot:
        from crystalpick.apps.plots import rates_chart
        rates_chart(rates, plot, f"bench/perf_table.py, {datetime.date.today()}: rates on "
                                 f"one core", "per second (nodes, or MCTS simulations)")
        print(f"\nplot written to {plot}")


if __name__ == "__main__":
    main()
