"""Maatatahay position notation: one line holding the whole state (docs/maatatahay.md).

Fields, separated by single spaces, always in this order::

    BOARD temples=CELLS store=CRYS/CRYS bag=CRYS supply=N relics=OWNERS decks=IDS/IDS
    pairs=PAIRS active=B|W pending=STEP [option=value ...]

* BOARD: rows 5 (top) to 1 separated by ``/``, five cells per row separated by ``,``. A cell
  is ``.`` (empty), a crystal count ``CRYS`` (empty with crystals on it), or a tile
  ``<id><facing><CRYS>``: facing ``^ > v <`` for a living warrior at rotation 0-3, ``x`` for
  a dead one, then the crystals on it (omitted when none).
* CRYS: ``<n>s<m>e`` with each part left out when zero and the count left out when one
  (``s``, ``2e``, ``s3e``); ``-`` is no crystal at all.
* temples: the five temple cells (a temple without a tile still holds its relic), or ``-``
  before the setup has drawn the layout.
* relics: the owner of each relic taken so far, in the order taken (``BWB``) or ``-``.
* decks: the tiles left in the Balan and the Wazu deck, in tileset order (``-`` if none).
* pairs: the pairs on offer ``B3+W4,...`` in display order, or ``-``.
* active: the active player (``B`` until the setup's coin toss).
* pending: ``pair``; ``order:B3+W4``; ``place:B3,W4`` (tiles still to place this round, the
  first one now); ``draw:c3[:W4]``, ``load:c3[:W4]`` (the warrior just placed, then the tile
  still to place); ``fight:c3:b2,c4[:W4]`` (placed warrior, fights not yet resolved);
  ``refill``; ``over``; and the setup's chance events ``layout``, ``crystals`` (the next cell
  without a crystal gets one), ``reveal`` (the first three pairs), ``toss``.

Deaths, the Spirit track and the removed Spirit are not written: they follow from the dead
tiles and the crystal totals, so the string can never contradict itself.
"""
from __future__ import annotations

import re

from ..game import NotationError
from .board import CELLS, FACINGS, INDEX, NAMES, SIDE
from .constants import (CRYSTALS, DRAW, ENERGY_TOTAL, FIGHT, LAYOUT, LOAD, ORDER, PAIR, PHASES,
                        PAIRS_ON_OFFER, PLACE, PLAY_OPTIONS, REFILL, RETURN, REVEAL, SPIRIT_TOTAL,
                        STORAGE_LIMIT, TRIBE_LETTERS)
from .moves import format_crystals, parse_crystals, tile_pair
from .position import EMPTY, Position, undealt_cells
from .tileset import TRIBES, Tileset


def _tile_ids(tileset: Tileset, tiles) -> str:
    return ",".join(tileset.tiles[t].id for t in tiles) or "-"


def format_pending(pos: Position) -> str:
    ids = [t.id for t in pos.tileset.tiles]
    phase = pos.phase
    parts = [PHASES[phase]]
    if phase == ORDER:
        parts.append(f"{ids[pos.chosen[0]]}+{ids[pos.chosen[1]]}")
    elif phase == PLACE:
        parts.append(",".join(ids[t] for t in pos.queue))
    elif phase in (DRAW, LOAD, RETURN, FIGHT):
        parts.append(NAMES[pos.placed])
        if phase == FIGHT:
            parts.append(",".join(NAMES[c] for c in pos.fighters))
        if pos.queue:
            parts.append(ids[pos.queue[0]])
    return ":".join(parts)


EMPTY_CELL = "."          # not "-": a position string must not start like a CLI option


def format_cell(pos: Position, cell: int) -> str:
    if pos.tile[cell] == EMPTY:
        crystals = format_crystals(pos.cell_spirit[cell], pos.cell_energy[cell])
        return EMPTY_CELL if crystals == "-" else crystals
    state = FACINGS[pos.rotation[cell]] if pos.alive[cell] else "x"
    crystals = format_crystals(pos.warrior_spirit[cell], pos.warrior_energy[cell])
    return f"{pos.tileset.tiles[pos.tile[cell]].id}{state}{'' if crystals == '-' else crystals}"


