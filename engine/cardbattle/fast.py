"""The Cython card battle behind the common interface; the kernel lives in ``_fast.pyx``."""
from __future__ import annotations

from ..game import KernelState, RuleError
from ._fast import KERNEL_CARDS, Kernel
from .position import Position
from .rules import returns
from .state import CardBattleState


class FastState(KernelState, CardBattleState):
    def __init__(self, game, position: Position):
        self.game = game
        for name, seat in zip(game.player_names, position.seats):
            if len(seat.cards()) > KERNEL_CARDS:       # §2 has no upper limit; a pile is 64 bits
                raise RuleError(f"{name} owns {len(seat.cards())} cards; the fast "
                                f"implementation holds at most {KERNEL_CARDS} per player (an "
                                f"engineering limit, not a rule): use --impl reference")
        self.kernel = Kernel(position, game.cardset, game.options)
        self.origin = position          # read, never changed (the kernel holds its own copy)

    def returns(self):
        if self.kernel.current_player() != -2:
            return (0.0, 0.0)
        return returns(self.to_position(), self.kernel.result())

    def hash_key(self) -> int:
        return self.kernel.key

    def determinization(self, player: int, seed: int):
        return self.game._state(self.kernel.determinized(player, seed).to_position())
