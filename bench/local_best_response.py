"""Local best response (Lisý and Bowling 2017) against any engine of a game with hidden
information: a lower bound on the engine's exploitability at sizes no exact solver reaches.

    python bench/local_best_response.py [GAME] --engine SPEC [--deck NAME ...]
        [--config NAME] [--games 20] [--worlds 8] [--playouts 4] [--seed N]

At each of its own decisions LBR draws --worlds full states from its own view
(``State.determinization``: uniform over what its observation allows, a sample of the other
player's possible hands, not their enumeration, and not reweighted by the engine's past play),
asks the engine's strategy (``solvers/exact/policy.py``: its distribution over moves, once
per observation of the engine) wherever the engine decides before LBR moves or right after
it, and plays the move with the best mean score over the worlds, the engine's replies and
--playouts continuations by the game's playout policy. Games come in colour-swapped pairs
with the same chance numbers (as ``match``), so each side plays each deck once. LBR is one
fixed strategy, so its score above 50% bounds the engine's exploitability (in win
probability, a game's being worth 50% to each seat over a pair) from below; a score at or
below 50% says nothing. docs/research/cardbattle-local-best-response.md has the method and
figures.
"""
from __future__ import annotations

import argparse
import random
import sys
import time

from crystalpick.apps.match.stats import Results
from crystalpick.engine import DeckBuilding, GameError, get_game, require, sample_chance
from crystalpick.search.seeds import derive_seed
from crystalpick.solvers.exact.policy import make_policy


def score_of(state, player: int) -> float:
    """1, 0.5 or 0: ``player``'s result at a finished game."""
    returns = state.returns()
    mine, theirs = returns[player], returns[1 - player]
    return 1.0 if mine > theirs else 0.0 if mine < theirs else 0.5


class LocalBestResponse:
    """LBR's move choice against ``engine`` (a solvers/exact Policy) for seat ``me``."""

    def __init__(self, game, engine, me: int, worlds: int, playouts: int, rng: random.Random):
        self.playout_policy = game.playout_policy()
        self.engine, self.me = engine, me
        self.worlds, self.playouts, self.rng = worlds, playouts, rng
        self.asked: dict[str, dict[int, float]] = {}

    def engine_strategy(self, state) -> dict[int, float]:
        """The engine's distribution at ``state``, once per observation of the mover (what
        it reads)."""
        key = state.observation_string(state.current_player())
        if key not in self.asked:
            self.asked[key] = self.engine.probabilities(state)
        return self.asked[key]

    def playout(self, state) -> float:
        """LBR's mean score over continuations by the game's playout policy."""
        total = 0.0
        for _ in range(self.playouts):
            s = state.clone()
            while not s.is_terminal():
                if s.is_chance_node():
                    s.play(sample_chance(s, self.rng.random()))
                else:
                    s.play(self.playout_policy.playout(s, self.rng.getrandbits(64)))
            total += score_of(s, self.me)
        return total / self.playouts

    def after_move(self, state) -> float:
        """The value after LBR's move: the engine's reply by its strategy, if it is next."""
        if state.is_terminal():
            return score_of(state, self.me)
        if state.is_chance_node() or state.current_player() == self.me:
            return self.playout(state)
        total = 0.0
        for move, p in self.engine_strategy(state).items():
            if p > 0:
                child = state.clone()
                child.play(move)
                total += p * self.playout(child)
        return total

    def move_values(self, world, weight: float, values: dict[int, float]) -> None:
        """Add ``weight`` x each LBR move's value in ``world``; an engine choice LBR's view
        hid (a secret choice taken back by the determinization) is made first, by the
        engine's strategy."""
        mover = world.current_player()
        if mover != self.me:
            for move, p in self.engine_strategy(world).items():
                if p > 0:
                    child = world.clone()
                    child.play(move)
                    self.move_values(child, weight * p, values)
            return
        for move in world.legal_moves():
            child = world.clone()
            child.play(move)
            values[move] = values.get(move, 0.0) + weight * self.after_move(child)

    def choose(self, state) -> int:
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        values: dict[int, float] = {}
        for _ in range(self.worlds):
            world = state.determinization(self.me, self.rng.getrandbits(63))
            self.move_values(world, 1.0 / self.worlds, values)
        return max(moves, key=lambda move: values.get(move, -1.0))


