"""How often do the rating list's 95% intervals contain the true ratings? Simulated pools of
engines with known Elo, each game a win, draw or loss with the logistic model's expected
score, rated by apps/match/ratings.py; per scenario, the share of (pool, engine) intervals
that contain the engine's true rating against the mean, and the share of open ends.
docs/research/rating-intervals.md."""
from __future__ import annotations

import argparse
import math
import time

import numpy as np

from crystalpick.apps.match.ratings import Unit, rate
from crystalpick.apps.match.stats import expected_score

# name: (true Elo of each engine, games of each pairing, draw share, gauntlet)
SCENARIOS = {
    "2 engines, 1 game, equal": ([0, 0], 1, 0.0, False),
    "2 engines, 2 games, +200": ([200, 0], 2, 0.0, False),
    "2 engines, 4 games, +400": ([400, 0], 4, 0.0, False),
    "2 engines, 4 games, +800": ([800, 0], 4, 0.0, False),
    "3 engines +300/0/-300, 2 games a pairing": ([300, 0, -300], 2, 0.0, False),
    "3 engines equal, all draws, 2 games": ([0, 0, 0], 2, 1.0, False),
    "4 engines 300/100/-50/-350, 2 games": ([300, 100, -50, -350], 2, 0.0, False),
    "gauntlet of 5, 2 games a pairing": ([200, 100, 0, -100, -200], 2, 0.0, True),
    "6 engines 0..1000, 4 games": ([0, 200, 400, 600, 800, 1000], 4, 0.0, False),
    "4 engines 300/100/-50/-350, 40 games, draws": ([300, 100, -50, -350], 40, 0.6, False),
    "3 engines 50/0/-50, 20 games, draws": ([50, 0, -50], 20, 0.6, False),
    "3 engines 100/0/-100, 4 games, draws": ([100, 0, -100], 4, 0.6, False),
    "2 engines +100, 10 games, draws": ([100, 0], 10, 0.6, False),
}


def simulate(strengths, games: int, draw_share: float, gauntlet: bool,
             rng: np.random.Generator) -> list[Unit]:
    """One pool's games: every pairing (or the first engine against each other) plays
    ``games`` games, draws ``draw_share`` of the weaker side's expected share, doubled."""
    names = [f"e{i}" for i in range(len(strengths))]
    units = []
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            if gauntlet and i:
                continue
            p = expected_score(strengths[i] - strengths[j])
            draw = draw_share * 2 * min(p, 1 - p)
            chances = [p - draw / 2, draw, 1 - p - draw / 2]
            scores = rng.choice([1.0, 0.5, 0.0], games, p=chances)
            units += [Unit(names[i], names[j], tuple(scores[k:k + 2]))
                      for k in range(0, games, 2)]
    return units


def measure(strengths, games, draw_share, gauntlet, pools, samples, seed, prior) -> dict:
    rng = np.random.default_rng(seed)
    truth = np.array(strengths, float) - np.mean(strengths)
    covered = opened = total = 0
    narrowest = math.inf
    for pool in range(pools):
        units = simulate(strengths, games, draw_share, gauntlet, rng)
        rated = rate(units, virtual_draws=prior, samples=samples, seed=pool)
        for r in rated.ratings:
            true = truth[int(r.engine[1:])]
            covered += r.low <= true <= r.high
            opened += (not math.isfinite(r.low)) + (not math.isfinite(r.high))
            narrowest = min(narrowest, r.high - r.low)
            total += 1
    return {"intervals": total, "covered": covered / total, "open ends": opened / (2 * total),
            "narrowest": narrowest}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pools", type=int, default=400)
    parser.add_argument("--samples", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--prior", type=float, default=0.5, help="virtual draws a pairing")
    parser.add_argument("--only", default="", help="scenarios whose name holds this")
    args = parser.parse_args()
    print(f"{'scenario':<46} {'intervals':>9} {'covered':>8} {'95% band':>13} "
          f"{'open ends':>9} {'narrowest':>9}  seconds")
    for name, (strengths, games, draws, gauntlet) in SCENARIOS.items():
        if args.only not in name:
            continue
        began = time.perf_counter()
        found = measure(strengths, games, draws, gauntlet, args.pools, args.samples, args.seed,
                        args.prior)
        n = found["intervals"]
        band = 1.96 * math.sqrt(0.95 * 0.05 / n)
        print(f"{name:<46} {n:>9} {100 * found['covered']:>7.1f}% "
              f"{100 * (0.95 - band):>5.1f}-{100 * (0.95 + band):.1f}% "
              f"{100 * found['open ends']:>8.1f}% {found['narrowest']:>9.1f}  "
              f"{time.perf_counter() - began:.0f}")


if __name__ == "__main__":
    main()
