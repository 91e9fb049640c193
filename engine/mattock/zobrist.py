"""Mattock's Zobrist keys: one per (tile|x miner|o miner, cell), one for side to move, and
the rule options that change play (board size, removal), which every key includes."""
from __future__ import annotations

from ..zobrist import rules_key, zobrist_keys
from .board import board
from .notation import EMPTY, TILE, Position, symmetric_images

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


def canonical_key(pos: Position) -> int:
    """The least key of ``pos``'s symmetric images: what the fast kernel's canonical_key
    must give, computed the plain way."""
    return min(position_key(image) for image in symmetric_images(pos))


def image_key_tables(size: int) -> list[list[list[int]]]:
    """``tables[kind][cell][image]``: what a tile (kind 0) or a miner of player kind - 1 on
    ``cell`` adds to the key of the position's image number ``image``, in the order of
    :func:`~.notation.symmetric_images` (the fast kernel's canonical key sums these rows)."""
    perms = board(size).symmetries()
    return [[[KEYS[kind * MAX_CELLS + perm[cell]] for perm in perms]
             for cell in range(board(size).cell_count)] for kind in range(3)]
