"""A random new game (section 2), drawn directly from a seed.

The setup is not played out as chance nodes: a searcher never starts before it, and a seed
(or a position string) fixes it completely, so a game record starts from the dealt position.
The chance events of play (relic draws, refills) are chance nodes of the interface.
"""
from __future__ import annotations

import random

from .board import CELLS
from .constants import (BAG_ENERGY, BAG_SPIRIT, ENERGY_TOTAL, PAIR, PAIRS_ON_OFFER,
                        PLAY_DEFAULTS, STORAGE_START)
from .notation import EMPTY, Position
from .tileset import Tileset


def random_setup(tileset: Tileset, layout: str, options: dict, rng: random.Random) -> Position:
    if layout == "random":                                     # 2.1
        layout = rng.choice(list(tileset.layouts))
    temples = tileset.layouts[layout]
    bag = ["s"] * BAG_SPIRIT + ["e"] * BAG_ENERGY               # 2.2
    rng.shuffle(bag)
    cell_spirit, cell_energy = [0] * CELLS, [0] * CELLS
    for cell in range(CELLS):                                  # 2.3
        if cell not in temples:
            crystal = bag.pop()
            (cell_spirit if crystal == "s" else cell_energy)[cell] = 1
    decks = []
    for tribe in (0, 1):                                       # 2.4
        deck = [i for i, t in enumerate(tileset.tiles) if t.tribe == tribe]
        rng.shuffle(deck)
        decks.append(deck)
    pairs = [(decks[0].pop(), decks[1].pop()) for _ in range(PAIRS_ON_OFFER)]
    return Position(
        tileset=tileset, tile=[EMPTY] * CELLS, rotation=[0] * CELLS, alive=[False] * CELLS,
        warrior_spirit=[0] * CELLS, warrior_energy=[0] * CELLS,
        cell_spirit=cell_spirit, cell_energy=cell_energy, temples=temples,
        storage_spirit=[STORAGE_START] * 2, storage_energy=[STORAGE_START] * 2,
        bag_spirit=bag.count("s"), bag_energy=bag.count("e"),
        supply_energy=ENERGY_TOTAL - BAG_ENERGY - 2 * STORAGE_START,
        removed_spirit=0, relics=[], deck=sorted(decks[0] + decks[1]), pairs=pairs,
        active=rng.randrange(2), phase=PAIR,                     # 2.5 coin toss
        options={**PLAY_DEFAULTS, **options})
