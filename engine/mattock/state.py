"""What both Mattock implementations share: notation, rendering and results.

Subclasses supply the rules (``legal_moves``, ``play``, ``undo``, ``mine_cells``, ...) and
``to_position()``; everything here is defined in terms of those.
"""
from __future__ import annotations

from ..game import TERMINAL, IllegalMoveError, State
from .notation import format_move, format_position, parse_move_syntax
from .render import render


class MattockState(State):
    def returns(self) -> tuple[float, float]:
        """The side to move at the end could not mine, so it has lost."""
        if not self.is_terminal():
            return (0.0, 0.0)
        return (-1.0, 1.0) if self.to_move == 0 else (1.0, -1.0)

    def current_player(self) -> int:
        return self.to_move if self.has_mine_cell() else TERMINAL

    def rules_end_reason(self) -> str:
        """Section 5: the player to move cannot mine (no legal cell, or no miner)."""
        return f"{self.game.player_names[self.to_move]} cannot mine"

    def position(self) -> str:
        return format_position(self.to_position())

    def move_to_str(self, move: int) -> str:
        return format_move(self.board, move)

    def parse_move(self, text: str) -> int:
        move = parse_move_syntax(self.board, text)
        if move not in set(self.legal_moves()):
            reason = self.game.reference_state(self.to_position()).explain_illegal(move)
            raise IllegalMoveError(f"illegal move {text.strip()!r}: {reason}")
        return move

    def render(self, color: bool = False, notation: bool = True) -> str:
        return render(self.to_position(), color, notation)

    def svg(self, marks=()) -> str:
        from .svg import svg
        return svg(self.to_position(), marks)
