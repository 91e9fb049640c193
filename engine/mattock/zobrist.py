"""Mattock's Zobrist keys: one per (tile|x miner|o miner, cell), one for side to move, and
the rule options that change play (board size, removal), which every key includes."""
from __future__ import annotations

from ..zobrist import rules_key, zobrist_keys
from .notation import EMPTY, TILE, Position

MAX_CELLS = 128
KEYS = zobrist_keys(3 * MAX_CELLS + 1, seed=0x4D6174746F636B)   # "Mattock"
SIDE_KEY = KEYS[3 * MAX_CELLS]


def start_key(pos: Position) -> int:
    """What every key of ``pos``'s game starts from: its play-changing rules (``setup`` only
    picks the start cells, so it is not one of them)."""
    return rules_key({"size": str(pos.size), "removal": pos.removal})


def position_key(pos: Position) -> int:
    key = start_key(pos)
    if pos.to_move:
        key ^= SIDE_KEY
    for cell in range(pos.board.cell_count):
        if pos.tiles[cell] == TILE:
            key ^= KEYS[cell]
        if pos.miners[cell] != EMPTY:
            key ^= KEYS[(1 + pos.miners[cell]) * MAX_CELLS + cell]
    return key
