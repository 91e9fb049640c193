"""Mattock notation: the one-line position string and Abstract Play style moves.

Position notation (like chess FEN), fields separated by single spaces::

    5/3x2/1o5/6o1/9/1x6/5x1/2o3/5 x
    └──────── board ─────────────┘ └ side to move, then rule options not at default

* **board**: rows from the top row (``i`` on size 5, ``m`` on size 7) down to row ``a``,
  separated by ``/``; within a row, cells left to right: a number ``n`` is ``n`` rock cells,
  ``-`` an empty tile, ``x`` a tile with a first-player miner, ``o`` a tile with a
  second-player miner. The board size follows from the number of rows (9 or 13).
* **side to move**: ``x`` (first player) or ``o`` (second player).
* **options**: zero or more ``name=value`` for rule options that differ from the default
  (only ``removal`` can appear; ``size`` is implied by the board).

Miners off the board are not written: each player owns 3 miners (6 on size 7), so the
miners off the board are those not on it, and the string can never contradict itself.

Moves: ``C`` mines cell C; ``C/FROM-TO`` mines C and then moves the miner on FROM to TO.
A re-entered miner is implied by the mine cell. As an ``int``, a move is
``C | (FROM + 1) << 8 | (TO + 1) << 16`` with cell indices from :mod:`.board`; both
implementations share this encoding, defined once in ``encoding.pxd``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..game import NotationError
from .board import Board, board
from .encoding import decode_move, encode_move

ROCK, TILE = 0, 1
EMPTY = -1                     # miner owner of a cell without a miner
SIDE_SYMBOLS = "xo"
RULE_DEFAULTS = {"removal": "blocking"}
RULE_CHOICES = {"removal": ("blocking", "literal")}


@dataclass
class Position:
    """Everything the rules need, independent of the implementation that plays it."""

    size: int
    tiles: list[int]                        # per cell: ROCK or TILE
    miners: list[int]                       # per cell: EMPTY, 0 or 1
    to_move: int
    removal: str = "blocking"
    board: Board = field(init=False, repr=False)

    def __post_init__(self):
        self.board = board(self.size)

    def copy(self) -> "Position":
        """An independent copy; the immutable board geometry is shared, not copied."""
        return Position(self.size, list(self.tiles), list(self.miners), self.to_move,
                        self.removal)

    def off_board(self, player: int) -> int:
        return self.board.miners_per_player - self.miners.count(player)


def symmetric_images(pos: Position) -> list[Position]:
    """The images of ``pos`` under the board's 12 symmetries (rules section 7), which the
    rules cannot tell apart from it; the first is ``pos``. Exchanging the players too (and
    so the player to move) would also keep every value for the player to move, but such an
    image is never met in play: every ply digs one tile, so the tile count fixes whose turn
    it is, and the exchanged image has the other player to move with the same tiles."""
    images = []
    for perm in pos.board.symmetries():
        tiles = [ROCK] * len(perm)
        miners = [EMPTY] * len(perm)
        for cell, image in enumerate(perm):
            tiles[image] = pos.tiles[cell]
            miners[image] = pos.miners[cell]
        images.append(Position(pos.size, tiles, miners, pos.to_move, pos.removal))
    return images


def format_move(b: Board, move: int) -> str:
    mine, source, target = decode_move(move)
    if source < 0:
        return b.names[mine]
    return f"{b.names[mine]}/{b.names[source]}-{b.names[target]}"


_MOVE = re.compile(r"^([a-m]\d{1,2})(?:/([a-m]\d{1,2})-([a-m]\d{1,2}))?$")


def parse_move_syntax(b: Board, text: str) -> int:
    """Parse the move's syntax and cell names (not its legality)."""
    cleaned = text.strip().lower()
    found = _MOVE.match(cleaned)
    if not found:
        raise NotationError(f"malformed move {text!r}: expected a cell like 'h5' or "
                            f"'h5/h4-h5' (mine cell, then optionally FROM-TO)")
    cells = []
    for name in found.groups():
        if name is None:
            continue
        if name not in b.index:
            raise NotationError(f"no cell {name!r} on the size-{b.size} board (rows "
                                f"a-{b.row_letters()[-1]}, row lengths {len(b.rows[0])}"
                                f"-{len(b.rows[len(b.rows) // 2])})")
        cells.append(b.index[name])
    return encode_move(*cells)