def format_position(pos: Position) -> str:
    tileset = pos.tileset
    rows = []
    for row in range(SIDE - 1, -1, -1):
        rows.append(",".join(format_cell(pos, row * SIDE + col) for col in range(SIDE)))
    decks = "/".join(_tile_ids(tileset, [t for t in pos.deck if tileset.tiles[t].tribe == p])
                     for p in (0, 1))
    pairs = ",".join(f"{tileset.tiles[b].id}+{tileset.tiles[w].id}" for b, w in pos.pairs)
    parts = [
        "/".join(rows),
        "temples=" + (",".join(NAMES[c] for c in pos.temples) or "-"),
        "store=" + "/".join(format_crystals(pos.storage_spirit[p], pos.storage_energy[p])
                            for p in (0, 1)),
        "bag=" + format_crystals(pos.bag_spirit, pos.bag_energy),
        f"supply={pos.supply_energy}",
        "relics=" + ("".join(TRIBE_LETTERS[p] for p in pos.relics) or "-"),
        "decks=" + decks,
        "pairs=" + (pairs or "-"),
        f"active={TRIBE_LETTERS[pos.active]}",
        "pending=" + format_pending(pos),
    ]
    parts += [f"{o.name}={pos.options[o.name]}" for o in PLAY_OPTIONS
               if pos.options[o.name] != o.default]
    return " ".join(parts)


FIELD_ORDER = ("temples", "store", "bag", "supply", "relics", "decks", "pairs", "active",
               "pending")
EXAMPLE_HELP = "see docs/maatatahay.md, or `crystalpick show maatatahay` for a full example"
_CELL = re.compile(r"^([A-Z][A-Z0-9]*)([\^>v<x])(.*)$")


