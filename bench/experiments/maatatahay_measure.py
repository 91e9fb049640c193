"""Numbers for the closing notes and docs: game shape over random games and perft speed.

    python bench/experiments/maatatahay_measure.py [--games N] [--depth D]

Random games pick decisions uniformly and chance outcomes by their probabilities (seeded,
so the numbers are reproducible). Perft speed runs the same positions and depth through
both implementations in one process.
"""
from __future__ import annotations

import argparse
import random
import time
from collections import Counter

from crystalpick.engine.game import sample_chance
from crystalpick.engine.maatatahay import Maatatahay
from crystalpick.engine.maatatahay.constants import (CHANCE_PHASES, CRYSTALS, LAYOUT, PHASES,
                                                     REVEAL, TOSS)


def game_shape(games: int) -> dict:
    """Average decision points and chance nodes per game (setup included), mean options per
    phase."""
    visits, options = Counter(), Counter()
    for seed in range(games):
        state = Maatatahay().setup_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            phase = PHASES[state.to_position().phase]
            moves = state.legal_moves()
            visits[phase] += 1
            options[phase] += len(moves)
            if state.is_chance_node():
                move = sample_chance(state, rng.random())
            else:
                move = rng.choice(moves)
            state.play(move)
    chance = sum(visits[PHASES[p]] for p in CHANCE_PHASES)
    setup = sum(visits[PHASES[p]] for p in (LAYOUT, CRYSTALS, REVEAL, TOSS))
    return {"decisions per game": (sum(visits.values()) - chance) / games,
            "chance nodes per game": chance / games,
            "setup chance nodes per game": setup / games,
            "per phase": {p: (visits[p] / games, options[p] / visits[p])
                          for p in PHASES if visits[p]}}


def perft_speed(depth: int, seeds: range, min_seconds: float = 1.0) -> dict:
    """Nodes per second of both implementations over the same positions, each timed over
    repeated runs of at least ``min_seconds`` (a fast perft alone is too short to time)."""
    result = {}
    for impl in ("fast", "reference"):
        states = []
        for seed in seeds:
            state = Maatatahay(impl=impl, seed=seed).new_initial_state()
            for _ in range(6):                   # into round 1's placements: a busier tree
                state.play(state.legal_moves()[0])
            states.append(state)
        nodes, seconds = 0, 0.0
        while seconds < min_seconds:
            start = time.perf_counter()
            nodes += sum(state.perft(depth) for state in states)
            seconds += time.perf_counter() - start
        result[impl] = (nodes, seconds, nodes / seconds)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--positions", type=int, default=5)
    args = parser.parse_args()
    shape = game_shape(args.games)
    print(f"{args.games} random games: {shape['decisions per game']:.1f} decision points and "
          f"{shape['chance nodes per game']:.1f} chance nodes per game (of which "
          f"{shape['setup chance nodes per game']:.1f} in the setup)")
    print("phase      per game   mean options (branching)")
    for phase, (per_game, branching) in shape["per phase"].items():
        print(f"{phase:8} {per_game:9.2f}   {branching:8.2f}")
    speed = perft_speed(args.depth, range(args.positions))
    for impl, (nodes, seconds, rate) in speed.items():
        print(f"perft {args.depth} x {args.positions} positions, {impl:9}: {nodes} nodes in "
              f"{seconds:.3f} s = {rate:,.0f} nodes/s")
    print(f"fast / reference: {speed['fast'][2] / speed['reference'][2]:,.0f}x")


if __name__ == "__main__":
    main()
