"""Match players built from engine specs (see :mod:`search.specs`).

A player is created in the process that plays the game, so specs, not objects, travel.
``random`` draws from its own seeded generator.
"""
from __future__ import annotations

import random

from crystalpick.engine import GameError, GreedyPolicy, require

from ..engines import make_engine, refuse_for
from ..specs import GREEDY
from ..limits import Limits
from ..specs import EngineSpec
from .records import GameRecord
from .termination import EngineCrashed, EngineStartError, IllegalMove


class Player:
    """Chooses moves for one side of one game; keeps its search state between moves. A player
    that cannot start raises :class:`EngineStartError`; one that fails while choosing raises
    the :class:`EngineFailure` that says how."""

    def __init__(self, spec: EngineSpec, seed: int, game):
        self.spec = spec
        self.rng = random.Random(spec.options.get("seed", seed))   # random:seed=N
        self.engine = self.external = None
        # greedy on a game the searchers refuse is the game's own observation-based greedy
        self.own_greedy = (spec.text.partition(":")[0].strip() == GREEDY.name
                           and not game.capabilities.perfect_information)
        if spec.name == "cmd":
            from .external import ExternalEngine
            self.external = ExternalEngine(spec.options["command"], game)
        elif spec.name != "random" and not self.own_greedy:
            try:
                refuse_for(spec.name, game)
            except GameError as err:
                raise EngineStartError(f"{spec.text!r} did not start: {err}") from None
            options = dict(spec.options)
            if spec.name in ("mcts", "ismcts"):
                options.setdefault("seed", seed)
            try:
                self.engine = make_engine(spec.name, **options)
            except (TypeError, ValueError) as err:
                raise EngineStartError(f"{spec.text!r} did not start: {err}") from None

    def warm_up(self, state) -> None:
        """A one-node search, so a built-in engine allocates its table or tree before the
        first game: options that do not fit in memory stop the match instead of forfeiting
        every game."""
        if self.engine is None or state.is_terminal() or state.is_chance_node():
            return
        from ..analysis import analyse
        try:
            analyse(state, self.engine, Limits(nodes=1))
        except (GameError, ValueError) as err:
            raise EngineStartError(f"{self.spec.text!r} did not start: {err}") from None

    def __enter__(self) -> "Player":
        return self

    def __exit__(self, kind, error, trace) -> None:
        # a game left by an exception (Ctrl-C, a worker told to leave) does not wait for
        # an external engine to quit
        self.close(at_once=kind is not None)

    def limits(self, clock: float | None, increment: float, move_time: float | None) -> Limits:
        fields = dict(self.spec.limits)
        if move_time is not None:
            fields["time"] = min(fields.get("time", move_time), move_time)
        if clock is not None:
            fields.update(clock=max(clock, 1e-3), increment=increment)
        if not any(k in fields for k in ("depth", "nodes", "simulations", "time", "clock")):
            fields["time"] = 1.0
        return Limits(**fields)

    def choose(self, state, limits: Limits, record: GameRecord) -> tuple[int, dict]:
        """The move to play in ``state`` (reached by the plies of ``record``) and what to say
        about it in the record's comment."""
        if self.external is not None:
            return self.choose_external(state, limits, record)
        if self.own_greedy:
            return require(state.game, GreedyPolicy, "greedy").greedy_move(state), {}
        if self.engine is None:
            return self.rng.choice(state.legal_moves()), {}
        from ..analysis import analyse
        try:
            result = analyse(state, self.engine, limits)
        except Exception as err:      # a built-in engine that raises has crashed
            raise EngineCrashed(f"{type(err).__name__}: {err}") from err
        comment = {"score": result.score.text(), "pov": result.point_of_view_name,
                   "nodes": result.nodes}
        if result.depth is not None:
            comment["depth"] = result.depth
        if result.simulations is not None:
            comment["visits"] = result.simulations
        if result.mixed:
            comment["mixed"] = f"{result.lines[0].probability:.2f} {result.best_move_str}"
        return result.move_to_play, comment

    def choose_external(self, state, limits: Limits, record: GameRecord) -> tuple[int, dict]:
        """The engine manages its own time: it may use its whole clock (or the move time)."""
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
        if self.external is not None:
            self.external.close(at_once)
