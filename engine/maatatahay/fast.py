"""The Cython Maatatahay behind the common interface; the kernel lives in ``_fast.pyx``."""
from __future__ import annotations

from ..game import KernelState
from ._fast import Kernel
from .position import Position
from .state import MaatatahayState


class FastState(KernelState, MaatatahayState):
    def __init__(self, game, position: Position):
        self.game = game
        self.kernel = Kernel(position)

    def result(self) -> int | None:
        return self.kernel.winner()

    def scores(self) -> list[int]:
        return self.kernel.scores()
