"""ISMCTS speed on the card battle's sample decks (docs/cardbattle.md): simulations per
second of one search on one core, per CPU second (what an idle core would do) and per wall
second, on decisions of seeded greedy games for every pair of sample decks; and, in the same
run, the kernel's native random playouts from the same positions, as the ratio's reference
(a simulation is a determinization, a walk down the tree and a playout).

    python bench/experiments/ismcts_speed.py [--sims 20000] [--positions 4] [--seed 1] [--playout random]
        [--epsilon 0] [--model 0] [--warmup 0] [--infer]

With ``--infer`` each search first conditions its draws on the game so far (ISMCTS's
``infer=1``), so the positions keep their games' histories.
"""
from __future__ import annotations

import argparse
import itertools
import random
import time

from crystalpick.engine import get_game, sample_chance
from crystalpick.engine.cardbattle.cards import sample_decks
from crystalpick.search.ismcts import ISMCTS


def decisions(first: str, second: str, count: int, seed: int):
    """``count`` decision states of a greedy game between the two decks."""
    game = get_game("cardbattle", {"deck1": first, "deck2": second}, seed=seed)
    state, rng, out = game.new_initial_state(), random.Random(seed), []
    while not state.is_terminal():
        if state.is_chance_node():
            state.play(sample_chance(state, rng.random()))
            continue
        if len(state.legal_moves()) > 1 and rng.random() < 0.3:
            out.append(state.clone())
        state.play(state.game.greedy_move(state))
    return out[:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sims", type=int, default=20000)
    parser.add_argument("--positions", type=int, default=4, help="per deck pairing")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--playout", choices=("random", "heuristic"), default="random")
    parser.add_argument("--epsilon", type=float, default=0.0, help="ismcts's epsilon")
    parser.add_argument("--model", type=float, default=0.0, help="ismcts's model")
    parser.add_argument("--warmup", type=int, default=0, help="ismcts's warmup")
    parser.add_argument("--infer", action="store_true", help="ismcts's infer=1")
    args = parser.parse_args()
    sims = cpu = wall = 0.0
    playouts = playout_cpu = 0.0
    for first, second in itertools.combinations(sample_decks(), 2):
        for state in decisions(first, second, args.positions, args.seed):
            kernel = (state.search_kernel() if args.infer
                      else state.game.parse_position(state.position()).search_kernel())
            policy = state.game.playout_policy()
            if args.infer:
                policy.infer(kernel, state.current_player())
            tree = ISMCTS(kernel, policy, state.current_player(),
                          seed=args.seed, playout=args.playout, warmup=args.warmup,
                          epsilon=args.epsilon, model=args.model)
            started, clock = time.process_time(), time.perf_counter()
            sims += tree.run(args.sims)
            cpu += time.process_time() - started
            wall += time.perf_counter() - clock
            started = time.process_time()
            kernel.random_playouts(args.sims, args.seed)
            playout_cpu += time.process_time() - started
            playouts += args.sims
    rate, reference = sims / cpu, playouts / playout_cpu
    print(f"ISMCTS: {sims:,.0f} simulations, {rate:,.0f} per CPU second, "
          f"{sims / wall:,.0f} per wall second (load shares the core)")
    print(f"kernel random playouts from the same positions: {reference:,.0f} per CPU second; "
          f"a simulation costs {reference / rate:.2f} random playouts")


if __name__ == "__main__":
    main()
