"""Mattock's Zobrist keys: one per (tile|x miner|o miner, cell), plus one for side to move."""
from __future__ import annotations

from ..zobrist import zobrist_keys
from .notation import EMPTY, TILE, Position

MAX_CELLS = 128
KEYS = zobrist_keys(3 * MAX_CELLS + 1, seed=0x4D6174746F636B)   # "Mattock"
SIDE_KEY = KEYS[3 * MAX_CELLS]


def position_key(pos: Position) -> int:
    key = SIDE_KEY if pos.to_move else 0
    for cell in range(pos.board.cell_count):
        if pos.tiles[cell] == TILE:
            key ^= KEYS[cell]
        if pos.miners[cell] != EMPTY:
            key ^= KEYS[(1 + pos.miners[cell]) * MAX_CELLS + cell]
    return key
