"""Mattock search speed of this build against a baseline build, measured in the same run.

    python bench/compare_builds.py BASELINE [--nodes 300000] [--sims 3000] [--rounds 3]
                                            [--positions all|start]

BASELINE is a folder holding another build as ``BASELINE/crystalpick/{engine,search,cli,
positions}`` (links to a built checkout's folders, e.g. a ``git worktree`` of the older commit
with its compiled ``.so`` files). On a shared machine rates drift from minute to minute, so the
two builds are measured alternately, round after round, each in its own process on the same
fixed work (alpha-beta to a node count, MCTS to a simulation count, from the start position
and each bench position) timed by the process's CPU time, and the ratio is the number to
trust. Prints, per build, the best round's alpha-beta nodes/s and the simulations/s of plain
UCT (no priors) with uniformly random playouts to the end of the game (the two rates of
``bench/perf_table.py`` issue 17 targets), over all the positions, and the ratios.
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
game, nodes, sims = get_game("mattock"), int(sys.argv[1]), int(sys.argv[2])
states = [game.new_initial_state()]
if sys.argv[3] == "all":
    states += [game.parse_position(c.position) for c in game.bench_suite()]
totals = {"alphabeta": [0, 0.0], "random_playouts": [0, 0.0]}
# plain UCT (no priors, whichever of these options the build has): the playouts' own speed
known = {option.name for option in make_engine("mcts").schema.options}
plain = {k: v for k, v in {"prior": 0, "minimax": 0, "widen": 0}.items() if k in known}
for state in states:
    if state.is_terminal():
        continue
    player = state.current_player()
    for name, engine, limits in (
            ("alphabeta", make_engine("alphabeta"), Limits(nodes=nodes)),
            ("random_playouts", make_engine("mcts", seed=1, playout="random", playout_depth=0,
                                            reuse=False, **plain), Limits(simulations=sims))):
        started = time.process_time()
        result = engine.analyse(state, limits, None, player, 1)
        totals[name][1] += time.process_time() - started
        totals[name][0] += result.nodes if name == "alphabeta" else result.simulations
print(json.dumps({k: n / t for k, (n, t) in totals.items()}))
"""


def measure(path: str | None, nodes: int, sims: int, positions: str) -> dict:
    env = dict(os.environ)
    if path:
        env["PYTHONPATH"] = os.path.abspath(path)
    out = subprocess.run([sys.executable, "-c", MEASURE, str(nodes), str(sims), positions], env=env,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("baseline", help="folder holding the baseline build's crystalpick/")
    parser.add_argument("--nodes", type=int, default=300_000,
                        help="alpha-beta nodes per position (default 300,000)")
    parser.add_argument("--sims", type=int, default=3000,
                        help="MCTS simulations per position (default 3,000)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--positions", choices=("all", "start"), default="all",
                        help="the start position and the bench suite (default), or the start")
    args = parser.parse_args()
    if not os.path.isdir(os.path.join(args.baseline, "crystalpick", "engine")):
        parser.error(f"baseline {args.baseline!r}: expected a folder holding "
                     "crystalpick/engine (a built checkout's folders)")
    best = {"baseline": {}, "this build": {}}
    for _ in range(args.rounds):
        for name, path in (("baseline", args.baseline), ("this build", None)):
            for key, value in measure(path, args.nodes, args.sims, args.positions).items():
                best[name][key] = max(best[name].get(key, 0.0), value)
    print(f"best of {args.rounds} alternating rounds, {args.nodes:,} alpha-beta nodes and "
          f"{args.sims:,} MCTS simulations per position, "
          f"{'start position + bench suite' if args.positions == 'all' else 'start position'}"
          ", per CPU second:")
    for key in best["baseline"]:
        before, after = best["baseline"][key], best["this build"][key]
        print(f"  {key}: baseline {before:,.0f}/s, this build {after:,.0f}/s, "
              f"ratio {after / before:.2f}x")


if __name__ == "__main__":
    main()
