"""The position before the setup (section 2): what is fixed, with the random parts still to
be drawn as chance events (layout, a crystal per cell, the first three pairs, coin toss)."""
from __future__ import annotations

from .board import CELLS
from .constants import (BAG_ENERGY, BAG_SPIRIT, CRYSTALS, ENERGY_TOTAL, LAYOUT, PLAY_DEFAULTS,
                        STORAGE_START)
from .position import EMPTY, Position
from .tileset import Tileset

RANDOM_LAYOUT = "random"


def setup_position(tileset: Tileset, layout: str, options: dict) -> Position:
    """Bag 13+13, storages 1+1, supply 30, full decks, no pairs; the temples are placed now
    for a named layout, or drawn first for ``random``."""
    empty = [0] * CELLS
    return Position(
        tileset=tileset, tile=[EMPTY] * CELLS, rotation=list(empty), alive=[False] * CELLS,
        warrior_spirit=list(empty), warrior_energy=list(empty), cell_spirit=list(empty),
        cell_energy=list(empty),
        temples=() if layout == RANDOM_LAYOUT else tileset.layouts[layout],
        storage_spirit=[STORAGE_START] * 2, storage_energy=[STORAGE_START] * 2,
        bag_spirit=BAG_SPIRIT, bag_energy=BAG_ENERGY,
        supply_energy=ENERGY_TOTAL - BAG_ENERGY - 2 * STORAGE_START, removed_spirit=0,
        relics=[], deck=list(range(len(tileset.tiles))), pairs=[], active=0,
        phase=LAYOUT if layout == RANDOM_LAYOUT else CRYSTALS,
        options={**PLAY_DEFAULTS, **options})