class _Parser:
    """Builds a Position field by field; every error names the field and what was expected."""

    def __init__(self, tileset: Tileset):
        self.tileset = tileset
        self.index = tileset.index
        self.seen_tiles: dict[int, str] = {}

    def claim(self, tile: int, where: str) -> None:
        """Each of the 24 tiles is in exactly one place."""
        if tile in self.seen_tiles:
            raise NotationError(f"{where}: tile {self.tileset.tiles[tile].id} is already "
                                f"{self.seen_tiles[tile]}")
        self.seen_tiles[tile] = where

    def tile_id(self, text: str, where: str, tribe: int | None = None) -> int:
        if text not in self.index:
            raise NotationError(f"{where}: {text!r} is not a tile id of tileset "
                                f"{self.tileset.name}")
        tile = self.index[text]
        if tribe is not None and self.tileset.tiles[tile].tribe != tribe:
            raise NotationError(f"{where}: tile {text} is not a "
                                f"{TRIBES[tribe]} tile")
        return tile

    def cell(self, text: str, where: str) -> int:
        if text not in INDEX:
            raise NotationError(f"{where}: {text!r} is not a cell a1-e5")
        return INDEX[text]

    def board(self, text: str, pos: dict) -> None:
        rows = text.split("/")
        if len(rows) != SIDE:
            raise NotationError(f"board field has {len(rows)} rows separated by '/'; expected "
                                f"5 (row 5 first)")
        for name in ("tile", "rotation", "alive", "warrior_spirit", "warrior_energy",
                     "cell_spirit", "cell_energy"):
            pos[name] = [EMPTY if name == "tile" else 0] * CELLS
        pos["alive"] = [False] * CELLS
        for number, row_text in zip(range(SIDE, 0, -1), rows):
            cells = row_text.split(",")
            if len(cells) != SIDE:
                raise NotationError(f"board row {number} ({row_text!r}) has {len(cells)} "
                                    f"cells separated by ','; expected 5")
            for col, token in enumerate(cells):
                cell = (number - 1) * SIDE + col
                self.board_cell(token, cell, pos)

    def board_cell(self, token: str, cell: int, pos: dict) -> None:
        where = f"board cell {NAMES[cell]}"
        found = _CELL.match(token)
        if token == EMPTY_CELL:
            return
        if not found:
            expected = (f"{where} ({token!r}: expected '{EMPTY_CELL}' (empty), crystals like "
                        f"'e', or a tile like 'B3>2e')")
            if token == "-":
                raise NotationError(expected)
            pos["cell_spirit"][cell], pos["cell_energy"][cell] = parse_crystals(token, expected)
            return
        tile_text, state, crystals = found.groups()
        tile = self.tile_id(tile_text, where)
        self.claim(tile, f"on the board at {NAMES[cell]}")
        pos["tile"][cell] = tile
        pos["alive"][cell] = state != "x"
        pos["rotation"][cell] = FACINGS.index(state) if state != "x" else 0
        if crystals in ("", "-"):
            if crystals == "-":
                raise NotationError(f"{where} ({token!r}): leave out the crystals of a tile "
                                    f"that has none")
            return
        spirit, energy = parse_crystals(crystals, f"{where} crystals")
        if state == "x":
            raise NotationError(f"{where} ({token!r}): a dead tile holds no crystals")
        pos["warrior_spirit"][cell], pos["warrior_energy"][cell] = spirit, energy

    def temples(self, text: str, pos: dict) -> None:
        if text == "-":
            pos["temples"] = ()
            return
        cells = [self.cell(c, "temples") for c in text.split(",")]
        if len(set(cells)) != 5 or cells != sorted(cells):
            raise NotationError(f"temples={text!r}: expected 5 different cells in board order "
                                f"(a1, b1, ... e5)")
        pos["temples"] = tuple(cells)
        for c in cells:
            if pos["tile"][c] == EMPTY and pos["cell_spirit"][c] + pos["cell_energy"][c]:
                raise NotationError(f"temples: unclaimed temple {NAMES[c]} cannot hold crystals")

    def store(self, text: str, pos: dict) -> None:
        parts = text.split("/")
        if len(parts) != 2:
            raise NotationError(f"store={text!r}: expected Balan/Wazu crystals like 's1e/2e'")
        counts = [parse_crystals(p, f"store of {TRIBES[i]}")
                  for i, p in enumerate(parts)]
        pos["storage_spirit"] = [c[0] for c in counts]
        pos["storage_energy"] = [c[1] for c in counts]

    def relics(self, text: str, pos: dict) -> None:
        if text != "-" and not re.fullmatch(r"[BW]+", text):
            raise NotationError(f"relics={text!r}: expected the owners in order like 'BWB', "
                                f"or '-'")
        pos["relics"] = [] if text == "-" else [TRIBE_LETTERS.index(c) for c in text]
        claimed = sum(1 for c in pos["temples"] if pos["tile"][c] != EMPTY)
        if len(pos["relics"]) != claimed:
            raise NotationError(f"relics={text!r}: {len(pos['relics'])} relics taken but "
                                f"{claimed} temples hold a tile")

    def decks(self, text: str, pos: dict) -> None:
        parts = text.split("/")
        if len(parts) != 2:
            raise NotationError(f"decks={text!r}: expected Balan/Wazu tile lists like "
                                f"'B1,B4/W2' ('-' for an empty deck)")
        deck = []
        for tribe, part in enumerate(parts):
            tiles = [] if part == "-" else [self.tile_id(t, "decks", tribe)
                                            for t in part.split(",")]
            if tiles != sorted(tiles):
                raise NotationError(f"decks: list the {TRIBES[tribe]} deck in "
                                    f"tileset order")
            for t in tiles:
                self.claim(t, "in a deck")
            deck += tiles
        counts = [sum(1 for t in deck if self.tileset.tiles[t].tribe == p) for p in (0, 1)]
        if counts[0] != counts[1]:
            raise NotationError(f"decks: the decks hold {counts[0]} and {counts[1]} tiles; "
                                f"pairs take one from each, so they are always equal")
        pos["deck"] = deck

    def tile_pair(self, text: str, where: str) -> tuple[int, int]:
        pair = tile_pair(self.tileset, text, where)
        for t in pair:
            self.claim(t, where)
        return pair

    def pairs(self, text: str, pos: dict) -> None:
        pairs = [] if text == "-" else [self.tile_pair(p, "pairs") for p in text.split(",")]
        if len(pairs) > 3:
            raise NotationError(f"pairs={text!r}: at most 3 pairs are on offer")
        pos["pairs"] = pairs

    def active(self, text: str, pos: dict) -> None:
        if text not in ("B", "W"):
            raise NotationError(f"active={text!r}: expected B (Balan) or W (Wazu)")
        pos["active"] = TRIBE_LETTERS.index(text)

    def pending(self, text: str, pos: dict) -> None:
        parts = text.split(":")
        if parts[0] not in PHASES:
            raise NotationError(f"pending={text!r}: expected one of {', '.join(PHASES)} "
                                f"with its details (e.g. 'place:B3,W4', 'load:c3:W4')")
        phase = PHASES.index(parts[0])
        pos["phase"] = phase
        expected = {ORDER: (2, 2), PLACE: (2, 2), DRAW: (2, 3), LOAD: (2, 3), RETURN: (2, 3),
                    FIGHT: (3, 4)}.get(phase, (1, 1))
        if not expected[0] <= len(parts) <= expected[1]:
            raise NotationError(f"pending={text!r}: '{parts[0]}' takes {expected[0] - 1}"
                                f"{'' if expected[0] == expected[1] else f'-{expected[1] - 1}'}"
                                f" ':'-separated details; see docs/maatatahay.md")
        if phase == ORDER:
            pos["chosen"] = self.tile_pair(parts[1], "pending order")
        elif phase == PLACE:
            ids = parts[1].split(",")
            queue = [self.tile_id(t, "pending place") for t in ids]
            tribes = [self.tileset.tiles[t].tribe for t in queue]
            if len(queue) > 2 or len(set(tribes)) != len(tribes):
                raise NotationError(f"pending={text!r}: at most one tile of each tribe left "
                                    f"to place")
            for t in queue:
                self.claim(t, "still to place")
            pos["queue"] = queue
        elif phase in (DRAW, LOAD, RETURN, FIGHT):
            self.placed(parts, text, pos)

    def placed(self, parts: list[str], text: str, pos: dict) -> None:
        cell = self.cell(parts[1], "pending: placed warrior")
        phase = pos["phase"]
        if pos["tile"][cell] == EMPTY or (phase != FIGHT and not pos["alive"][cell]):
            raise NotationError(f"pending={text!r}: no living warrior on {parts[1]}")
        pos["placed"] = cell
        rest = parts[2:]
        if phase == FIGHT:
            fighters = [self.cell(c, "pending fight") for c in rest[0].split(",")]
            if len(fighters) < 2 or fighters != sorted(set(fighters)):
                raise NotationError(f"pending={text!r}: list 2 or more fighters in board order")
            for c in fighters:
                if pos["tile"][c] == EMPTY or not pos["alive"][c]:
                    raise NotationError(f"pending fight: no living warrior on {NAMES[c]}")
            pos["fighters"] = fighters
            rest = rest[1:]
        if rest:
            tile = self.tile_id(rest[0], "pending: tile still to place")
            if self.tileset.tiles[tile].tribe == self.tileset.tiles[pos["tile"][cell]].tribe:
                raise NotationError(f"pending={text!r}: the tile still to place belongs to "
                                    f"the other tribe")
            self.claim(tile, "still to place")
            pos["queue"] = [tile]

    def options(self, fields: list[str], rules: dict, explicit: dict) -> dict:
        options = {o.name: rules.get(o.name, o.default) for o in PLAY_OPTIONS}
        choices = {o.name: o.choices for o in PLAY_OPTIONS}
        named = set()
        for text in fields:
            name, sep, value = text.partition("=")
            if not sep or name not in choices:
                known = ", ".join(f"{n}={'|'.join(c)}" for n, c in choices.items())
                raise NotationError(f"option field {text!r}: expected one of {known}")
            if value not in choices[name]:
                raise NotationError(f"option {text!r}: {name} must be one of "
                                    f"{'|'.join(choices[name])}")
            if name in named:
                raise NotationError(f"option {name} is given twice in the position")
            if name in explicit and explicit[name] != value:
                raise NotationError(f"position says {text} but --rule {name}={explicit[name]}")
            named.add(name)
            options[name] = value
        return options


