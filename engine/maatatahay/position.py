"""The whole state of a Maatatahay game as plain data, shared by both implementations.

The reference implementation plays on it directly, the kernel converts to and from it, and
the notation reads and writes it.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field, fields

from .board import CELLS
from .constants import PLACE, PLAY_DEFAULTS
from .tileset import Tileset

EMPTY = -1


@dataclass
class Position:
    """Everything the rules need, independent of the implementation that plays it."""

    tileset: Tileset = field(compare=False, repr=False)
    tile: list[int]                   # per cell: tile index or EMPTY
    rotation: list[int]               # per cell: 0-3 (0 for empty cells and dead tiles)
    alive: list[bool]
    warrior_spirit: list[int]         # crystals on the warrior of each cell
    warrior_energy: list[int]
    cell_spirit: list[int]            # crystals lying on empty cells
    cell_energy: list[int]
    temples: tuple[int, ...]
    storage_spirit: list[int]         # per player
    storage_energy: list[int]
    bag_spirit: int
    bag_energy: int
    supply_energy: int
    removed_spirit: int
    relics: list[int]                 # owner of each relic in the order taken
    deck: list[int]                   # tile indices left in the decks, ascending
    pairs: list[tuple[int, int]]      # (Balan tile, Wazu tile) on offer
    active: int
    phase: int
    chosen: tuple[int, int] | None = None   # the pair whose order is being chosen
    queue: list[int] = field(default_factory=list)   # tiles still to place this round
    placed: int = EMPTY                     # cell of the warrior placed this turn
    fighters: list[int] = field(default_factory=list)
    options: dict = field(default_factory=lambda: dict(PLAY_DEFAULTS))

    def copy(self) -> "Position":
        """An independent copy that shares the immutable tileset (deepcopy would copy it)."""
        twin = copy.copy(self)
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, (list, dict)):
                setattr(twin, f.name, value.copy())
        return twin

    def tribe(self, cell: int) -> int:
        return self.tileset.tiles[self.tile[cell]].tribe

    def deaths(self, player: int) -> int:
        return sum(1 for c in range(CELLS) if self.tile[c] != EMPTY and not self.alive[c]
                   and self.tribe(c) == player)

    def placer(self) -> int:
        """The player who places, loads or returns crystals now (tribe of the current tile)."""
        if self.phase == PLACE:
            return self.tileset.tiles[self.queue[0]].tribe
        return self.tribe(self.placed)


def undealt_cells(pos: Position) -> list[int]:
    """Setup cells still waiting for their crystal: empty, not a temple, holding none."""
    return [c for c in range(CELLS) if pos.tile[c] == EMPTY and c not in pos.temples
            and pos.cell_spirit[c] + pos.cell_energy[c] == 0]
