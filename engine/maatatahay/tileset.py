"""Component data (the "tileset"): tiles, frame arrows, temple layouts, ability magnitudes.

The printed values of the real game are not public, so the rules code never hard-codes them:
everything here comes from a TOML or JSON file (format in docs/maatatahay.md), checked on
load so that a bad file fails with the field and the tile named, not with a wrong game later.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path

from ..datafile import FieldChecker, read_data
from ..game import GameError
from ..zobrist import digest64
from .board import CELLS, DIRECTIONS, INDEX, NAMES, step

DEFAULT_PATH = Path(__file__).with_name("tilesets") / "default.toml"
TRIBES = ("Balan", "Wazu")
ABILITIES = ("elder", "convert")
TILES_PER_TRIBE = 12
TEMPLES = 5
MAX_LAYOUTS = 32                   # the kernel's table size
TILE_ID = re.compile(r"^[A-Z][A-Z0-9]{0,7}$")
LAYOUT_NAME = re.compile(r"^[a-z][a-z0-9-]*$")


class TilesetError(GameError):
    """A tileset file is missing, unreadable or breaks the format; the message says where."""


@dataclass(frozen=True)
class Tile:
    id: str
    tribe: int                     # 0 Balan, 1 Wazu
    strength: int
    gems: int
    arrows: tuple[int, ...]        # support arrows per direction (N, NE, ... NW) at rotation 0
    ability: str | None            # "elder", "convert" or None

    def arrows_at(self, rotation: int) -> tuple[int, ...]:
        """Arrows after ``rotation`` clockwise quarter turns (a turn moves each arrow by 2)."""
        return tuple(self.arrows[(d - 2 * rotation) % 8] for d in range(8))

    @cached_property
    def rotations(self) -> tuple[int, ...]:
        """Rotations with distinct arrow patterns: the others are the same move."""
        seen, distinct = set(), []
        for rotation in range(4):
            pattern = self.arrows_at(rotation)
            if pattern not in seen:
                seen.add(pattern)
                distinct.append(rotation)
        return tuple(distinct)


@dataclass(frozen=True)
class Tileset:
    name: str
    note: str
    reconstruction: bool
    source: str
    tiles: tuple[Tile, ...]
    frame_arrows: tuple[tuple[int, int, int], ...]   # (cell, direction it comes from, count)
    layouts: dict                                   # name -> tuple of 5 temple cells
    elder: int                                      # bonus per adjacent friendly warrior
    convert: int                                    # bonus per diagonal enemy warrior

    @cached_property
    def frame_energy(self) -> tuple[int, ...]:
        """Per cell, the frame arrows pointing at it."""
        energy = [0] * CELLS
        for cell, _, count in self.frame_arrows:
            energy[cell] += count
        return tuple(energy)

    @cached_property
    def digest(self) -> int:
        """A 64-bit digest of everything the rules read from the tileset (not its name, note
        or tile ids, which only name things): position keys and cache identity include it,
        so two tilesets that play differently never share a transposition table."""
        tiles = tuple((t.tribe, t.strength, t.gems, t.arrows, t.ability) for t in self.tiles)
        return digest64("tileset", tiles, self.frame_arrows, tuple(self.layouts.items()),
                        self.elder, self.convert)

    @cached_property
    def index(self) -> dict[str, int]:
        return {tile.id: i for i, tile in enumerate(self.tiles)}

    def label(self) -> str:
        kind = "the project's own reconstruction, not the printed values" \
            if self.reconstruction else "user-supplied component data"
        return f"{self.name} ({kind})"


# -- loading ---------------------------------------------------------------------------------

class _Checker(FieldChecker):
    """The tileset's field kinds (cells) on top of the common ones."""
    error = TilesetError

    def cell(self, value, where: str, field: str) -> int:
        if not isinstance(value, str) or value not in INDEX:
            self.fail(where, f"field {field!r}: {value!r} is not a cell a1-e5")
        return INDEX[value]