def parse_position(text: str, tileset: Tileset, rules: dict | None = None,
                   explicit: dict | None = None) -> Position:
    """Parse a position string; ``rules`` fill options the string omits, and ``explicit``
    (options set with --rule) may not be contradicted by the string."""
    tokens = text.split()
    if len(tokens) < 1 + len(FIELD_ORDER):
        raise NotationError(f"position has {len(tokens)} fields; expected the board and then "
                            f"{', '.join(f + '=' for f in FIELD_ORDER)} ({EXAMPLE_HELP})")
    parser = _Parser(tileset)
    pos: dict = {"removed_spirit": 0}          # set by _checked from the crystal totals
    parser.board(tokens[0], pos)
    for label, text_field in zip(FIELD_ORDER, tokens[1:]):
        name, sep, value = text_field.partition("=")
        if name != label or not sep:
            raise NotationError(f"field {text_field!r}: expected '{label}=...' here (fields "
                                f"in order: board {' '.join(FIELD_ORDER)})")
        if label == "supply":
            if not re.fullmatch(r"0|[1-9]\d*", value):
                raise NotationError(f"supply={value!r}: expected the number of Energy crystals")
            pos["supply_energy"] = int(value)
        elif label == "bag":
            pos["bag_spirit"], pos["bag_energy"] = parse_crystals(value, "bag")
        else:
            getattr(parser, label)(value, pos)
    options = parser.options(tokens[1 + len(FIELD_ORDER):], rules or {}, explicit or {})
    return _checked(Position(tileset=tileset, options=options, **pos), parser)


