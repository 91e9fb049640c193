"""What every fast State shares: the rules live in a Cython kernel (a ``GameKernel`` with the
Python methods ``legal_moves``, ``play``, ``undo``, ``copy``, ``key``, ``to_position`` and
``perft``), and the State only forwards to it."""
from __future__ import annotations


class KernelState:
    """Mixin for a game's fast State; list it before the game's shared State base."""

    kernel = None

    def legal_moves(self) -> list[int]:
        return self.kernel.legal_moves()

    def play(self, move: int) -> None:
        self.kernel.play(move)

    def undo(self) -> None:
        self.kernel.undo()

    def clone(self):
        twin = type(self).__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin.kernel = self.kernel.copy()
        return twin

    def hash_key(self) -> int:
        return self.kernel.key

    def to_position(self):
        return self.kernel.to_position()

    def perft(self, depth: int) -> int:
        """Native perft: the whole walk runs in C without the GIL, the last ply bulk-counted."""
        return self.kernel.perft(depth)
