"""Mattock board geometry: cells, Abstract Play cell names, neighbours, start cells, symmetries.

Cells are numbered row by row from the bottom row ``a`` (axial r = +R) to the top row, left
to right within a row (smallest q first), so index 0 is ``a1``. Both implementations and the
notation share this numbering; it is geometry from section 1 of the rules page, not rules.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

SIZES = (5, 7)
MINERS_PER_PLAYER = {5: 3, 7: 6}
START_CELLS = {
    5: (("h4", "c6", "d2"), ("g2", "f7", "b3")),
    7: (("j6", "e8", "f4", "k1", "i11", "a3"), ("i4", "h9", "d5", "m5", "c9", "e1")),
}
AXIAL_DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


@dataclass(frozen=True)
class Board:
    """The hexagonal board of side ``size``; build with :func:`board` (cached)."""

    size: int
    coords: tuple[tuple[int, int], ...]          # index -> (q, r)
    names: tuple[str, ...]                       # index -> "e5"
    index: dict                                  # name -> index and (q, r) -> index
    neighbours: tuple[tuple[int, ...], ...]      # index -> neighbour indices
    rows: tuple[tuple[int, ...], ...]            # bottom row first, cells left to right

    @property
    def radius(self) -> int:
        return self.size - 1

    @property
    def cell_count(self) -> int:
        return len(self.coords)

    @property
    def miners_per_player(self) -> int:
        return MINERS_PER_PLAYER[self.size]

    def row_letters(self) -> str:
        return "abcdefghijklm"[: len(self.rows)]

    def start_cells(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        first, second = START_CELLS[self.size]
        return (tuple(self.index[c] for c in first), tuple(self.index[c] for c in second))

    def symmetries(self) -> list[tuple[int, ...]]:
        """The 12 symmetries of the hexagon, each as a cell permutation ``perm[cell]``."""
        perms = []
        for reflect in (False, True):
            for turns in range(6):
                perm = []
                for q, r in self.coords:
                    s = -q - r
                    if reflect:
                        q, r, s = r, q, s
                    for _ in range(turns):   # 60 degree rotation: (q, r, s) -> (-r, -s, -q)
                        q, r, s = -r, -s, -q
                    perm.append(self.index[(q, r)])
                perms.append(tuple(perm))
        return perms


@lru_cache(maxsize=None)
def board(size: int) -> Board:
    if size not in SIZES:
        raise ValueError(f"board size must be one of {SIZES}, not {size}")
    radius = size - 1
    letters = "abcdefghijklm"
    coords, names, rows = [], [], []
    for row_number, r in enumerate(range(radius, -radius - 1, -1)):
        row = []
        for number, q in enumerate(range(max(-radius, -radius - r), min(radius, radius - r) + 1), 1):
            row.append(len(coords))
            coords.append((q, r))
            names.append(f"{letters[row_number]}{number}")
        rows.append(tuple(row))
    index: dict = {name: i for i, name in enumerate(names)}
    index.update({c: i for i, c in enumerate(coords)})
    neighbours = tuple(
        tuple(index[(q + dq, r + dr)] for dq, dr in AXIAL_DIRECTIONS if (q + dq, r + dr) in index)
        for q, r in coords)
    return Board(size, tuple(coords), tuple(names), index, neighbours, tuple(rows))


def sector(b: Board, cell: int) -> int:
    """Which 60-degree wedge (0-5, counter-clockwise from the +q axis) a cell lies in."""
    import math
    q, r = b.coords[cell]
    angle = math.degrees(math.atan2(-r * math.sqrt(3) / 2, q + r / 2)) % 360
    return int(angle // 60) % 6


def random_start_cells(size: int, rng) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Abstract Play's "random setup": first-player cells drawn per sector (sectors 0, 2, 4 in
    turn), each mirrored through the centre for the second player; a cell is redrawn if it or
    a neighbour already holds a miner. ``rng`` is a :class:`random.Random`."""
    b = board(size)
    occupied: set[int] = set()
    first, second = [], []
    for i in range(b.miners_per_player):
        wanted = (2 * i) % 6
        candidates = [c for c in range(b.cell_count)
                      if b.coords[c] != (0, 0) and sector(b, c) == wanted]
        while True:
            cell = rng.choice(candidates)
            q, r = b.coords[cell]
            mirror = b.index[(-q, -r)]
            blocked = occupied | {n for o in occupied for n in b.neighbours[o]}
            if cell not in blocked and mirror not in blocked and mirror not in b.neighbours[cell]:
                break
        occupied |= {cell, mirror}
        first.append(cell)
        second.append(mirror)
    return tuple(first), tuple(second)
