"""A full position drawn from one player's observation (§5), for information-set search:
the plain-Python reference of the kernel's ``determinize`` (``_fast.pyx``), drawing the same
cards from the same seed (splitmix64, engine/rng.pxd), so the two are compared exactly.

What a player does not see is another player's hand, which of their unseen cards are in the
hand and which in the deck (a set: no order is ever drawn in advance), and a creature chosen
in secret. The hand is any ``hand count`` of the unseen cards, uniformly, redrawn until it
holds a creature when that player still has to choose one (the seek step saw to that); a
secret choice the player waits on is taken back into the chooser's hand, as before it was
made, so that a searcher lets its own model of that player make it.
"""
from __future__ import annotations

from .cards import CardSet
from .position import CHOOSE, NO_CARD, Position

MASK = (1 << 64) - 1


class SplitMix:
    """engine/rng.pxd's generator in Python."""

    def __init__(self, seed: int):
        self.state = seed & MASK

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        return self.next() % n


def rewind_secret_choices(pos: Position, player: int) -> None:
    if pos.phase != CHOOSE:
        return
    taken = 0
    for p, seat in enumerate(pos.seats):
        if p != player and seat.chosen != NO_CARD:
            seat.hand = sorted(seat.hand + [seat.chosen])
            seat.table = [n for n in seat.table if n != seat.chosen]
            seat.chosen = NO_CARD
            taken += 1
    if taken:
        pos.ply -= taken
        pos.actor = next(p for p, seat in enumerate(pos.seats)
                         if seat.contending and seat.chosen == NO_CARD)


def sample_cards(pool: list[int], count: int, rng: SplitMix) -> list[int]:
    """``count`` cards of ``pool`` (in increasing order), by a partial Fisher-Yates shuffle."""
    cards = list(pool)
    for i in range(count):
        j = i + rng.below(len(cards) - i)
        cards[i], cards[j] = cards[j], cards[i]
    return sorted(cards[:count])


def determinize(pos: Position, cards: CardSet, player: int, seed: int) -> Position:
    """A full position consistent with ``player``'s observation of ``pos``, drawn from
    ``seed``."""
    pos = pos.copy()
    rng = SplitMix(seed)
    rewind_secret_choices(pos, player)
    for p, seat in enumerate(pos.seats):
        if p == player:
            continue
        pool = sorted(seat.hand + seat.deck)
        needs_creature = pos.phase == CHOOSE and seat.contending and seat.chosen == NO_CARD
        while True:
            hand = sample_cards(pool, len(seat.hand), rng)
            if not needs_creature or any(cards.card(n).is_creature for n in hand):
                break
        seat.hand = hand
        seat.deck = [n for n in pool if n not in hand]
    return pos
