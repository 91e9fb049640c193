"""How much of greedy's real hand ISMCTS's determinizations hold (docs/cardbattle.md,
"Inference"): at every creature choice of the first seat in seeded greedy-against-greedy
games over every ordered pair of sample decks, the share of the second seat's real hand
found in ``--draws`` determinizations drawn uniformly (the kernel's) and conditioned on
their past play (``CardBattlePlayout.infer``, ISMCTS's ``infer=1``).

    python bench/experiments/cardbattle_inference.py [--games 60] [--draws 100] [--seed 1]

Cheap (seconds) and free of search noise: the number that says whether a change to the
inferences knows the other hand better, before matches say whether it plays better.
"""
from __future__ import annotations

import argparse
import itertools
import random

from crystalpick.engine import get_game, sample_chance
from crystalpick.engine.cardbattle.cards import sample_decks
from crystalpick.engine.cardbattle.position import CHOOSE


def shares(games: int, draws: int, seed: int) -> dict[str, tuple[int, int]]:
    """(cards of the real hand held, cards drawn) per kind of draw."""
    decks = sample_decks()
    pairings = list(itertools.product(decks, repeat=2))
    found = {"uniform": [0, 0], "conditioned": [0, 0]}
    for g in range(games):
        first, second = pairings[g % len(pairings)]
        game_seed = seed * 100_003 + g
        game = get_game("cardbattle", {"deck1": first, "deck2": second}, seed=game_seed)
        state, rng = game.new_initial_state(), random.Random(game_seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.play(sample_chance(state, rng.random()))
                continue
            position = state.to_position()
            if state.current_player() == 0 and position.phase == CHOOSE:
                real = set(position.seats[1].hand)
                policy = game.playout_policy()
                policy.infer(state.search_kernel(), 0)
                for d in range(draws):
                    draw_seed = rng.getrandbits(64)
                    for kind, kernel in (
                            ("uniform", state.search_kernel().determinized(0, draw_seed)),
                            ("conditioned", policy.determinized(state, 0, draw_seed))):
                        hand = set(kernel.to_position().seats[1].hand)
                        found[kind][0] += len(hand & real)
                        found[kind][1] += len(real)
            state.play(state.game.greedy_move(state))
    return {kind: (held, total) for kind, (held, total) in found.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--draws", type=int, default=100, help="per decision")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.games < 1 or args.draws < 1 or args.seed < 0:
        parser.error("--games and --draws take a whole number from 1, --seed one from 0")
    print(f"seed: {args.seed}; {args.games} greedy games, {args.draws} draws per decision")
    for kind, (held, total) in shares(args.games, args.draws, args.seed).items():
        print(f"{kind:12} {held / total:7.2%} of the real hand ({held:,} of {total:,} cards)")


if __name__ == "__main__":
    main()
