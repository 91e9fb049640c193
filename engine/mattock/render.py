"""Text diagram of a Mattock position (Unicode, optional ANSI colour)."""
from __future__ import annotations

from .notation import EMPTY, TILE, Position, format_position

ROCK_GLYPH, TILE_GLYPH, MINER_GLYPHS = "·", "○", ("x", "o")
COLOURS = ("\x1b[1;31m", "\x1b[1;34m")           # first player red, second blue
TILE_COLOUR, RESET = "\x1b[33m", "\x1b[0m"
PLAYER_NAMES = ("first", "second")


def _cell(pos: Position, cell: int, color: bool) -> str:
    owner = pos.miners[cell]
    if owner != EMPTY:
        glyph = MINER_GLYPHS[owner]
        return f"{COLOURS[owner]}{glyph}{RESET}" if color else glyph
    if pos.tiles[cell] == TILE:
        return f"{TILE_COLOUR}{TILE_GLYPH}{RESET}" if color else TILE_GLYPH
    return ROCK_GLYPH


def render(pos: Position, color: bool = False, notation: bool = True) -> str:
    """The board top row first, each row followed by its cells' numbers (the last digit:
    a row's numbers start at 1 on its left; its last cell is named on the right), then
    the key and the position."""
    b = pos.board
    widest = max(len(row) for row in b.rows)
    letters = b.row_letters()
    lines = []
    for number in range(len(b.rows) - 1, -1, -1):
        row = b.rows[number]
        indent = " " * (widest - len(row))
        cells = " ".join(_cell(pos, c, color) for c in row)
        lines.append(f" {letters[number]} {indent}{cells}  {letters[number]}{len(row)}")
        lines.append(f"   {indent}" + " ".join(str(i + 1)[-1] for i in range(len(row))))
    lines.append("")
    lines.append(f"{ROCK_GLYPH} rock  {TILE_GLYPH} tile  x first player  o second player; "
                 f"a cell is its row's letter and the number under it (e5)")
    lines.append(f"to move: {PLAYER_NAMES[pos.to_move]} ({MINER_GLYPHS[pos.to_move]})")
    lines.append("miners off the board: " + ", ".join(
        f"{MINER_GLYPHS[p]} {pos.off_board(p)}" for p in (0, 1)))
    lines.append(f"rules: size={pos.size} removal={pos.removal}")
    if notation:
        lines.append(f"position: {format_position(pos)}")
    return "\n".join(lines)
