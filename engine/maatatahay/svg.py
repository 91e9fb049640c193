"""SVG diagram of a Maatatahay position: the 5x5 board with the frame's arrows, each warrior in
its tribe's colour with facing, support arrows, strength (printed + Energy + bonus) and
crystals, the temples, and beside the board the storages, scores, relics and what is pending,
with a key to every colour and marker. Moves can be marked (engine/marks.py): a placement's
cell outlined with its rank, the tile's facing and the line's label; every marked move is also
listed beside the board, the kinds the board cannot show included."""
from __future__ import annotations

import math
from xml.sax.saxutils import escape

from ..marks import COLOUR as MARK, MoveMark, group, on_top, styles
from .board import COLUMNS, DELTAS, NAMES, SIDE
from .moves import M_PLACE, decode_place, format_move, move_kind, move_payload
from .notation import format_position
from .position import EMPTY, Position
from .render import pending_text
from .rules import scores, strength_parts
from .tileset import TRIBES

CELL, MARGIN, PANEL = 96, 60, 330
TRIBE_FILLS = ("#e57373", "#64b5f6")              # Balan, Wazu
TRIBE_STROKES = ("#b71c1c", "#0d47a1")
DEAD_FILL, TEMPLE_STROKE = "#9e9e9e", "#c9a227"
SPIRIT_FILL, ENERGY_FILL = "#ffffff", "#7b1fa2"