def draw(distribution: dict[int, float], rng: random.Random) -> int:
    u, total = rng.random(), 0.0
    for move, p in distribution.items():
        total += p
        if u < total:
            return move
    return max(distribution, key=distribution.get)


def play_game(game, spec: str, seed: int, pair: int, lbr_seat: int, worlds: int,
              playouts: int) -> float:
    """One game, LBR in ``lbr_seat``; chance from the pair's stream; LBR's score."""
    state = game.new_initial_state()
    chance = random.Random(derive_seed(seed, "chance", pair))
    rng = random.Random(derive_seed(seed, "lbr", pair, lbr_seat))
    engine = make_policy(spec, derive_seed(seed, "engine", pair, lbr_seat))
    lbr = LocalBestResponse(game, engine, lbr_seat, worlds, playouts, rng)
    while not state.is_terminal():
        if state.is_chance_node():
            move = sample_chance(state, chance.random())
        elif state.current_player() == lbr_seat:
            move = lbr.choose(state)
        else:
            move = draw(engine.probabilities(state), rng)
        state.play(move)
    return score_of(state, lbr_seat)


def make_game(name: str, decks: list[str], config: str | None, setup_seed: int):
    if config:
        return get_game(name, seed=setup_seed).small_configuration(config)
    rules = require(get_game(name), DeckBuilding, "--deck").deck_rules(decks) if decks else {}
    return get_game(name, rules, seed=setup_seed)


def measure(name: str, spec: str, games: int, seed: int, decks=(), config=None, worlds=8,
            playouts=4, progress=None) -> Results:
    """LBR's results over ``games`` (rounded up to pairs) against ``spec``."""
    results = Results()
    for pair in range((games + 1) // 2):
        game = make_game(name, list(decks), config, derive_seed(seed, "setup", pair))
        first, second = (play_game(game, spec, seed, pair, seat, worlds, playouts)
                         for seat in (0, 1))
        results.add_pair(first, second)
        if progress:
            progress(pair + 1, results)
    return results


def positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {text}")
    return value


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", nargs="?", default="cardbattle")
    parser.add_argument("--engine", required=True, help="random, greedy or an engine spec")
    parser.add_argument("--deck", action="append", default=[], help="one per seat, as match")
    parser.add_argument("--config", help="a small configuration instead of decks")
    parser.add_argument("--games", type=positive, default=20, help="rounded up to whole pairs")
    parser.add_argument("--worlds", type=positive, default=8)
    parser.add_argument("--playouts", type=positive, default=4)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    print(f"seed {seed}; LBR against {args.engine}: {args.worlds} worlds, {args.playouts} "
          f"playouts per reply", flush=True)
    start = time.perf_counter()

    def progress(pairs: int, results: Results) -> None:
        print(f"  {pairs} pairs: {results.score:.3f} ({time.perf_counter() - start:.0f} s)",
              file=sys.stderr, flush=True)
    try:
        results = measure(args.game, args.engine, args.games, seed, args.deck, args.config,
                          args.worlds, args.playouts, progress)
    except (GameError, ValueError) as err:
        parser.error(str(err))
    score = results.wilson_interval()      # has ends for a clean sweep too
    spread = (f"({score.missing})" if score.missing else
              f"[{score.low:.3f}, {score.high:.3f}] (95% Wilson, per pair)")
    print(f"LBR scored {score.mean:.3f} {spread} in {results.games} games (+{results.wins} ={results.draws} "
          f"-{results.losses}), {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
