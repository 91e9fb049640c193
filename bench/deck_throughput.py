"""Games per second of the deck advisor's game task against the match runner's, in one
process, on the same games: greedy in both seats, titas against arsenal, default rules.

    python bench/deck_throughput.py [--pairs 100] [--seed 1] [--engine greedy]

The deck task (apps/decks/measurement.py) plays a match game and notes the cards the measured
deck puts down; the ratio says what that bookkeeping costs.
"""
from __future__ import annotations

import argparse
import time

from crystalpick.engine import get_game
from crystalpick.apps.decks.measurement import DeckTask, PlaySettings, play_deck_game
from crystalpick.apps.match.games import play_game
from crystalpick.apps.match.settings import MatchSettings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--engine", default="greedy")
    args = parser.parse_args()
    game = get_game("cardbattle", {"deck1": "titas", "deck2": "arsenal"})
    mine, theirs = (game.deck_value(game.deck_cards(p)) for p in (0, 1))
    play = PlaySettings("cardbattle", args.engine, {})
    match = MatchSettings("cardbattle", [args.engine] * 2,
                          rules={"deck1": "titas", "deck2": "arsenal"}, seed=args.seed)
    timings = {}
    for name, run in (
            ("match runner (play_game)", lambda pair, seat: play_game(match, pair, bool(seat))),
            ("deck advisor (play_deck_game)", lambda pair, seat: play_deck_game(
                play, DeckTask("bench", args.seed, mine, theirs, pair, seat)))):
        started = time.perf_counter()
        for pair in range(args.pairs):
            for seat in (0, 1):
                run(pair, seat)
        timings[name] = time.perf_counter() - started
    games = 2 * args.pairs
    for name, seconds in timings.items():
        print(f"{name:<30} {games} games in {seconds:6.2f} s  {games / seconds:7.1f} games/s")
    reference, deck = timings.values()
    print(f"deck advisor / match runner speed: {reference / deck:.2f}")


if __name__ == "__main__":
    main()
