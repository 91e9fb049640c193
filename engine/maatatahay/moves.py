"""Maatatahay moves: their integer encoding and their notation (docs/maatatahay.md).

A move is a non-negative int, the same in both implementations and in every state, so its
notation never needs the position. The crystal count syntax (``s``, ``2e``, ``s3e``, ``-``)
is shared with the position notation.
"""
from __future__ import annotations

import re

from ..game import NotationError
from .board import FACINGS, INDEX, NAMES
from .constants import TRIBE_LETTERS
from .tileset import Tileset

# A move is KIND << 16 | payload; the kinds are the decision points and chance events.
KIND_SHIFT = 16
(M_PAIR, M_ORDER, M_PLACE, M_LOAD, M_FIGHT, M_DRAW, M_DEAL, M_LAYOUT, M_CRYSTAL, M_TOSS,
 M_RETURN) = range(1, 12)


def encode_place(cell: int, rotation: int, paid_spirit: int = 0, paid_energy: int = 0) -> int:
    return M_PLACE << KIND_SHIFT | paid_energy << 10 | paid_spirit << 7 | cell << 2 | rotation


def encode_pair_of(kind: int, first: int, second: int) -> int:
    """Moves carrying two small numbers: load/draw/return (spirit, energy), deal (Balan,
    Wazu)."""
    return kind << KIND_SHIFT | second << 6 | first


def move_kind(move: int) -> int:
    return move >> KIND_SHIFT


def move_payload(move: int) -> int:
    return move & ((1 << KIND_SHIFT) - 1)


def decode_place(move: int) -> tuple[int, int, int, int]:
    """(cell, rotation, paid spirit, paid energy)."""
    return (move >> 2) & 31, move & 3, (move >> 7) & 7, (move >> 10) & 7


def decode_two(move: int) -> tuple[int, int]:
    return move & 63, (move >> 6) & 63


def format_crystals(spirit: int, energy: int) -> str:
    parts = [f"{'' if n == 1 else n}{letter}" for n, letter in ((spirit, "s"), (energy, "e"))
             if n]
    return "".join(parts) or "-"


_COUNT = r"([2-9]|[1-9]\d+)?"          # a count of one is left out
_CRYSTALS = re.compile(rf"^(?:{_COUNT}s)?(?:{_COUNT}e)?$")


def parse_crystals(text: str, where: str) -> tuple[int, int]:
    """``(spirit, energy)`` from crystal syntax; errors name ``where``."""
    if text == "-":
        return 0, 0
    found = _CRYSTALS.match(text)
    if not text or not found:
        raise NotationError(f"{where}: {text!r} is not a crystal count; expected '-' or "
                            f"<n>s<m>e with zero parts and counts of 1 left out (e.g. s, 2e, "
                            f"s3e)")
    spirit = 0 if "s" not in text else int(found.group(1) or 1)
    energy = 0 if "e" not in text else int(found.group(2) or 1)
    return spirit, energy


def format_move(tileset: Tileset, move: int) -> str:
    kind, payload = move_kind(move), move_payload(move)
    ids = [t.id for t in tileset.tiles]
    if kind == M_PAIR:
        first, second = decode_two(payload)
        return f"{ids[first]}+{ids[second]}"
    if kind == M_ORDER:
        return f"first:{TRIBE_LETTERS[payload]}"
    if kind == M_PLACE:
        cell, rotation, spirit, energy = decode_place(payload)
        paid = f"${format_crystals(spirit, energy)}" if spirit + energy else ""
        return f"{NAMES[cell]}{FACINGS[rotation]}{paid}"
    if kind == M_LOAD:
        return f"load:{format_crystals(*decode_two(payload))}"
    if kind == M_RETURN:
        return f"return:{format_crystals(*decode_two(payload))}"
    if kind == M_FIGHT:
        return f"fight:{NAMES[payload]}"
    if kind == M_DRAW:
        return f"draw:{format_crystals(*decode_two(payload))}"
    if kind == M_DEAL:
        first, second = decode_two(payload)
        return f"deal:{ids[first]}+{ids[second]}"
    if kind == M_LAYOUT:
        return f"layout:{list(tileset.layouts)[payload]}"
    if kind == M_CRYSTAL:
        return f"crystal:{NAMES[payload >> 1]}{'se'[payload & 1]}"
    if kind == M_TOSS:
        return f"toss:{TRIBE_LETTERS[payload]}"
    raise NotationError(f"not a Maatatahay move code: {move}")


