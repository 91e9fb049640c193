"""The Cython Maatatahay behind the common interface; the kernel lives in ``_fast.pyx``."""
from __future__ import annotations

from ..kernel_state import KernelState
from ._fast import Kernel
from .position import Position
from .state import MaatatahayState


class FastState(KernelState, MaatatahayState):
    def __init__(self, game, position: Position):
        self.game = game
        self.kernel = Kernel(position)

    def current_player(self) -> int:
        return self.kernel.current_player()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.is_chance_node():
            return super().chance_outcomes()
        return self.kernel.chance_outcomes()

    def result(self) -> int | None:
        return self.kernel.winner()

    def scores(self) -> list[int]:
        return self.kernel.scores()