def _origin(cell: int) -> tuple[float, float]:
    """Top-left corner of a cell; row 5 is at the top, column a on the left."""
    return MARGIN + (cell % SIDE) * CELL, MARGIN + (SIDE - 1 - cell // SIDE) * CELL


def _vector(direction: int) -> tuple[float, float]:
    d_row, d_col = DELTAS[direction]
    length = math.hypot(d_row, d_col)
    return d_col / length, -d_row / length


def _arrow(x: float, y: float, direction: int, size: float, fill: str, cls: str) -> str:
    """A small triangle at (x, y) pointing in ``direction``."""
    dx, dy = _vector(direction)
    px, py = -dy, dx
    tip = (x + dx * size, y + dy * size)
    left = (x - dx * size * 0.4 + px * size * 0.6, y - dy * size * 0.4 + py * size * 0.6)
    right = (x - dx * size * 0.4 - px * size * 0.6, y - dy * size * 0.4 - py * size * 0.6)
    points = " ".join(f"{a:.1f},{b:.1f}" for a, b in (tip, left, right))
    return f'<polygon class="{cls}" points="{points}" fill="{fill}"/>'


def _crystals(x: float, y: float, spirit: int, energy: int, cls: str) -> list[str]:
    out = []
    for k, fill in enumerate([SPIRIT_FILL] * spirit + [ENERGY_FILL] * energy):
        out.append(f'<circle class="{cls} {"spirit" if fill == SPIRIT_FILL else "energy"}" '
                   f'cx="{x + 9 * (k % 8):.1f}" cy="{y + 9 * (k // 8):.1f}" r="3.6" '
                   f'fill="{fill}" stroke="#4a148c" stroke-width="0.8"/>')
    return out


def _warrior(pos: Position, cell: int) -> list[str]:
    x, y = _origin(cell)
    tile = pos.tileset.tiles[pos.tile[cell]]
    cx, cy = x + CELL / 2, y + CELL / 2
    if not pos.alive[cell]:
        return [f'<rect class="warrior dead" data-cell="{NAMES[cell]}" x="{x + 6}" y="{y + 6}" '
                f'width="{CELL - 12}" height="{CELL - 12}" fill="{DEAD_FILL}" rx="6"/>',
                f'<text x="{cx}" y="{cy + 6}" font-size="16" text-anchor="middle">'
                f'{escape(tile.id)} ✝</text>']
    out = [f'<rect class="warrior {TRIBES[tile.tribe]}" data-cell="{NAMES[cell]}" '
           f'data-tile="{escape(tile.id)}" x="{x + 6}" y="{y + 6}" width="{CELL - 12}" '
           f'height="{CELL - 12}" fill="{TRIBE_FILLS[tile.tribe]}" '
           f'stroke="{TRIBE_STROKES[tile.tribe]}" stroke-width="2" rx="6"/>']
    facing = 2 * pos.rotation[cell]                       # N, E, S or W
    fx, fy = _vector(facing)
    out.append(_arrow(cx + fx * (CELL / 2 - 16), cy + fy * (CELL / 2 - 16), facing, 7, "#212121",
                      "facing"))
    for direction, count in enumerate(tile.arrows_at(pos.rotation[cell])):
        for k in range(count):
            dx, dy = _vector(direction)
            reach = CELL / 2 - 10 + 6 * k
            out.append(_arrow(cx + dx * reach * (1.0 if direction % 2 == 0 else 1.3),
                              cy + dy * reach * (1.0 if direction % 2 == 0 else 1.3),
                              direction, 6, "#ffeb3b", "support-arrow"))
    printed, energy, bonus = strength_parts(pos, cell)
    ability = {"elder": " E", "convert": " C", None: ""}[tile.ability]
    out.append(f'<text class="strength" x="{cx}" y="{cy + 2}" font-size="24" font-weight="bold" '
               f'text-anchor="middle">{printed + energy + bonus}</text>')
    out.append(f'<text x="{cx}" y="{cy + 17}" font-size="9" text-anchor="middle">'
               f'{escape(tile.id)} {printed}+{energy}+{bonus}{ability} {tile.gems}g</text>')
    out += _crystals(x + 16, y + CELL - 20, pos.warrior_spirit[cell], pos.warrior_energy[cell],
                     "crystal")
    return out


def _frame(pos: Position) -> list[str]:
    out = []
    for cell, source, count in pos.tileset.frame_arrows:
        x, y = _origin(cell)
        cx, cy = x + CELL / 2, y + CELL / 2
        dx, dy = _vector(source)                          # where the arrow comes from
        for k in range(count):
            out.append(_arrow(cx + dx * (CELL / 2 + 18 + 10 * k), cy + dy * (CELL / 2 + 18 + 10 * k),
                              (source + 4) % 8, 8, "#5d4037", "frame-arrow"))
    return out


def _panel(pos: Position, marks: list[MoveMark]) -> list[str]:
    x = MARGIN * 2 + SIDE * CELL
    points = scores(pos)
    lines = [f"tileset: {pos.tileset.label()}"]
    for p in (0, 1):
        lines.append(f"{TRIBES[p]}: score {points[p]}, storage {pos.storage_spirit[p]} Spirit "
                     f"{pos.storage_energy[p]} Energy, relics {pos.relics.count(p)}, "
                     f"lost {pos.deaths(p)}")
    lines.append(f"bag: {pos.bag_spirit} Spirit {pos.bag_energy} Energy; supply "
                 f"{pos.supply_energy} Energy")
    lines.append("relics taken: " + (" ".join(f"{k}:{TRIBES[o]}" for k, o in
                                               enumerate(pos.relics, 1)) or "none"))
    lines.append("pairs: " + (", ".join(f"{pos.tileset.tiles[b].id}+{pos.tileset.tiles[w].id}"
                                        for b, w in pos.pairs) or "none"))
    lines.append(f"to act: {pending_text(pos)}")
    for rank, (move, label, _) in enumerate(marks, 1):
        lines.append(f"line {rank}: {format_move(pos.tileset, move)} {label}")
    out = []
    for k, text in enumerate(lines):
        words, row, wrapped = text.split(), "", []
        for word in words:
            if len(row) + len(word) > 48:
                wrapped.append(row)
                row = "  "
            row += word + " "
        wrapped.append(row)
        for line in wrapped:
            out.append(f'<text class="panel" x="{x}" y="{MARGIN + 14 + 17 * len(out)}" '
                       f'font-size="12">{escape(line.rstrip())}</text>')
    return out


KEY_ROW = 19


def _key(x: float, y: float, marked: bool) -> list[str]:
    """What the colours and markers mean, a row each, starting at ``y`` (with marked lines,
    a row for them)."""
    swatch = 'x="{x}" y="{y}" width="16" height="14" rx="3"'
    shapes = [
        (f'<rect {swatch} fill="{TRIBE_FILLS[0]}" stroke="{TRIBE_STROKES[0]}"/>',
         f"{TRIBES[0]} warrior"),
        (f'<rect {swatch} fill="{TRIBE_FILLS[1]}" stroke="{TRIBE_STROKES[1]}"/>',
         f"{TRIBES[1]} warrior"),
        (f'<rect {swatch} fill="{DEAD_FILL}"/>', "dead warrior (✝)"),
        (f'<rect {swatch} fill="#fafafa" stroke="{TEMPLE_STROKE}" stroke-width="3"/>',
         "temple; ◆ its relic, not taken yet"),
        ("crystal", "Spirit crystal (white), Energy crystal (purple)"),
        ("arrows", "facing (black), support arrow (yellow), frame arrow"),
        ('<text x="{cx}" y="{text_y}" font-size="13" font-weight="bold" text-anchor="middle">'
         '7</text>', "strength: printed + Energy + bonus; under it"),
        ("", "  the tile, those three parts, E elder / C convert, and"),
        ("", "  its gems (1g: points for its owner if it survives)"),
    ] + ([(f'<circle cx="{{cx}}" cy="{{cy}}" r="7" fill="{MARK}"/>',
           "a line placing there: its rank, score and facing")] if marked else [])
    out = ['<g class="key">', f'<text x="{x}" y="{y}" font-size="12" '
                              f'font-weight="bold">key</text>']
    for row, (shape, label) in enumerate(shapes, 1):
        top = y + KEY_ROW * row - 12
        cx, cy = x + 8, top + 7
        if shape == "crystal":
            out += _crystals(cx - 4, cy, 1, 1, "key-crystal")
        elif shape == "arrows":
            out += [_arrow(cx - 5, cy, 2, 6, "#212121", "key-arrow"),
                    _arrow(cx + 4, cy, 2, 6, "#ffeb3b", "key-arrow"),
                    _arrow(cx + 13, cy, 2, 6, "#5d4037", "key-arrow")]
        elif shape:
            out.append(shape.format(x=x, y=top, cx=cx, cy=cy, text_y=top + 12))
        out.append(f'<text x="{x + 32}" y="{top + 11}" font-size="11">{escape(label)}</text>')
    return out + ["</g>"]


def _marks(pos: Position, marks: list[MoveMark]) -> list[str]:
    """Each placement's cell outlined and, a row per line placing there, its rank, label
    and the facing it gives the tile; other kinds draw nothing."""
    drawn, on_cell = [], {}
    for style, (move, label, _) in zip(styles(marks), marks):
        if move_kind(move) != M_PLACE:
            continue
        cell, rotation, _, _ = decode_place(move_payload(move))
        x, y = _origin(cell)
        row = y + 26 + 17 * on_cell.setdefault(cell, 0)
        on_cell[cell] += 1
        body = [f'<rect class="mark" x="{x + 2}" y="{y + 2}" width="{CELL - 4}" '
                f'height="{CELL - 4}" fill="none" stroke="{MARK}" stroke-width="{style.width}"/>',
                _arrow(x + CELL - 16, row, 2 * rotation, 7, MARK, "line-facing")]
        drawn.append(group(style, format_move(pos.tileset, move), label, body,
                           x + CELL / 2 - 8, row, size=11))
    return on_top(drawn)


def svg(pos: Position, marks=()) -> str:
    """``marks``: MoveMark-like (move, label, weight) triples, rank 1 first."""
    marks = [MoveMark(*m) for m in marks]
    width = MARGIN * 3 + SIDE * CELL + PANEL
    panel = _panel(pos, marks)          # many lines listed: the picture grows to hold the key
    height = max(MARGIN * 2 + SIDE * CELL + 30, MARGIN + 50 + 17 * len(panel) + KEY_ROW * 11)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
           f'<title>Maatatahay {escape(format_position(pos))}</title>',
           '<rect width="100%" height="100%" fill="white"/>',
           f'<rect class="frame" x="{MARGIN - 30}" y="{MARGIN - 30}" width="{SIDE * CELL + 60}" '
           f'height="{SIDE * CELL + 60}" fill="#d7ccc8" rx="10"/>']
    out += _frame(pos)
    labels = []             # drawn after the warriors, so no tile covers a cell's name
    for cell in range(SIDE * SIDE):
        x, y = _origin(cell)
        temple = cell in pos.temples
        out.append(f'<rect class="cell{" temple" if temple else ""}" data-cell="{NAMES[cell]}" '
                   f'x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="#fafafa" '
                   f'stroke="{TEMPLE_STROKE if temple else "#8d6e63"}" '
                   f'stroke-width="{4 if temple else 1}"/>')
        # on a white patch of its own (a halo by paint-order, which renderers other than
        # browsers ignore, would paint the stroke over the letters)
        labels += [f'<rect class="cell-name-patch" x="{x + 2}" y="{y + 3}" width="14" '
                   f'height="11" rx="2" fill="white" fill-opacity="0.85"/>',
                   f'<text class="cell-name" x="{x + 4}" y="{y + 12}" font-size="9" '
                   f'fill="#555">{NAMES[cell]}</text>']
        if pos.tile[cell] != EMPTY:
            out += _warrior(pos, cell)
        elif temple:
            out.append(f'<text class="relic" x="{x + CELL / 2}" y="{y + CELL / 2 + 8}" '
                       f'font-size="26" text-anchor="middle" fill="{TEMPLE_STROKE}">◆</text>')
        else:
            out += _crystals(x + 16, y + CELL / 2, pos.cell_spirit[cell], pos.cell_energy[cell],
                             "cell-crystal")
    out += labels
    for k, letter in enumerate(COLUMNS):
        out.append(f'<text x="{MARGIN + k * CELL + CELL / 2}" y="{MARGIN + SIDE * CELL + 48}" '
                   f'font-size="13" text-anchor="middle" font-weight="bold">{letter}</text>')
        out.append(f'<text x="{MARGIN - 44}" y="{MARGIN + (SIDE - 1 - k) * CELL + CELL / 2 + 5}" '
                   f'font-size="13" text-anchor="middle" font-weight="bold">{k + 1}</text>')
    out += _marks(pos, marks)
    out += panel + _key(MARGIN * 2 + SIDE * CELL, MARGIN + 30 + 17 * len(panel), bool(marks))
    out.append("</svg>")
    return "\n".join(out) + "\n"
