"""Helpers for the Maatatahay tests: build position strings from a few explicit facts.

Only the facts a test is about are given; the decks take every tile not placed elsewhere and
the supply takes the Energy the other places leave, so each position is complete and valid.
"""
from __future__ import annotations

import re

from crystalpick.engine.maatatahay import Maatatahay
from crystalpick.engine.maatatahay.board import NAMES, SIDE
from crystalpick.engine.maatatahay.moves import parse_crystals
from crystalpick.engine.maatatahay.tileset import load_tileset

TILESET = load_tileset()
IMPLS = ("fast", "reference")
_TILE = re.compile(r"^([A-Z][A-Z0-9]*)[\^>v<x]")


def _energy(text: str) -> int:
    return parse_crystals(text, "test")[1] if text not in ("", "-", ".") else 0


def build(board: dict[str, str], *, temples: str = "a5,b5,c5,d5,e5", store: str = "-/-",
          bag: str = "3s3e", relics: str = "-", pairs: str = "-", pending: str = "pair",
          active: str = "B", options: str = "") -> str:
    """A position string: ``board`` maps cell names to cell tokens (e.g. ``{"b1": "B4^e"}``)."""
    used = set()
    energy = sum(_energy(part) for part in store.split("/")) + _energy(bag)
    rows = []
    for row in range(SIDE - 1, -1, -1):
        tokens = []
        for col in range(SIDE):
            token = board.get(NAMES[row * SIDE + col], ".")
            found = _TILE.match(token)
            if found:
                used.add(found.group(1))
                token_crystals = token[found.end():]
            else:
                token_crystals = token
            energy += _energy(token_crystals)
            tokens.append(token)
        rows.append(",".join(tokens))
    used |= set(re.findall(r"[BW]\d+", pairs + " " + pending))
    decks = []
    for tribe in ("B", "W"):
        left = [t.id for t in TILESET.tiles if t.id[0] == tribe and t.id not in used]
        decks.append(",".join(left) or "-")
    text = (f"{'/'.join(rows)} temples={temples} store={store} bag={bag} supply={45 - energy} "
            f"relics={relics} decks={'/'.join(decks)} pairs={pairs} active={active} "
            f"pending={pending} {options}")
    return text.strip()


def state(impl: str, text: str, rules: dict | None = None):
    return Maatatahay(rules, impl=impl).parse_position(text)


def play(st, *moves: str):
    for move in moves:
        st.play(st.parse_move(move))
    return st


def cell_info(st, name: str) -> dict:
    pos = st.to_position()
    cell = NAMES.index(name)
    return {"alive": pos.alive[cell], "spirit": pos.warrior_spirit[cell],
            "energy": pos.warrior_energy[cell], "tile": pos.tile[cell]}
