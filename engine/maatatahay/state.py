"""What both Maatatahay implementations share: notation, rendering and results.

Subclasses supply the rules (``legal_moves``, ``play``, ``undo``, ``chance_outcomes``,
``result``, ``scores``) and ``to_position()``; everything here is defined in terms of those.
"""
from __future__ import annotations

from ..game import IllegalMoveError, State
from .moves import format_move, parse_move_syntax
from .notation import format_position
from .render import render, pending_text

SHOWN_ALTERNATIVES = 12


class MaatatahayState(State):
    def returns(self) -> tuple[float, float]:
        if not self.is_terminal():
            return (0.0, 0.0)
        winner = self.result()
        if winner is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if winner == 0 else (-1.0, 1.0)

    def position(self) -> str:
        return format_position(self.to_position())

    def move_to_str(self, move: int) -> str:
        return format_move(self.game.tileset, move)

    def parse_move(self, text: str) -> int:
        move = parse_move_syntax(self.game.tileset, text)
        legal = self.legal_moves()
        if move not in legal:
            names = [self.move_to_str(m) for m in legal[:SHOWN_ALTERNATIVES]]
            more = f" and {len(legal) - len(names)} more" if len(legal) > len(names) else ""
            raise IllegalMoveError(
                f"illegal move {text.strip()!r}: the position waits for "
                f"{pending_text(self.to_position())}; legal here: "
                f"{', '.join(names) or 'nothing (the game is over)'}{more}")
        return move

    def render(self, color: bool = False) -> str:
        return render(self.to_position(), color)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.position()!r}>"
