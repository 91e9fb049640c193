"""Match players built from engine specs (see :mod:`search.specs`).

A player is created in the process that plays the game, so specs, not objects, travel.
``random`` draws from its own seeded generator.
"""
from __future__ import annotations

import random

from ..engines import make_engine
from ..limits import Limits
from ..specs import EngineSpec

class Player:
    """Chooses moves for one side of one game; keeps its search state between moves."""

    def __init__(self, spec: EngineSpec, seed: int):
        self.spec = spec
        self.rng = random.Random(spec.options.get("seed", seed))   # random:seed=N
        self.engine = self.external = None
        if spec.name == "cmd":
            from .external import ExternalEngine
            self.external = ExternalEngine(spec.options["command"], {})
        elif spec.name != "random":
            options = dict(spec.options)
            if spec.name == "mcts":
                options.setdefault("seed", seed)
            self.engine = make_engine(spec.name, **options)

    def limits(self, clock: float | None, increment: float, move_time: float | None) -> Limits:
        fields = dict(self.spec.limits)
        if move_time is not None:
            fields["time"] = min(fields.get("time", move_time), move_time)
        if clock is not None:
            fields.update(clock=max(clock, 1e-3), increment=increment)
        if not any(k in fields for k in ("depth", "nodes", "simulations", "time", "clock")):
            fields["time"] = 1.0
        return Limits(**fields)

    def choose(self, state, limits: Limits) -> tuple[int, dict]:
        """The move to play and what to say about it in the record's comment."""
        if self.external is not None:
            return self.choose_external(state, limits)
        if self.engine is None:
            return self.rng.choice(state.legal_moves()), {}
        from ..analysis import analyse
        result = analyse(state, self.engine, limits)
        comment = {"score": result.score.text(), "pov": result.point_of_view_name,
                   "nodes": result.nodes}
        if result.depth is not None:
            comment["depth"] = result.depth
        if result.simulations is not None:
            comment["visits"] = result.simulations
        return result.best_move, comment

    def choose_external(self, state, limits: Limits) -> tuple[int, dict]:
        soft, hard = limits.budget()
        if limits.clock is not None:
            go = f"clock {int(limits.clock * 1000)} inc {int(limits.increment * 1000)}"
        else:
            go = f"movetime {int((limits.time or 1.0) * 1000)}"
        text, comment = self.external.best_move(state.position(), go, hard or soft or 1.0)
        try:
            return state.parse_move(text), comment
        except Exception as err:
            raise RuntimeError(f"illegal move from the engine: {err}") from None

    def close(self) -> None:
        if self.external is not None:
            self.external.close()
