"""The Cython Mattock behind the common interface; the kernel lives in ``_fast.pyx``."""
from __future__ import annotations

from ._fast import Kernel
from .notation import Position
from .state import MattockState


class FastState(MattockState):
    def __init__(self, game, position: Position, kernel: Kernel | None = None):
        self.game = game
        self.board = position.board
        self.kernel = kernel if kernel is not None else Kernel(position)

    @property
    def to_move(self) -> int:
        return self.kernel.to_move

    def has_mine_cell(self) -> bool:
        return self.kernel.has_mine_cell()

    def mine_cells(self) -> list[int]:
        return self.kernel.mine_cells()

    def legal_moves(self) -> list[int]:
        return self.kernel.legal_moves()

    def play(self, move: int) -> None:
        self.kernel.play(move)

    def undo(self) -> None:
        self.kernel.undo()

    def clone(self) -> "FastState":
        twin = FastState.__new__(FastState)
        twin.game, twin.board, twin.kernel = self.game, self.board, self.kernel.copy()
        return twin

    def hash_key(self) -> int:
        return self.kernel.key

    def to_position(self) -> Position:
        return self.kernel.to_position()

    def perft(self, depth: int) -> int:
        """Native perft: the whole tree walk runs in C without the GIL, last ply bulk-counted."""
        return self.kernel.perft(depth)
