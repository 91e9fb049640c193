"""The position key, the same facts in the same formula as the kernel's ``position_key``:
every fact of the position is mixed (splitmix64) into one 64-bit word and XORed in. The
state XORs in the card set's digest too, so another card set gives other keys."""
from __future__ import annotations

from .position import Position

MASK64 = (1 << 64) - 1
# fact kinds
HAND, DECK, DISCARD, TABLE, CHOSEN, TIE, VALUE, FLAGS, WON, TOKENS, LEFT = range(1, 12)
PHASE, CALLER, CLOCK, STATUS = range(12, 16)


def mix(kind: int, a: int, b: int) -> int:
    z = ((kind << 40 | a << 20 | b) + 0x9E3779B97F4A7C15) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def flag_bits(seat) -> int:
    return (seat.contending | seat.boosted << 1 | seat.passed << 2 | seat.out << 3
            | seat.mulligan << 4)


def position_key(pos: Position) -> int:
    key = 0
    for p, seat in enumerate(pos.seats):
        for kind, pile in ((HAND, seat.hand), (DECK, seat.deck), (DISCARD, seat.discard),
                           (TABLE, seat.table)):
            for number in pile:
                key ^= mix(kind, p, number)
        for kind, value in ((CHOSEN, seat.chosen), (TIE, seat.tie_card), (VALUE, seat.value),
                            (FLAGS, flag_bits(seat)), (WON, seat.won), (TOKENS, seat.tokens),
                            (LEFT, seat.refill_left)):
            key ^= mix(kind, p, value)
    key ^= mix(PHASE, pos.phase, pos.actor) ^ mix(CALLER, pos.caller, pos.attribute + 1)
    key ^= mix(CLOCK, pos.round, pos.ply) ^ mix(STATUS, int(pos.tiebreak), pos.result + 2)
    return key
