"""Local best response (Lisý and Bowling 2017) against any engine of a game with hidden
information: a lower bound on the engine's exploitability at sizes no exact solver reaches.

    python bench/local_best_response.py [GAME] --engine SPEC [--deck NAME ...]
        [--config NAME] [--games 20] [--worlds 8] [--playouts 4] [--seed N] [--uniform]

At each of its own decisions LBR draws --worlds full states from its own view: against an
engine that reads only its observation now (random, greedy) in a game with ranges, from its
range (search/ranges.py ``RangeTracker``, carried from the deal: the worlds its record
allows, weighted by chance and the engine's strategy, Bayes on its past play); else, or with
--uniform, by ``State.determinization`` (uniform over what its observation allows). It
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
from crystalpick.engine import (DeckBuilding, GameError, Ranges, get_game, require,
                                sample_chance)
from crystalpick.search.ranges import RangeTracker
from crystalpick.search.seeds import derive_seed
from crystalpick.solvers.exact.policy import make_policy


def score_of(state, player: int) -> float:
    """1, 0.5 or 0: ``player``'s result at a finished game."""
    returns = state.returns()
    mine, theirs = returns[player], returns[1 - player]
    return 1.0 if mine > theirs else 0.0 if mine < theirs else 0.5


class LocalBestResponse:
    """LBR's move choice against ``engine`` (a solvers/exact Policy) for seat ``me``."""

    def __init__(self, game, engine, me: int, worlds: int, playouts: int, rng: random.Random,
                 tracker: RangeTracker | None = None):
        self.playout_policy = game.playout_policy()
        self.engine, self.me, self.tracker = engine, me, tracker
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
        hid (a secret choice taken back by a uniform determinization; a world drawn from
        the range holds it made) is made first, by the engine's strategy."""
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
        for world in self.draw_worlds(state):
            self.move_values(world, 1.0 / self.worlds, values)
        return max(moves, key=lambda move: values.get(move, -1.0))

    def draw_worlds(self, state) -> list:
        """--worlds full states LBR cannot tell from ``state``: by the engine's range if
        tracked (a secret choice the engine made is then in them, drawn by its strategy),
        else uniform determinizations (the choice taken back: ``move_values`` asks it)."""
        if self.tracker is None:
            return [state.determinization(self.me, self.rng.getrandbits(63))
                    for _ in range(self.worlds)]
        self.tracker.advance(state)
        held, weights = zip(*self.tracker.worlds())
        return [world.clone() for world in self.rng.choices(held, weights, k=self.worlds)]


def draw(distribution: dict[int, float], rng: random.Random) -> int:
    u, total = rng.random(), 0.0
    for move, p in distribution.items():
        total += p
        if u < total:
            return move
    return max(distribution, key=distribution.get)


def ranged(game, engine) -> bool:
    """Whether LBR can hold ``engine``'s range: the game lists private states and the
    engine reads only its observation now (a range under a strategy that reads its whole
    record would hold too many worlds at full size: search/ranges.py)."""
    return isinstance(game, Ranges) and engine.markov


def dealt(game):
    """The state ``game.new_initial_state()`` gives (the same deal, from ``game.seed``),
    with the deal's chance moves played from the setup rather than forgotten."""
    state, deal = game.setup_state(), random.Random(game.seed)
    while state.is_chance_node():
        state.play(sample_chance(state, deal.random()))
    return state


def play_game(game, spec: str, seed: int, pair: int, lbr_seat: int, worlds: int,
              playouts: int, ranges: bool = True) -> float:
    """One game, LBR in ``lbr_seat``; chance from the pair's stream; LBR's score. With
    ``ranges`` (where :func:`ranged`), LBR draws its worlds from the engine's range, so the
    game is played from the setup (a range starts at the deal), with the same deal."""
    engine = make_policy(spec, derive_seed(seed, "engine", pair, lbr_seat))
    tracker = None
    if ranges and ranged(game, engine):
        state = dealt(game)
        tracker = RangeTracker(state, lbr_seat, engine.probabilities, markov=True)
    else:
        state = game.new_initial_state()
    chance = random.Random(derive_seed(seed, "chance", pair))
    rng = random.Random(derive_seed(seed, "lbr", pair, lbr_seat))
    lbr = LocalBestResponse(game, engine, lbr_seat, worlds, playouts, rng, tracker)
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
            playouts=4, progress=None, ranges: bool = True) -> Results:
    """LBR's results over ``games`` (rounded up to pairs) against ``spec``; ``ranges``
    False: uniform worlds whatever the engine."""
    results = Results()
    for pair in range((games + 1) // 2):
        game = make_game(name, list(decks), config, derive_seed(seed, "setup", pair))
        first, second = (play_game(game, spec, seed, pair, seat, worlds, playouts, ranges)
                         for seat in (0, 1))
        results.add_pair(first, second)
        if progress:
            progress(pair + 1, results)
    return results


def worlds_note(game, engine, uniform: bool) -> str:
    """How LBR draws its worlds against ``engine``, and why."""
    if not uniform and ranged(game, engine):
        return "worlds drawn from the engine's range (Bayes on its play since the deal)"
    why = ("--uniform" if uniform else
           "the game lists no private states" if not isinstance(game, Ranges) else
           "the engine reads more than its observation now: no range held")
    return f"worlds drawn uniformly from LBR's view ({why})"


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
    parser.add_argument("--uniform", action="store_true",
                        help="uniform worlds even where the engine's range can be held")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    print(f"seed {seed}; LBR against {args.engine}: {args.worlds} worlds, {args.playouts} "
          f"playouts per reply", flush=True)
    start = time.perf_counter()

    def progress(pairs: int, results: Results) -> None:
        print(f"  {pairs} pairs: {results.score:.3f} ({time.perf_counter() - start:.0f} s)",
              file=sys.stderr, flush=True)
    try:
        print(worlds_note(make_game(args.game, args.deck, args.config, seed),
                          make_policy(args.engine, seed), args.uniform), flush=True)
        results = measure(args.game, args.engine, args.games, seed, args.deck, args.config,
                          args.worlds, args.playouts, progress, not args.uniform)
    except (GameError, ValueError) as err:
        parser.error(str(err))
    score = results.wilson_interval()      # has ends for a clean sweep too
    spread = (f"({score.missing})" if score.missing else
              f"[{score.low:.3f}, {score.high:.3f}] (95% Wilson, per pair)")
    print(f"LBR scored {score.mean:.3f} {spread} in {results.games} games (+{results.wins} ={results.draws} "
          f"-{results.losses}), {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
