"""What both Maatatahay implementations share: notation, rendering and results.

Subclasses supply the rules (``legal_moves``, ``play``, ``undo``, ``chance_outcomes``,
``result``, ``scores``) and ``to_position()``; everything here is defined in terms of those.
"""
from __future__ import annotations

from ..game import IllegalMoveError, State
from .constants import PLACE
from .moves import M_PLACE, decode_place, format_move, move_kind, move_payload, parse_move_syntax
from .notation import format_position
from .render import pending_text, render
from .rules import end_conditions, placement_problem

SHOWN_ALTERNATIVES = 12


class MaatatahayState(State):
    def returns(self) -> tuple[float, float]:
        if not self.is_terminal():
            return (0.0, 0.0)
        winner = self.result()
        if winner is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if winner == 0 else (-1.0, 1.0)

    def rules_end_reason(self) -> str:
        return " and ".join(end_conditions(self.to_position()))

    def position(self) -> str:
        return format_position(self.to_position())

    def move_to_str(self, move: int) -> str:
        return format_move(self.game.tileset, move)

    def parse_move(self, text: str) -> int:
        move = parse_move_syntax(self.game.tileset, text)
        legal = self.legal_moves()
        if move in legal:
            return move
        pos = self.to_position()
        if pos.phase == PLACE and move_kind(move) == M_PLACE:
            cell, rotation, spirit, energy = decode_place(move_payload(move))
            reason = placement_problem(pos, cell, rotation, (spirit, energy))
            if reason:
                raise IllegalMoveError(f"illegal move {text.strip()!r}: {reason}")
        names = [self.move_to_str(m) for m in legal[:SHOWN_ALTERNATIVES]]
        more = f" and {len(legal) - len(names)} more" if len(legal) > len(names) else ""
        raise IllegalMoveError(
            f"illegal move {text.strip()!r}: the position waits for {pending_text(pos)}; "
            f"legal here: {', '.join(names) or 'nothing (the game is over)'}{more}")

    def render(self, color: bool = False, notation: bool = True) -> str:
        return render(self.to_position(), color, notation)

    def svg(self, marks=()) -> str:
        from .svg import svg
        return svg(self.to_position(), marks)
