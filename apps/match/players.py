"""Match players built from engine specs (see :mod:`search.specs`) by one factory,
:func:`make_player`: a built-in engine (greedy is alpha-beta at depth 1), the game's own
greedy where alpha-beta cannot play, ``random``, or an external ``cmd:`` program.

A player is created in the process that plays the game, so specs, not objects, travel. The
seed goes to whatever has a ``seed`` option in its schema (``EngineSpec.seeded``).
"""
from __future__ import annotations

import random
from abc import ABC, abstractmethod

from crystalpick.engine import GameError, GreedyPolicy, require

from crystalpick.search.analysis import analyse
from crystalpick.search.engines import ENGINES, make_engine
from crystalpick.search.limits import Limits
from crystalpick.search.specs import EXTERNAL, GREEDY, RANDOM, EngineSpec
from .external import ExternalEngine
from .records import GameRecord
from .termination import EngineCrashed, EngineStartError, IllegalMove


class Player(ABC):
    """Chooses moves for one side of one game; keeps its search state between moves. A player
    that cannot start raises :class:`EngineStartError`; one that fails while choosing raises
    the :class:`EngineFailure` that says how."""

    def __init__(self, spec: EngineSpec):
        self.spec = spec
        self.score = None       # the last choice's PovScore, where a search gave one

    @abstractmethod
    def choose(self, state, limits: Limits, record: GameRecord) -> tuple[int, dict]:
        """The move to play in ``state`` (reached by the plies of ``record``) and what to say
        about it in the record's comment."""

    def warm_up(self, state) -> None:
        """Make, before the first game, what the games need (nothing here)."""

    def limits(self, clock: float | None, increment: float, move_time: float | None) -> Limits:
        fields = dict(self.spec.limits)
        if move_time is not None:
            fields["time"] = min(fields.get("time", move_time), move_time)
        if clock is not None:
            fields.update(clock=max(clock, 1e-3), increment=increment)
        if not any(k in fields for k in ("depth", "nodes", "simulations", "time", "clock")):
            fields["time"] = 1.0
        return Limits(**fields)

    def close(self, at_once: bool = False) -> None:
        """Release what the player holds (an external engine's process)."""

    def __enter__(self) -> "Player":
        return self

    def __exit__(self, kind, error, trace) -> None:
        # a game left by an exception (Ctrl-C, a worker told to leave) does not wait for
        # an external engine to quit
        self.close(at_once=kind is not None)

    def did_not_start(self, err: Exception) -> EngineStartError:
        return EngineStartError(f"{self.spec.text!r} did not start: {err}")


class SearchPlayer(Player):
    """A built-in engine searching each move within the player's limits."""

    def __init__(self, spec: EngineSpec, options: dict, game):
        super().__init__(spec)
        try:
            ENGINES[spec.name].refuse(game)
            self.engine = make_engine(spec.name, **options)
        except (GameError, TypeError, ValueError) as err:
            raise self.did_not_start(err) from None

    def warm_up(self, state) -> None:
        """A one-node search, so the engine allocates its table or tree before the first
        game: options that do not fit in memory stop the match instead of forfeiting every
        game."""
        if state.is_terminal() or state.is_chance_node():
            return
        try:
            analyse(state, self.engine, Limits(nodes=1))
        except (GameError, ValueError) as err:
            raise self.did_not_start(err) from None

    def choose(self, state, limits, record):
        try:
            result = analyse(state, self.engine, limits)
        except Exception as err:      # a built-in engine that raises has crashed
            raise EngineCrashed(f"{type(err).__name__}: {err}") from err
        if result.move_to_play is None:
            raise EngineCrashed(f"{self.engine.name} returned no move")
        self.score = result.score           # typed, for a reader to name its unit (play)
        comment = {"score": result.score.text(), "pov": result.point_of_view_name,
                   "nodes": result.nodes}
        if result.depth is not None:
            comment["depth"] = result.depth
        if result.simulations is not None:
            comment["visits"] = result.simulations
        if result.mixed:
            comment["mixed"] = (f"{result.lines[0].probability:.2f} "
                                f"{state.describe_move(result.best_move)}")
        return result.move_to_play, comment


class OwnGreedyPlayer(Player):
    """``greedy`` on a game alpha-beta cannot play: the game's own observation-based greedy
    (its ``GreedyPolicy`` feature, engine/features.py)."""

    def choose(self, state, limits, record):
        return require(state.game, GreedyPolicy, "greedy").greedy_move(state), {}


class RandomPlayer(Player):
    """A uniformly random legal move from its own seeded generator."""

    def __init__(self, spec: EngineSpec, seed: int):
        super().__init__(spec)
        self.rng = random.Random(seed)

    def choose(self, state, limits, record):
        return self.rng.choice(state.legal_moves()), {}


class ExternalPlayer(Player):
    """A program speaking the engine protocol; it manages its own time: it may use its whole
    clock (or the move time)."""

    def __init__(self, spec: EngineSpec, game):
        super().__init__(spec)
        self.external = ExternalEngine(spec.options["command"], game)

    def choose(self, state, limits, record):
        if limits.clock is not None:
            go = f"clock {int(limits.clock * 1000)} inc {int(limits.increment * 1000)}"
            allowed = limits.clock
        else:
            allowed = limits.time or 1.0
            go = f"movetime {int(allowed * 1000)}"
        text, comment = self.external.best_move(record, go, allowed)
        try:
            return state.parse_move(text), comment
        except GameError as err:
            raise IllegalMove(str(err)) from None

    def close(self, at_once: bool = False) -> None:
        self.external.close(at_once)


def make_player(spec: EngineSpec, seed: int, game) -> Player:
    """The player ``spec`` names for one side of a game of ``game``, seeded from ``seed``
    unless the spec sets its own."""
    options = spec.seeded(seed)
    if spec.kind == EXTERNAL:
        return ExternalPlayer(spec, game)
    if spec.kind == RANDOM.name:
        return RandomPlayer(spec, options["seed"])
    if spec.kind == GREEDY.name and not ENGINES[spec.name].accepts(game):
        return OwnGreedyPlayer(spec)
    return SearchPlayer(spec, options, game)
