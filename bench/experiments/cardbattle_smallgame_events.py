"""How often the small card battle configurations (engine/cardbattle/smallgames/) meet a
tie-break (§4.6) and a reshuffle (§4.9): the share of random games (every move uniform among
the legal ones) that meet each, which is why ties-3 and reshuffle-2 exist (docs/cardbattle.md,
"Exact solving and exploitability").

    python bench/experiments/cardbattle_smallgame_events.py [--config NAME ...] [--games 2000] [--seed 1]
"""
from __future__ import annotations

import argparse
import random
import sys

from crystalpick.engine.cardbattle import CardBattle
from crystalpick.engine.cardbattle.smallgames import random_game_events, small_games

EVENTS = ("tie-break", "reshuffle")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    configs = small_games()
    parser.add_argument("--config", action="append", choices=list(configs),
                        help="a configuration (default: all)")
    parser.add_argument("--games", type=int, default=2000, help="random games per configuration")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random games")
    args = parser.parse_args()
    print(f"{args.games} random games per configuration, seed {args.seed}\n")
    print("| configuration | " + " | ".join(f"games with a {event}" for event in EVENTS)
          + " | games with both |")
    print("|---" * (len(EVENTS) + 2) + "|")
    for name in args.config or list(configs):
        game, rng = CardBattle().small_configuration(name), random.Random(args.seed)
        met = [random_game_events(game, rng) for _ in range(args.games)]
        shares = [sum(event in m for m in met) / args.games for event in EVENTS]
        both = sum(set(EVENTS) <= m for m in met) / args.games
        print(f"| {name} | " + " | ".join(f"{share:.1%}" for share in shares)
              + f" | {both:.1%} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
