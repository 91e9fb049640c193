"""The Cython Mattock behind the common interface; the kernel lives in ``_fast.pyx``."""
from __future__ import annotations

from ..game import KernelState
from ._fast import Kernel
from .notation import Position
from .state import MattockState


class FastState(KernelState, MattockState):
    def __init__(self, game, position: Position):
        self.game = game
        self.board = position.board
        self.kernel = Kernel(position)

    @property
    def to_move(self) -> int:
        return self.kernel.to_move

    def has_mine_cell(self) -> bool:
        return self.kernel.has_mine_cell()

    def mine_cells(self) -> list[int]:
        return self.kernel.mine_cells()
