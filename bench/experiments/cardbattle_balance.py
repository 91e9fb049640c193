"""The sample-deck balance table of docs/cardbattle.md: greedy against greedy, every pair of
sample decks, each deck in each seat with the same chance stream (colour-swapped pairs),
seeded.

    python bench/experiments/cardbattle_balance.py [--pairs 200] [--seed 1] [--rule NAME=VALUE ...]

Prints a Markdown table: for each deck, its score against each other deck and overall
(a win 1, a draw 1/2), with a 95% interval on the overall score.
"""
from __future__ import annotations

import argparse
import itertools
import random

from crystalpick.engine import sample_chance
from crystalpick.engine.cardbattle import CardBattle
from crystalpick.engine.cardbattle.cards import sample_decks
from crystalpick.apps.match.stats import mean_interval


def play(rules: dict, first: str, second: str, seed: int) -> float:
    """P1's score in one greedy-vs-greedy game (P1 holds ``first``), chance drawn from
    ``seed`` (the k-th chance event takes the k-th number, as in matches)."""
    state = CardBattle({**rules, "deck1": first, "deck2": second}, seed=seed).setup_state()
    chance = random.Random(seed)
    while not state.is_terminal():
        state.play(sample_chance(state, chance.random()) if state.is_chance_node()
                   else state.game.greedy_move(state))
    returns = state.returns()
    return 1.0 if returns[0] > returns[1] else 0.0 if returns[0] < returns[1] else 0.5


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=200, help="colour-swapped pairs per "
                                                               "deck pairing")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args()
    rules = dict(item.split("=", 1) for item in args.rule)
    decks = sample_decks()
    scores = {deck: {} for deck in decks}
    seat_one = []
    for a, b in itertools.combinations(decks, 2):
        total = 0.0
        for pair in range(args.pairs):
            seed = random.Random(f"{args.seed}:{a}:{b}:{pair}").randrange(2**32)
            a_first = play(rules, a, b, seed)
            b_first = play(rules, b, a, seed)
            seat_one += [a_first, b_first]
            total += a_first + (1.0 - b_first)
        games = 2 * args.pairs
        scores[a][b], scores[b][a] = total / games, 1.0 - total / games
    print(f"greedy vs greedy, {args.pairs} colour-swapped pairs per pairing, seed "
          f"{args.seed}, rules {rules or 'default'}\n")
    print("| deck | " + " | ".join(f"vs {d}" for d in decks) + " | overall (95%) |")
    print("|---" * (len(decks) + 2) + "|")
    for deck in decks:
        row = [f"{100 * scores[deck][o]:.1f}%" if o != deck else "-" for o in decks]
        overall = sum(scores[deck].values()) / (len(decks) - 1)
        n = 2 * args.pairs * (len(decks) - 1)
        half = 100 * mean_interval(n, overall, overall * (1 - overall)).error  # binomial: draws are rare
        print(f"| {deck} | " + " | ".join(row) + f" | {100 * overall:.1f}% ± {half:.1f} |")
    print(f"\nP1 (the first seat) scored {100 * sum(seat_one) / len(seat_one):.1f}% of "
          f"{len(seat_one)} games.")


if __name__ == "__main__":
    main()
