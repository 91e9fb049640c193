"""The Cython card battle behind the common interface; the kernel lives in ``_fast.pyx``."""
from __future__ import annotations

from ..game import KernelState
from ._fast import Kernel
from .position import Position
from .rules import returns
from .state import CardBattleState


class FastState(KernelState, CardBattleState):
    def __init__(self, game, position: Position):
        self.game = game
        self.kernel = Kernel(position, game.cardset, game.options)

    def returns(self):
        if self.kernel.current_player() != -2:
            return (0.0, 0.0)
        return returns(self.to_position(), self.kernel.result())

    def hash_key(self) -> int:
        return self.kernel.key

    def determinization(self, player: int, seed: int):
        return self.game._state(self.kernel.determinized(player, seed).to_position())
