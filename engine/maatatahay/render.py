"""Text diagram of a Maatatahay position (Unicode, optional ANSI colour).

Each cell shows the warrior's tribe and id, its facing and support arrows, its strength as
printed + Energy + ability bonus, and its crystals; around the board: temples, storages, bag,
relics, deaths, scores, the pending decision and the position string.
"""
from __future__ import annotations

from .board import COLUMNS, FACINGS, SIDE
from .constants import (CRYSTALS, DEATH_LIMIT, DRAW, FIGHT, LAYOUT, LOAD, ORDER, OVER, PAIR,
                        PLACE, PLAY_OPTIONS, REFILL, RETURN, REVEAL, TOSS)
from .moves import format_crystals
from .notation import format_position
from .position import EMPTY, Position
from .rules import (fight_chooser, order_chooser, scores, storage_excess, strength_parts,
                    winner)
from .tileset import TRIBES

ARROWS = "↑↗→↘↓↙←↖"
WIDTH = 12
COLOURS = ("\x1b[1;31m", "\x1b[1;34m")          # Balan red, Wazu blue
TEMPLE_COLOUR, DIM, RESET = "\x1b[33m", "\x1b[2m", "\x1b[0m"


def _cell_lines(pos: Position, cell: int) -> tuple[list[str], int | None]:
    """Three lines of text for a cell, and the tribe whose colour they take (or None)."""
    temple = cell in pos.temples
    if pos.tile[cell] == EMPTY:
        if temple:
            return ["TEMPLE", "relic here", ""], None
        crystals = format_crystals(pos.cell_spirit[cell], pos.cell_energy[cell])
        return ["·", "" if crystals == "-" else crystals, ""], None
    tile = pos.tileset.tiles[pos.tile[cell]]
    mark = "T" if temple else ""
    if not pos.alive[cell]:
        return [f"{tile.id}✝{mark}", "dead", TRIBES[tile.tribe]], tile.tribe
    arrows = "".join(ARROWS[d] * n for d, n in enumerate(tile.arrows_at(pos.rotation[cell])))
    printed, energy, bonus = strength_parts(pos, cell)
    ability = {"elder": "E", "convert": "C", None: ""}[tile.ability]
    crystals = format_crystals(pos.warrior_spirit[cell], pos.warrior_energy[cell])
    return ([f"{tile.id}{FACINGS[pos.rotation[cell]]}{mark} {arrows}",
             f"{printed + energy + bonus}={printed}+{energy}+{bonus}{ability}",
             f"{TRIBES[tile.tribe]} {'' if crystals == '-' else crystals}"], tile.tribe)


def _paint(text: str, tribe: int | None, temple: bool, color: bool) -> str:
    text = text[:WIDTH].ljust(WIDTH)
    if not color:
        return text
    if tribe is not None:
        return f"{COLOURS[tribe]}{text}{RESET}"
    return f"{TEMPLE_COLOUR}{text}{RESET}" if temple else text


def _words(spirit: int, energy: int) -> str:
    return f"{spirit} Spirit {energy} Energy"


