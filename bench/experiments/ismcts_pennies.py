"""ISMCTS's regret matching against a known equilibrium (the record, with the rules EXP3 and
UCT it then compared and that were dropped since: docs/research/cardbattle-ismcts-selection.md):
the matching-pennies card battle position of tests/test_ismcts.py (P1 holds 4 and 1, P2 holds 5
and 2, P2 must win both last rounds; the equilibrium plays each card with probability 1/2
and is worth 1/2), searched from each chooser's view (P2's after P1's secret choice).

For each chooser and budget, over several seeds: the exploitability of the root's recommended
strategy (what a best response takes from the equilibrium value 1/2: 1/2 - min(p, 1 - p))
and the error of the root's value (|v - 1/2|), mean and worst over the seeds.

    python bench/experiments/ismcts_pennies.py [--seeds 5] [--budgets 1000,10000,100000]
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from crystalpick.search import Limits, analyse, make_engine

sys.path.insert(0, str(Path(__file__).parents[2] / "tests"))
from test_ismcts import PENNIES_POSITION, pennies_game  # noqa: E402  (the one definition)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--budgets", default="1000,10000,100000")
    args = parser.parse_args()
    budgets = [int(b) for b in args.budgets.split(",")]
    with tempfile.TemporaryDirectory() as folder:
        game = pennies_game(Path(folder))
        print("| rule | chooser | " + " | ".join(f"{b:,} sims" for b in budgets) + " |")
        print("|---|---|" + "---|" * len(budgets))
        for moves, chooser in (("", "P1 (first)"), ("play:1", "P2 (second)")):
            state = game.state(PENNIES_POSITION, moves)
            cells = []
            for budget in budgets:
                gaps, errors = [], []
                for seed in range(args.seeds):
                    result = analyse(state, make_engine("ismcts", seed=seed),
                                     Limits(simulations=budget))
                    p = result.lines[0].probability
                    gaps.append(0.5 - min(p, 1 - p))
                    errors.append(abs(result.win_probability - 0.5))
                cells.append(f"{sum(gaps) / len(gaps):.3f} / {max(gaps):.3f}; "
                             f"{sum(errors) / len(errors):.3f}")
            print(f"| rm | {chooser} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
