"""The Cython Maatatahay behind the common interface; the kernel lives in ``_fast.pyx``."""
from __future__ import annotations

from ._fast import Kernel
from .position import Position
from .state import MaatatahayState


class FastState(MaatatahayState):
    def __init__(self, game, position: Position, kernel: Kernel | None = None):
        self.game = game
        self.kernel = kernel if kernel is not None else Kernel(position)

    def current_player(self) -> int:
        return self.kernel.current_player()

    def legal_moves(self) -> list[int]:
        return self.kernel.legal_moves()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.is_chance_node():
            return super().chance_outcomes()
        return self.kernel.chance_outcomes()

    def play(self, move: int) -> None:
        self.kernel.play(move)

    def undo(self) -> None:
        self.kernel.undo()

    def clone(self) -> "FastState":
        return FastState(self.game, None, self.kernel.copy())

    def result(self) -> int | None:
        return self.kernel.winner()

    def scores(self) -> list[int]:
        return self.kernel.scores()

    def hash_key(self) -> int:
        return self.kernel.key

    def to_position(self) -> Position:
        return self.kernel.to_position()

    def perft(self, depth: int) -> int:
        """Native perft: the whole tree walk runs in C without the GIL, last ply counted."""
        return self.kernel.perft(depth)