def _checked(pos: Position, parser: _Parser) -> Position:
    """Whole-position checks: every tile somewhere, crystal totals, a pending step that fits."""
    missing = [t.id for i, t in enumerate(pos.tileset.tiles) if i not in parser.seen_tiles]
    if missing:
        raise NotationError(f"tiles {', '.join(missing)} are nowhere (board, decks, pairs or "
                            f"pending); every tile is in exactly one place")
    spirit = (pos.bag_spirit + sum(pos.storage_spirit) + sum(pos.cell_spirit)
              + sum(pos.warrior_spirit))
    energy = (pos.bag_energy + sum(pos.storage_energy) + sum(pos.cell_energy)
              + sum(pos.warrior_energy) + pos.supply_energy)
    if spirit > SPIRIT_TOTAL:
        raise NotationError(f"{spirit} Spirit crystals in play; the game has {SPIRIT_TOTAL}")
    if energy != ENERGY_TOTAL:
        raise NotationError(f"{energy} Energy crystals counted (bag, storages, cells, "
                            f"warriors, supply); the game has exactly {ENERGY_TOTAL}")
    pos.removed_spirit = SPIRIT_TOTAL - spirit
    if (pos.phase == LAYOUT) != (not pos.temples):
        raise NotationError("temples=- (no layout yet) goes with pending=layout, and only with it")
    if pos.phase == CRYSTALS and not (undealt_cells(pos) and pos.bag_spirit + pos.bag_energy):
        raise NotationError("pending=crystals needs a cell without its crystal (outside the "
                            "temples) and a crystal in the bag")
    if pos.phase == REVEAL and len(pos.pairs) >= 3:
        raise NotationError("pending=reveal: the three first pairs are already on offer")
    free = sum(1 for c in range(CELLS) if pos.tile[c] == EMPTY and c not in pos.temples)
    if pos.phase in (PAIR, ORDER) and (free < 2 or (pos.phase == PAIR and not pos.pairs)):
        raise NotationError(f"pending={PHASES[pos.phase]}: a round needs a pair on offer and "
                            f"2 free cells (otherwise the game is over)")
    if pos.phase == PLACE and free < 1:
        raise NotationError("pending=place: no free cell left to place on")
    if pos.phase == RETURN:
        player = pos.tribe(pos.placed)
        held = pos.storage_spirit[player] + pos.storage_energy[player]
        if pos.options["storage-excess"] != "discard" or held <= STORAGE_LIMIT:
            raise NotationError(f"pending=return: crystals go back to the bag only under "
                                f"storage-excess=discard, from a storage over {STORAGE_LIMIT} "
                                f"(the placer holds {held})")
    if pos.phase == REFILL and (not pos.deck or len(pos.pairs) >= PAIRS_ON_OFFER):
        raise NotationError("pending=refill needs tiles in the decks and room for a pair "
                            "(at most 2 on offer)")
    return pos
