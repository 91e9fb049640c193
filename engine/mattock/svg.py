"""SVG diagram of a Mattock position: the hex board, rock and tiles, miners by colour, cell
names, a colour key, and optionally moves marked (engine/marks.py: each line's mined cell
outlined with its rank, the miner's step as an arrow, the line's label beside it).
"""
from __future__ import annotations

import math
from xml.sax.saxutils import escape

from ..marks import COLOUR as MARK, MoveMark, arrow_head, group, on_top, styles
from .notation import EMPTY, TILE, Position, decode_move, format_move, format_position

HEX = 28                                     # centre-to-corner distance in pixels
ROCK_FILL, TILE_FILL = "#8d8478", "#f2e3c4"
MINER_FILLS = ("#c62828", "#1565c0")          # first player red, second blue
PLAYER_NAMES = ("first", "second")


def _centre(pos: Position, cell: int) -> tuple[float, float]:
    q, r = pos.board.coords[cell]
    radius = pos.board.radius
    return (HEX * math.sqrt(3) * (q + r / 2 + radius) + 2.2 * HEX,
            HEX * 1.5 * (r + radius) + 1.6 * HEX)


def _corners(x: float, y: float) -> str:
    return " ".join(f"{x + HEX * math.cos(math.radians(60 * i - 30)):.1f},"
                    f"{y + HEX * math.sin(math.radians(60 * i - 30)):.1f}" for i in range(6))


def _key(x: float, y: float, marked: bool) -> list[str]:
    """The colour key: what each fill means (and, with a marked move, a second row for the
    green marks)."""
    small = HEX * 0.36
    items = [("hex", ROCK_FILL, "#5d5348", "rock"), ("hex", TILE_FILL, "#5d5348", "tile"),
             ("disc", MINER_FILLS[0], "black", "first's miner"),
             ("disc", MINER_FILLS[1], "black", "second's miner")]
    if marked:         # on a second row
        items += [None, ("hex", "none", MARK, "a line's mined cell: its rank, its score"),
                  ("line", MARK, MARK, "its miner's step")]
    out, left = [], x
    for item in items:
        if item is None:
            x, y = left, y + 22
            continue
        shape, fill, stroke, label = item
        cx = x + small
        if shape == "hex":
            corners = " ".join(f"{cx + small * math.cos(math.radians(60 * i - 30)):.1f},"
                               f"{y + small * math.sin(math.radians(60 * i - 30)):.1f}"
                               for i in range(6))
            out.append(f'<polygon points="{corners}" fill="{fill}" '
                       f'stroke="{stroke}" stroke-width="{3 if fill == "none" else 1}"/>')
        elif shape == "disc":
            out.append(f'<circle cx="{cx:.1f}" cy="{y:.1f}" r="{small * 0.8:.1f}" '
                       f'fill="{fill}" stroke="{stroke}"/>')
        else:
            out.append(f'<line x1="{x:.1f}" y1="{y:.1f}" x2="{x + 2 * small:.1f}" '
                       f'y2="{y:.1f}" stroke="{stroke}" stroke-width="4"/>')
        out.append(f'<text x="{x + 2 * small + 5:.1f}" y="{y + 4:.1f}" '
                   f'font-size="11">{label}</text>')
        x += 2 * small + 12 + 6.2 * len(label)
    return ['<g class="key">', *out, '</g>']


def _marks(pos: Position, marks: list[MoveMark]) -> list[str]:
    """Each line's mined cell outlined with its rank and label in it (lines mining one cell
    stack them), its miner's step as an arrow between the cells' edges."""
    drawn, on_cell = [], {}
    for style, (move, label, _) in zip(styles(marks), marks):
        mine, source, target = decode_move(move)
        x, y = _centre(pos, mine)
        stacked = on_cell.setdefault(mine, 0)
        on_cell[mine] += 1
        body = [f'<polygon class="mark" points="{_corners(x, y)}" fill="none" stroke="{MARK}" '
                f'stroke-width="{style.width * 0.6:.1f}"/>']
        if source >= 0:
            (x1, y1), (x2, y2) = _centre(pos, source), _centre(pos, target)
            length = math.hypot(x2 - x1, y2 - y1) or 1.0
            ux, uy = (x2 - x1) / length, (y2 - y1) / length
            body.append(f'<line class="mark" x1="{x1 + ux * HEX * 0.45:.1f}" '
                        f'y1="{y1 + uy * HEX * 0.45:.1f}" x2="{x2 - ux * HEX * 0.55:.1f}" '
                        f'y2="{y2 - uy * HEX * 0.55:.1f}" stroke="{MARK}" '
                        f'stroke-width="{style.width}" stroke-linecap="round" '
                        f'marker-end="url(#line-arrow)"/>')
        drawn.append(group(style, format_move(pos.board, move), label, body, x,
                           y + HEX * 0.15 + 12 * stacked, size=9))
    return ([arrow_head()] if marks else []) + on_top(drawn)


def svg(pos: Position, marks=()) -> str:
    """``marks``: MoveMark-like (move, label, weight) triples, rank 1 first."""
    marks = [MoveMark(*m) for m in marks]
    b = pos.board
    width = HEX * math.sqrt(3) * (2 * b.radius + 1) + 4.4 * HEX
    height = HEX * 1.5 * 2 * b.radius + 3.2 * HEX + 98 + (22 if marks else 0)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
           f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="sans-serif">',
           f'<title>Mattock {escape(format_position(pos))}</title>',
           '<rect width="100%" height="100%" fill="white"/>']
    for cell in range(b.cell_count):
        x, y = _centre(pos, cell)
        fill = TILE_FILL if pos.tiles[cell] == TILE else ROCK_FILL
        out.append(f'<polygon class="cell {"tile" if pos.tiles[cell] == TILE else "rock"}" '
                   f'data-cell="{b.names[cell]}" points="{_corners(x, y)}" fill="{fill}" '
                   f'stroke="#5d5348" stroke-width="1.5"/>')
        out.append(f'<text x="{x:.1f}" y="{y + HEX * 0.62:.1f}" font-size="8" text-anchor="middle" '
                   f'fill="#3e3a35">{b.names[cell]}</text>')
        owner = pos.miners[cell]
        if owner != EMPTY:
            out.append(f'<circle class="miner {PLAYER_NAMES[owner]}" data-cell="{b.names[cell]}" '
                       f'cx="{x:.1f}" cy="{y - 2:.1f}" r="{HEX * 0.45:.1f}" '
                       f'fill="{MINER_FILLS[owner]}" stroke="black"/>')
    letters = b.row_letters()
    for number, row in enumerate(b.rows):
        x, y = _centre(pos, row[0])
        out.append(f'<text class="rim" x="{x - HEX * 1.3:.1f}" y="{y + 4:.1f}" font-size="13" '
                   f'text-anchor="middle" font-weight="bold">{letters[number]}</text>')
    out += _marks(pos, marks)
    out += _key(HEX, height - 80 - (22 if marks else 0), bool(marks))
    y = height - 45
    out.append(f'<text x="{HEX}" y="{y:.0f}" font-size="14">To move: '
               f'{PLAYER_NAMES[pos.to_move]}. Miners off the board: first {pos.off_board(0)}, '
               f'second {pos.off_board(1)}.</text>')
    out.append(f'<text x="{HEX}" y="{y + 20:.0f}" font-size="10" fill="#555">'
               f'{escape(format_position(pos))}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
