"""Maatatahay board geometry: the 5x5 cells, their names, the 8 directions and neighbours.

Cells are numbered ``row * 5 + column`` from the bottom-left corner, so index 0 is ``a1``
(column letters a-e left to right, row numbers 1-5 bottom to top, north is up). Both
implementations, the tileset loader and the notation share this numbering.
"""
from __future__ import annotations

SIDE = 5
CELLS = SIDE * SIDE
COLUMNS = "abcde"
NAMES = tuple(f"{COLUMNS[c % SIDE]}{c // SIDE + 1}" for c in range(CELLS))
INDEX = {name: c for c, name in enumerate(NAMES)}

# Directions clockwise from north; a quarter turn of a tile adds 2.
DIRECTIONS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
DELTAS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))  # (row, col)
ORTHOGONAL = (0, 2, 4, 6)
DIAGONAL = (1, 3, 5, 7)
FACINGS = "^>v<"            # rotation 0..3: the tile's top points N, E, S, W


def step(cell: int, direction: int) -> int:
    """The cell one step from ``cell`` in ``direction``, or -1 off the board."""
    dr, dc = DELTAS[direction]
    row, col = cell // SIDE + dr, cell % SIDE + dc
    if 0 <= row < SIDE and 0 <= col < SIDE:
        return row * SIDE + col
    return -1


def opposite(direction: int) -> int:
    return (direction + 4) % 8


# NEIGHBOUR[cell][direction]: the adjacent cell or -1.
NEIGHBOUR = tuple(tuple(step(c, d) for d in range(8)) for c in range(CELLS))
