"""perft by root move (``perft --divide``) and the timed count the command prints, over
:meth:`State.perft` (the generic walk of engine/game.py, or a fast state's native loop).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import NamedTuple

from .game import State


class RootCount(NamedTuple):
    move: str            # the root move, in notation
    nodes: int | None    # perft of its child at depth - 1; None: stopped while counting it
    position: str        # the child's position, the one being counted


def perft_by_move(state: State, depth: int, stop=None):
    """Yield a :class:`RootCount` for each legal move, in order.

    Long counts are driven from here one root move at a time, so a caller can show progress.
    If ``stop`` is set during a root move's count, the last one yielded has ``nodes`` None
    (its position is where the count was when it stopped) and the walk ends; set between
    root moves, the walk just ends.
    """
    if depth < 1:
        raise ValueError("divide needs depth >= 1")
    for move in state.legal_moves():
        if stop is not None and stop.is_set():
            return
        name = state.move_to_str(move)
        state.play(move)
        try:
            count = RootCount(name, state.perft(depth - 1, stop), state.position())
        finally:
            state.undo()
        yield count
        if count.nodes is None:
            return


ROOT_BY_ROOT_DEPTH = 5      # from this depth a count goes root move by root move (progress)


@dataclass
class PerftCount:
    """A count as far as it went: the total, each root move's count when counted root by
    root, and where it was when a stop cut it short (``counting``)."""
    position: str
    depth: int
    by_root: bool
    roots: int
    nodes: int = 0
    seconds: float = 0.0
    by_move: dict[str, int] = field(default_factory=dict)
    finished: bool = False
    counting: dict = field(default_factory=dict)

    @property
    def nps(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    def document(self, game, impl: str, divided: bool) -> dict:
        """``perft --json``: the count, the root moves' counts when divided or stopped."""
        document = {"game": game.name, "position": self.position, "depth": self.depth,
                    "nodes": self.nodes, "seconds": round(self.seconds, 6),
                    "nps": round(self.nps), "impl": impl}
        if divided or not self.finished:
            document["divide"] = self.by_move
        if game.seed is not None:
            document["seed"] = game.seed
        if not self.finished:
            document.update(interrupted=True, counting=self.counting)
        return document

    def stopped_text(self) -> str:
        """What was counted before the stop, and what was being counted."""
        done = (f" after {len(self.by_move)} of {self.roots} root moves ({self.nodes:,} nodes"
                f"{', listed above' if self.by_move else ''}) of" if self.by_root else ":")
        at = self.counting
        counting = f"{at['move']} ({at['position']})" if "move" in at else self.position
        return (f"interrupted{done} perft {self.depth} from {self.position}, while counting "
                f"{counting}")


def count_perft(state: State, depth: int, divided: bool = False, stop=None,
                on_root=None) -> PerftCount:
    """perft ``depth`` from ``state``, root move by root move when ``divided`` or deep
    (``on_root()`` after each), so a stop keeps every root move finished."""
    count = PerftCount(state.position(), depth, depth >= ROOT_BY_ROOT_DEPTH or divided,
                       len(state.legal_moves()), counting={"position": state.position()})
    started = time.perf_counter()
    if count.by_root:
        for root in perft_by_move(state, depth, stop):
            if root.nodes is None:
                count.counting = {"move": root.move, "position": root.position}
            else:
                count.by_move[root.move] = root.nodes
                if on_root:
                    on_root()
        count.nodes = sum(count.by_move.values())
        count.finished = len(count.by_move) == count.roots
    else:
        nodes = state.perft(depth, stop)
        count.nodes, count.finished = nodes or 0, nodes is not None
    count.seconds = time.perf_counter() - started
    return count