def _tile(check: _Checker, data, position: int) -> Tile:
    where = f"tiles[{position}]"
    data = check.table(data, where, {"id", "tribe", "strength", "gems", "arrows", "ability"})
    tile_id = check.string(data, "id", where, pattern=TILE_ID)
    where = f"tile {tile_id!r} (tiles[{position}])"
    tribe = TRIBES.index(check.string(data, "tribe", where, choices=TRIBES))
    strength = check.integer(data, "strength", where, 0, 20)
    gems = check.integer(data, "gems", where, 0, 20)
    arrow_table = check.table(data.get("arrows", {}), f"{where} field 'arrows'", set(DIRECTIONS))
    arrows = tuple(check.integer(arrow_table, d, f"{where} field 'arrows'", 0, 4, default=0)
                   for d in DIRECTIONS)
    ability = data.get("ability")
    if ability is not None:
        ability = check.string(data, "ability", where, choices=ABILITIES)
    return Tile(tile_id, tribe, strength, gems, arrows, ability)


def _frame_arrow(check: _Checker, data, position: int) -> tuple[int, int, int]:
    where = f"frame[{position}]"
    data = check.table(data, where, {"cell", "from", "count"})
    cell = check.cell(data.get("cell"), where, "cell")
    direction = DIRECTIONS.index(check.string(data, "from", where, choices=DIRECTIONS))
    if step(cell, direction) >= 0:
        check.fail(where, f"field 'from': {NAMES[cell]} has a board cell to the "
                          f"{DIRECTIONS[direction]}, so no frame arrow can come from there")
    return cell, direction, check.integer(data, "count", where, 1, 4, default=1)


def _layouts(check: _Checker, data) -> dict:
    if not isinstance(data, dict) or not 1 <= len(data) <= MAX_LAYOUTS:
        check.fail("layouts", f"expected a table of 1-{MAX_LAYOUTS} named layouts")
    layouts = {}
    for name, cells in data.items():
        where = f"layout {name!r}"
        if not LAYOUT_NAME.match(name) or name == "random":
            check.fail(where, "a layout name is lower-case letters, digits and '-', "
                              "and 'random' is reserved")
        if not isinstance(cells, list) or len(cells) != TEMPLES:
            check.fail(where, f"expected a list of {TEMPLES} cells")
        indices = tuple(sorted(check.cell(c, where, "cells") for c in cells))
        if len(set(indices)) != TEMPLES:
            check.fail(where, "a cell is listed twice")
        layouts[name] = indices
    return layouts


def parse_tileset(data, source: str) -> Tileset:
    """Validate already-decoded tileset data (``source`` names it in errors)."""
    check = _Checker(f"tileset {source}")
    data = check.table(data, "top level", {"tileset", "abilities", "tiles", "frame", "layouts"})
    head = check.table(data.get("tileset", {}), "[tileset]", {"name", "note", "reconstruction"})
    name = check.string(head, "name", "[tileset]")
    note = check.string(head, "note", "[tileset]", default="")
    reconstruction = head.get("reconstruction", False)
    if not isinstance(reconstruction, bool):
        check.fail("[tileset]", "field 'reconstruction' must be true or false")
    magnitudes = check.table(data.get("abilities", {}), "[abilities]", set(ABILITIES))
    elder = check.integer(magnitudes, "elder", "[abilities]", 0, 4, default=1)
    convert = check.integer(magnitudes, "convert", "[abilities]", 0, 4, default=1)
    tile_list = data.get("tiles")
    if not isinstance(tile_list, list):
        check.fail("tiles", "expected a list of tiles ([[tiles]] tables)")
    tiles = tuple(_tile(check, t, i) for i, t in enumerate(tile_list))
    ids = [t.id for t in tiles]
    for tile_id in ids:
        if ids.count(tile_id) > 1:
            check.fail(f"tile {tile_id!r}", "field 'id' is used by more than one tile")
    for tribe, tribe_name in enumerate(TRIBES):
        count = sum(t.tribe == tribe for t in tiles)
        if count != TILES_PER_TRIBE:
            check.fail("tiles", f"{tribe_name} has {count} tiles; each tribe has "
                                f"{TILES_PER_TRIBE}")
    frame_list = data.get("frame", [])
    if not isinstance(frame_list, list):
        check.fail("frame", "expected a list of frame arrows ([[frame]] tables)")
    frame = tuple(_frame_arrow(check, f, i) for i, f in enumerate(frame_list))
    return Tileset(name, note, reconstruction, source, tiles, frame,
                   _layouts(check, data.get("layouts")), elder, convert)


@lru_cache(maxsize=8)
def load_tileset(path: str | None = None) -> Tileset:
    """The tileset at ``path`` (TOML, or JSON by extension); the default one if None."""
    file = DEFAULT_PATH if path is None else Path(path)
    return parse_tileset(read_data(file, "tileset", TilesetError), file.name)
