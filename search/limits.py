"""Search limits and the time budget derived from them (including a game clock)."""
from __future__ import annotations

from dataclasses import dataclass

# With a game clock and no moves-to-go, assume this many more moves of ours: Mattock games
# last at most ~28 moves a side on size 5, and Maatatahay is of the same order.
DEFAULT_MOVES_TO_GO = 20
# Never plan to use more than this share of the remaining clock on one move.
MAX_CLOCK_SHARE = 0.5


@dataclass(frozen=True)
class Limits:
    """When to stop. Any mix may be given; the search stops at the first one reached.

    ``time`` is wall seconds for this move. ``clock``/``increment`` (seconds) describe a game
    clock: the search aims at a soft budget and never passes the hard one (see
    :meth:`budget`). ``nodes`` counts positions entered; ``simulations`` applies to MCTS only
    and ``depth`` to alpha-beta only. ``infinite`` asks for no limit at all: the search runs
    until its stop flag is set (the engine protocol's ``go infinite``), so it excludes the
    others and :func:`search.analyse` accepts it only with a stop flag.
    """
    depth: int | None = None
    nodes: int | None = None
    simulations: int | None = None
    time: float | None = None
    clock: float | None = None
    increment: float = 0.0
    moves_to_go: int | None = None
    infinite: bool = False

    def __post_init__(self):
        for name in ("depth", "nodes", "simulations", "moves_to_go"):
            value = getattr(self, name)
            if value is not None and value < 1:
                raise ValueError(f"limit {name} must be at least 1, got {value}")
        for name in ("time", "clock"):
            value = getattr(self, name)
            if value is not None and value <= 0:
                raise ValueError(f"limit {name} must be positive, got {value}")
        if self.increment < 0:
            raise ValueError("increment must not be negative")
        if self.infinite and self.is_bounded():
            raise ValueError("an infinite search takes no other limit")

    def is_bounded(self) -> bool:
        return any(v is not None for v in (self.depth, self.nodes, self.simulations,
                                           self.time, self.clock))

    def budget(self) -> tuple[float | None, float | None]:
        """``(soft, hard)`` seconds for this move, or ``(None, None)`` without a time limit.

        Soft is the target: an iterative search does not start work it expects to finish
        after it. Hard is the cut-off. With a clock: soft = clock / moves-to-go + 3/4 of the
        increment, hard = 3 x soft, both capped at half the clock (never flag).
        """
        soft = hard = self.time
        if self.clock is not None:
            cap = self.clock * MAX_CLOCK_SHARE
            share = self.clock / (self.moves_to_go or DEFAULT_MOVES_TO_GO) + 0.75 * self.increment
            clock_soft, clock_hard = min(share, cap), min(3 * share, cap)
            soft = clock_soft if soft is None else min(soft, clock_soft)
            hard = clock_hard if hard is None else min(hard, clock_hard)
        return soft, hard
