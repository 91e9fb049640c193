"""Maatatahay's 64-bit position key, shared by both implementations (the kernel mirrors it).

The state has many small counters, so instead of key tables each fact ``(kind, a, b)`` is
hashed with the splitmix64 finaliser and the results are XORed: a key needs no storage and
the C version in ``_fast.pyx`` computes bit-for-bit the same value. Every key also includes
:func:`start_key`: the play options and the tileset, fixed for a game.
"""
from __future__ import annotations

from ..zobrist import rules_key
from .board import CELLS
from .position import EMPTY, Position
from .tileset import Tileset

MASK64 = (1 << 64) - 1


def mix(kind: int, a: int, b: int) -> int:
    z = ((kind << 40 | a << 20 | b) + 0x9E3779B97F4A7C15) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def start_key(tileset: Tileset, options: dict) -> int:
    """The part of every key fixed for a game: its play options (``layout`` only picks the
    setup's temples, which the position itself holds) and its tileset's content."""
    return rules_key(options) ^ tileset.digest


def position_key(pos: Position) -> int:
    facts = []
    for c in range(CELLS):
        if pos.tile[c] != EMPTY:
            facts.append((1, c, pos.tile[c] * 8 + pos.rotation[c] * 2 + pos.alive[c]))
        for kind, counts in ((2, pos.warrior_spirit), (3, pos.warrior_energy),
                             (4, pos.cell_spirit), (5, pos.cell_energy)):
            if counts[c]:
                facts.append((kind, c, counts[c]))
    facts += [(6, c, 0) for c in pos.temples]
    for p in (0, 1):
        facts += [(7, p, pos.storage_spirit[p]), (8, p, pos.storage_energy[p])]
    facts += [(9, 0, pos.bag_spirit), (9, 1, pos.bag_energy), (10, 0, pos.supply_energy)]
    facts += [(11, k, owner) for k, owner in enumerate(pos.relics)]
    facts += [(12, t, 0) for t in pos.deck]
    facts += [(13, slot, b * 32 + w) for slot, (b, w) in enumerate(pos.pairs)]
    facts += [(14, 0, pos.active), (15, pos.phase, 0)]
    if pos.chosen is not None:
        facts.append((16, pos.chosen[0], pos.chosen[1]))
    facts += [(17, i, t) for i, t in enumerate(pos.queue)]
    if pos.placed != EMPTY:
        facts.append((18, pos.placed, 0))
    facts += [(19, c, 0) for c in pos.fighters]
    key = start_key(pos.tileset, pos.options)
    for fact in facts:
        key ^= mix(*fact)
    return key