def pending_text(pos: Position) -> str:
    """The decision or chance event the position waits for, in words."""
    ids = [t.id for t in pos.tileset.tiles]
    phase = pos.phase
    if phase == PAIR:
        return f"{TRIBES[pos.active]} to choose a pair"
    if phase == ORDER:
        return (f"{TRIBES[order_chooser(pos)]} to choose who places first from "
                f"{ids[pos.chosen[0]]}+{ids[pos.chosen[1]]}")
    if phase == PLACE:
        after = f" (then {ids[pos.queue[1]]})" if len(pos.queue) > 1 else ""
        return f"{TRIBES[pos.placer()]} to place {ids[pos.queue[0]]}{after}"
    if phase in (REFILL, REVEAL):
        return "chance: one tile from each deck refills the pairs"
    if phase == LAYOUT:
        return "chance (setup): the temple layout"
    if phase == CRYSTALS:
        return "chance (setup): a crystal from the bag for the next empty cell"
    if phase == TOSS:
        return "chance (setup): the coin toss for the first active player"
    if phase == OVER:
        best = winner(pos)
        return "game over: " + ("a draw" if best is None else f"{TRIBES[best]} wins")
    where = f"{ids[pos.tile[pos.placed]]} on {COLUMNS[pos.placed % SIDE]}{pos.placed // SIDE + 1}"
    if phase == DRAW:
        return f"chance: crystals drawn from the bag for {TRIBES[pos.placer()]}'s relic"
    if phase == LOAD:
        return f"{TRIBES[pos.placer()]} to load crystals onto {where}"
    if phase == RETURN:
        excess = storage_excess(pos, pos.placer())
        return f"{TRIBES[pos.placer()]} to return {excess} crystals from storage to the bag"
    if phase == FIGHT:
        names = ", ".join(f"{COLUMNS[c % SIDE]}{c // SIDE + 1}" for c in pos.fighters)
        return (f"{TRIBES[fight_chooser(pos)]} to choose the next fight among {names} "
                f"(placed {where})")
    raise ValueError(f"unknown phase {phase}")


def render(pos: Position, color: bool = False, notation: bool = True) -> str:
    border = "   +" + ("-" * WIDTH + "+") * SIDE
    lines = ["    " + "".join(c.center(WIDTH + 1) for c in COLUMNS), border]
    for row in range(SIDE - 1, -1, -1):
        cells = [_cell_lines(pos, row * SIDE + col) for col in range(SIDE)]
        for k in range(3):
            label = f" {row + 1} " if k == 0 else "   "
            lines.append(label + "|" + "|".join(
                _paint(text[k], tribe, row * SIDE + col in pos.temples, color)
                for col, (text, tribe) in enumerate(cells)) + "|")
        lines.append(border)
    points = scores(pos)
    deaths = [pos.deaths(0), pos.deaths(1)]
    either = pos.options["death-limit"] == "either"      # which count the 6-deaths end reads
    per_player, track = (f"/{DEATH_LIMIT}", "") if either else ("", f"/{DEATH_LIMIT}")
    lines += [
        "cell: id+facing(^>v<) arrows / strength=printed+Energy+bonus (E Elder, C Convert) / "
        "tribe, crystals (s Spirit, e Energy); T temple taken, ✝ dead",
        f"tileset: {pos.tileset.label()}",
        "rules: " + " ".join(f"{o.name}={pos.options[o.name]}" for o in PLAY_OPTIONS),
        f"to act: {pending_text(pos)}   (active player: {TRIBES[pos.active]})",
    ]
    for p in (0, 1):
        deck = ",".join(pos.tileset.tiles[t].id for t in pos.deck
                        if pos.tileset.tiles[t].tribe == p) or "-"
        storage = _words(pos.storage_spirit[p], pos.storage_energy[p])
        lines.append(f"{TRIBES[p]:5}: storage {storage}"
                     f"  relics {pos.relics.count(p)}  lost {deaths[p]}{per_player}"
                     f"  score {points[p]}  deck {deck}")
    relics = " ".join(f"{k}:{'BW'[o]}" for k, o in enumerate(pos.relics, 1)) or "none"
    pairs = ", ".join(f"{pos.tileset.tiles[b].id}+{pos.tileset.tiles[w].id}"
                      for b, w in pos.pairs) or "none"
    lines += [
        f"bag {_words(pos.bag_spirit, pos.bag_energy)}  supply {pos.supply_energy} Energy"
        f"  Spirit removed {pos.removed_spirit}  Spirit track {sum(deaths)}{track}",
        f"relics in order taken: {relics}",
        f"pairs on offer: {pairs}",
    ]
    if notation:
        lines.append(f"position: {format_position(pos)}")
    return "\n".join(lines)
