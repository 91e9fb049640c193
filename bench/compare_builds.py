"""Mattock search speed of this build against a baseline build, measured in the same run.

    python bench/compare_builds.py BASELINE [--seconds 1] [--rounds 3]

BASELINE is a folder holding another build as ``BASELINE/crystalpick/{engine,search,cli,
positions}`` (links to a built checkout's folders, e.g. a ``git worktree`` of the older commit
with its compiled ``.so`` files). On a shared machine rates drift from minute to minute, so the
two builds are measured alternately, round after round, each in its own process on the same
positions (the start position and the bench suite), and the ratio is the number to trust.
Prints, per build, the best round's alpha-beta nodes/s and MCTS simulations/s with uniformly
random playouts to the end of the game (the two rates of ``bench/perf_table.py`` issue 17
targets), summed over the positions, and the ratios.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

MEASURE = """
import json, sys, time
from crystalpick.engine import get_game
from crystalpick.search import Limits, make_engine
game, seconds = get_game("mattock"), float(sys.argv[1])
states = [game.new_initial_state()] + [game.parse_position(c.position) for c in game.bench_suite()]
totals = {"alphabeta": [0, 0.0], "random_playouts": [0, 0.0]}
for state in states:
    if state.is_terminal():
        continue
    player = state.current_player()
    ab = make_engine("alphabeta").analyse(state, Limits(time=seconds), None, player, 1)
    mcts = make_engine("mcts", seed=1, playout="random", playout_depth=0, reuse=False).analyse(
        state, Limits(time=seconds), None, player, 1)
    totals["alphabeta"][0] += ab.nodes
    totals["alphabeta"][1] += ab.elapsed
    totals["random_playouts"][0] += mcts.simulations
    totals["random_playouts"][1] += mcts.elapsed
print(json.dumps({k: n / t for k, (n, t) in totals.items()}))
"""


def measure(path: str | None, seconds: float) -> dict:
    env = dict(os.environ)
    if path:
        env["PYTHONPATH"] = os.path.abspath(path)
    out = subprocess.run([sys.executable, "-c", MEASURE, str(seconds)], env=env,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("baseline", help="folder holding the baseline build's crystalpick/")
    parser.add_argument("--seconds", type=float, default=1.0, help="per search (default 1)")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if not os.path.isdir(os.path.join(args.baseline, "crystalpick", "engine")):
        sys.exit(f"error: baseline {args.baseline!r}: expected a folder holding "
                 "crystalpick/engine (a built checkout's folders)")
    best = {"baseline": {}, "this build": {}}
    for _ in range(args.rounds):
        for name, path in (("baseline", args.baseline), ("this build", None)):
            for key, value in measure(path, args.seconds).items():
                best[name][key] = max(best[name].get(key, 0.0), value)
    print(f"best of {args.rounds} alternating rounds, {args.seconds:g} s per search, start "
          "position + bench suite:")
    for key in best["baseline"]:
        before, after = best["baseline"][key], best["this build"][key]
        print(f"  {key}: baseline {before:,.0f}/s, this build {after:,.0f}/s, "
              f"ratio {after / before:.2f}x")


if __name__ == "__main__":
    main()
