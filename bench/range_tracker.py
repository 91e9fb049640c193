"""The card battle's ranges at every decision of whole games: what a search that holds the
other player's range (issue 43, item 3) pays per decision at full size.

    python bench/range_tracker.py [--deck A --deck B] [--games 2] [--epsilon 0.1]
        [--scratch SECONDS] [--python] [--seed N]

Both players play greedy (the playout policy's choice, the same in C as
``CardBattle.greedy_move``); chance draws from --seed. At each decision the player to move
carries the range of the other (``search/ranges.py`` ``RangeTracker``, ``markov``: the
strategy reads only the mover's observation) under the strategy greedy with probability
1 - --epsilon and uniform over the legal moves with --epsilon: a ``PolicyStrategy``, so the
walk runs in C (``search/range_walk.pyx``); with --python the same strategy as a Python
callable, walked on States (any strategy's way). Prints, per game and in all, the seconds
per decision (mean and worst) and the worlds held at most. With --scratch S it also walks
from the deal (``range_of``) at each decision until one takes more than S seconds, and
checks the two ranges agree to 1e-12. Measurements, not assertions: the machine may be
busy. docs/research/cardbattle-ranges.md has the figures.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

from crystalpick.engine import get_game, sample_chance
from crystalpick.search.range_walk import PolicyStrategy
from crystalpick.search.ranges import RangeTracker, range_of
from crystalpick.search.seeds import derive_seed


def play_game(game, seed: int, epsilon: float, scratch: float | None,
              python: bool) -> dict:
    """One greedy game with both players' ranges carried; the seconds of each advance."""
    policy = game.playout_policy()
    strategy = PolicyStrategy(policy, epsilon)
    if python:      # the same probabilities through a Python call: the walk on States
        strategy = strategy.__call__
    chance = random.Random(seed)
    state = game.setup_state()
    trackers = [RangeTracker(state, p, strategy, markov=True) for p in (0, 1)]
    seconds, worlds, scratch_seconds, worst_difference = [], [], [], 0.0
    while not state.is_terminal():
        if state.is_chance_node():
            state.play(sample_chance(state, chance.random()))
            continue
        mover = state.current_player()
        start = time.perf_counter()
        found = trackers[mover].advance(state)
        seconds.append(time.perf_counter() - start)
        worlds.append(found.worlds)
        if scratch is not None and (not scratch_seconds or scratch_seconds[-1] <= scratch):
            start = time.perf_counter()
            walked = range_of(state, mover, strategy, markov=True)
            scratch_seconds.append(time.perf_counter() - start)
            worst_difference = max(worst_difference, max(
                abs(p - walked.probabilities[key]) for key, p in found.probabilities.items()))
        state.play(policy.playout(state, 1))
    return {"seconds": seconds, "worlds": worlds, "scratch": scratch_seconds,
            "difference": worst_difference}


def report(label: str, seconds: list[float], worlds: list[int]) -> None:
    print(f"{label}: {len(seconds)} decisions, mean {statistics.mean(seconds):.3f} s, "
          f"max {max(seconds):.3f} s, worlds held at most {max(worlds):,}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deck", action="append", default=[])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--epsilon", type=float, default=0.1)
    parser.add_argument("--scratch", type=float, default=None)
    parser.add_argument("--python", action="store_true",
                        help="the strategy as a Python callable: the walk on States")
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    seed = random.SystemRandom().randrange(2**32) if args.seed is None else args.seed
    decks = args.deck or ["titas", "arsenal"]
    print(f"seed {seed}; {decks[0]} against {decks[1]}; greedy with {1 - args.epsilon:g}, "
          f"uniform with {args.epsilon:g}; walk {'on States' if args.python else 'in C'}",
          flush=True)
    game = get_game("cardbattle", {"deck1": decks[0], "deck2": decks[1]})
    every, held = [], []
    for number in range(args.games):
        result = play_game(game, derive_seed(seed, "game", number), args.epsilon,
                           args.scratch, args.python)
        report(f"game {number + 1}", result["seconds"], result["worlds"])
        if result["scratch"]:
            pairs = list(zip(result["seconds"], result["scratch"]))
            print(f"  from the deal, first {len(pairs)} decisions: "
                  + ", ".join(f"{walk:.2f}/{carried:.2f} s" for carried, walk in pairs)
                  + f" (walk/carried); ranges differ by at most {result['difference']:.1e}")
        every += result["seconds"]
        held += result["worlds"]
    report("all", every, held)


if __name__ == "__main__":
    main()