def format_position(pos: Position) -> str:
    b = pos.board
    rows = []
    for row in reversed(b.rows):
        out, rock = [], 0
        for cell in row:
            if pos.tiles[cell] == ROCK:
                rock += 1
                continue
            if rock:
                out.append(str(rock))
                rock = 0
            owner = pos.miners[cell]
            out.append("-" if owner == EMPTY else SIDE_SYMBOLS[owner])
        if rock:
            out.append(str(rock))
        rows.append("".join(out))
    fields = ["/".join(rows), SIDE_SYMBOLS[pos.to_move]]
    if pos.removal != RULE_DEFAULTS["removal"]:
        fields.append(f"removal={pos.removal}")
    return " ".join(fields)


_ROW_TOKEN = re.compile(r"\d+|[-xo]|.")


def parse_position(text: str, rules: dict[str, str] | None = None,
                   explicit: dict[str, str] | None = None) -> Position:
    """Parse a position string; ``rules`` fill options the string omits.

    ``explicit`` are options the user set on purpose (``--rule``); a position that states a
    different value is an error rather than a silent override.
    """
    rules = dict(RULE_DEFAULTS, **{k: v for k, v in (rules or {}).items() if k in RULE_DEFAULTS})
    explicit = explicit or {}
    fields = text.split()
    if len(fields) < 2:
        raise NotationError(f"position {text!r} needs at least two fields: board and side to "
                            f"move (e.g. '5/3x2/1o5/6o1/9/1x6/5x1/2o3/5 x')")
    board_field, side_field, option_fields = fields[0], fields[1], fields[2:]
    row_texts = board_field.split("/")
    sizes = {2 * s - 1: s for s in (5, 7)}
    if len(row_texts) not in sizes:
        raise NotationError(f"board field has {len(row_texts)} rows separated by '/'; expected "
                            f"9 (size 5) or 13 (size 7)")
    size = sizes[len(row_texts)]
    if "size" in explicit and int(explicit["size"]) != size:
        raise NotationError(f"position is a size-{size} board but --rule size={explicit['size']}")
    b = board(size)
    tiles = [ROCK] * b.cell_count
    miners = [EMPTY] * b.cell_count
    letters = b.row_letters()
    for row_text, row, letter in zip(row_texts, reversed(b.rows), reversed(letters)):
        column = 0
        for token in _ROW_TOKEN.findall(row_text):
            if token.isdigit():
                if token.startswith("0"):
                    raise NotationError(f"row {letter} ({row_text!r}): rock run {token!r} must "
                                        f"be a positive number without leading zeros")
                column += int(token)
                continue
            if token not in "-xo":
                raise NotationError(f"row {letter} ({row_text!r}): unexpected {token!r}; "
                                    f"expected a number of rock cells, '-', 'x' or 'o'")
            if column < len(row):
                tiles[row[column]] = TILE
                if token != "-":
                    miners[row[column]] = SIDE_SYMBOLS.index(token)
            column += 1
        if column != len(row):
            raise NotationError(f"row {letter} ({row_text!r}) describes {column} cells; row "
                                f"{letter} has {len(row)}")
    if side_field not in SIDE_SYMBOLS:
        raise NotationError(f"side to move {side_field!r}: expected 'x' (first player) or 'o' "
                            f"(second player)")
    for option in option_fields:
        name, sep, value = option.partition("=")
        if not sep or name not in RULE_CHOICES:
            raise NotationError(f"option field {option!r}: expected removal=blocking|literal "
                                f"(size is given by the number of rows)")
        if value not in RULE_CHOICES[name]:
            raise NotationError(f"option {option!r}: {name} must be one of "
                                f"{'|'.join(RULE_CHOICES[name])}")
        if name in explicit and explicit[name] != value:
            raise NotationError(f"position says {option} but --rule {name}={explicit[name]}")
        rules[name] = value
    if len({o.partition("=")[0] for o in option_fields}) != len(option_fields):
        raise NotationError("an option is given twice in the position")
    for player, symbol in enumerate(SIDE_SYMBOLS):
        count = miners.count(player)
        if count > b.miners_per_player:
            raise NotationError(f"{count} '{symbol}' miners on the board; a size-{size} game "
                                f"has {b.miners_per_player} per player")
    for cell in range(b.cell_count):
        if tiles[cell] == TILE:
            touching = sum(tiles[n] for n in b.neighbours[cell])
            if touching > 3:
                raise NotationError(f"tile {b.names[cell]} touches {touching} tiles; the collapse "
                                    f"rule never lets a tile touch more than 3")
    return Position(size, tiles, miners, SIDE_SYMBOLS.index(side_field), rules["removal"])


def start_position(size: int, removal: str = "blocking") -> Position:
    b = board(size)
    tiles = [ROCK] * b.cell_count
    miners = [EMPTY] * b.cell_count
    for player, cells in enumerate(b.start_cells()):
        for cell in cells:
            tiles[cell] = TILE
            miners[cell] = player
    return Position(size, tiles, miners, 0, removal)
