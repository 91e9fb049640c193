"""What reading the record costs and what it changes (docs/cardbattle.md, "Analysis from the
history"): at decisions of random games from the deal, the time ``State.knowing_kernel``
takes (the record read once, nothing cached before), and how differently the other hand is
drawn from the history and from the view alone.

    python bench/experiments/cardbattle_knowledge.py [--games 150] [--draws 400] [--seed 1]

"Placed differently" is half the summed difference, over the other player's cards, of how
often each is in the hand drawn: the expected number of cards of the hand that move; two
draws from the view with other seeds give the sampling noise.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter

from crystalpick.engine import sample_chance
from crystalpick.engine.cardbattle import CardBattle
from crystalpick.engine.game import CHANCE


def in_hand(draw, seeds: range, q: int) -> Counter:
    return Counter(card for seed in seeds for card in draw(seed).to_position().seats[q].hand)


def moved(a: Counter, b: Counter, draws: int) -> float:
    return sum(abs(a[card] - b[card]) for card in set(a) | set(b)) / draws / 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--draws", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    costs, plies, history, noise = [], [], [], []
    for seed in range(args.games):
        game = CardBattle(seed=seed)
        state = game.new_initial_state()
        for _ in range(rng.randrange(10, 120)):
            if state.is_terminal():
                break
            state.play(sample_chance(state, rng.random()) if state.is_chance_node()
                       else rng.choice(state.legal_moves()))
        if state.is_terminal() or state.current_player() == CHANCE:
            continue
        player = state.current_player()
        fresh = game._state(state.origin)       # its record not yet read
        for move in state.played_moves():
            fresh.play(move)
        start = time.perf_counter()
        knowing = fresh.knowing_kernel(player, seed)
        costs.append(time.perf_counter() - start)
        plies.append(len(state.played_moves()))
        first, other = range(args.draws), range(args.draws, 2 * args.draws)
        view = in_hand(lambda s: state.determinization(player, s), first, 1 - player)
        again = in_hand(lambda s: state.determinization(player, s), other, 1 - player)
        known = in_hand(lambda s: knowing.kernel.determinized(player, s), first, 1 - player)
        history.append(moved(view, known, args.draws))
        noise.append(moved(view, again, args.draws))
    print(f"{len(costs)} decisions, {statistics.mean(plies):.0f} plies of history on average "
          f"(max {max(plies)})")
    print(f"knowing_kernel: median {1000 * statistics.median(costs):.1f} ms, "
          f"max {1000 * max(costs):.1f} ms")
    print(f"cards of the other hand placed differently, history vs view: mean "
          f"{statistics.mean(history):.2f}, median {statistics.median(history):.2f}, max "
          f"{max(history):.2f}; view vs view (noise): mean {statistics.mean(noise):.2f}")


if __name__ == "__main__":
    main()