_PLACE = re.compile(r"^([a-e][1-5])([\^>v<])(?:\$(.+))?$")
MOVE_HELP = ("a pair 'B3+W4', 'first:B|W', a placement like 'c3>' or 'c3^$2se' (cell, facing "
             "^ > v <, temple payment), 'load:<crystals>', 'return:<crystals>', 'fight:<cell>', "
             "'draw:<crystals>' or 'deal:B7+W2'; setup: 'layout:<name>', 'crystal:a2s', 'toss:B'")


_CRYSTAL_MOVES = {"load": M_LOAD, "draw": M_DRAW, "return": M_RETURN}


def tile_pair(tileset: Tileset, text: str, what: str) -> tuple[int, int]:
    index = tileset.index
    parts = text.split("+")
    if len(parts) != 2 or any(p not in index for p in parts):
        raise NotationError(f"{what} {text!r}: expected two tile ids 'B<n>+W<n>' of the tileset")
    balan, wazu = (index[p] for p in parts)
    if tileset.tiles[balan].tribe != 0 or tileset.tiles[wazu].tribe != 1:
        raise NotationError(f"{what} {text!r}: the Balan tile comes first, then the Wazu tile")
    return balan, wazu


def parse_move_syntax(tileset: Tileset, text: str) -> int:
    """The move a string names (its syntax and names, not its legality)."""
    text = text.strip()
    head, sep, rest = text.partition(":")
    if not sep:
        found = _PLACE.match(text)
        if found:
            cell, facing, paid = found.groups()
            spirit, energy = parse_crystals(paid, "payment") if paid else (0, 0)
            if paid == "-" or spirit > 7 or energy > 7:
                raise NotationError(f"payment in {text!r}: expected 1-4 crystals like '2se'")
            return encode_place(INDEX[cell], FACINGS.index(facing), spirit, energy)
        if "+" in text:
            return encode_pair_of(M_PAIR, *tile_pair(tileset, text, "pair"))
    elif head == "first" and rest in ("B", "W"):
        return M_ORDER << KIND_SHIFT | TRIBE_LETTERS.index(rest)
    elif head == "fight" and rest in INDEX:
        return M_FIGHT << KIND_SHIFT | INDEX[rest]
    elif head in _CRYSTAL_MOVES:
        spirit, energy = parse_crystals(rest, head)
        if spirit > 63 or energy > 63:
            raise NotationError(f"{head} {rest!r}: too many crystals")
        return encode_pair_of(_CRYSTAL_MOVES[head], spirit, energy)
    elif head == "deal":
        return encode_pair_of(M_DEAL, *tile_pair(tileset, rest, "deal"))
    elif head == "layout":
        if rest not in tileset.layouts:
            raise NotationError(f"layout {rest!r} is not in tileset {tileset.name}; expected "
                                f"one of {', '.join(tileset.layouts)}")
        return M_LAYOUT << KIND_SHIFT | list(tileset.layouts).index(rest)
    elif head == "crystal" and rest[:-1] in INDEX and rest[-1:] in ("s", "e"):
        return M_CRYSTAL << KIND_SHIFT | INDEX[rest[:-1]] << 1 | "se".index(rest[-1])
    elif head == "toss" and rest in ("B", "W"):
        return M_TOSS << KIND_SHIFT | TRIBE_LETTERS.index(rest)
    raise NotationError(f"malformed move {text!r}: expected {MOVE_HELP}")
