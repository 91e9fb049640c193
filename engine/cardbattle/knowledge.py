"""The other hand as a player's whole record tells it (§5, perfect recall): the hands the
other player may hold now, drawn so that no world contradicts anything the player has seen
since the state was made, where a draw from the observation alone (sampling.py) ignores
what earlier rounds showed.

What the record adds to the view: the other player's deck is a set, and their hand only
changes by draws into it (seen as a count), cards played from it (seen when revealed) and
the mulligan. So the hand is known exactly whenever a pile was empty (no deck: the unseen
cards are the hand, as just before a reshuffle; no hand: after a mulligan), and from the last
such moment (or the start of the record, where the hand is a draw from the unseen cards) the
hand now is what was known then, plus the cards drawn since, less the cards seen leaving it.
The record constrains those draws: every card revealed from the hand was drawn before it was
played; a seek for a creature (§4.2) showed a hand without one, and which of its draws was
the creature; a tie-break card (§4.6), drawn in the open, never went into the hand.

A world is an assignment of cards to the draws since that moment, made in two steps: the
revealed cards first, earliest play first, each to a draw before its play chosen uniformly
among those that fit (uniform over the assignments when no seek constrains them), then the
other draws filled from the unseen cards, a seek's draws by the kind it showed and a draw
still in hand at a later seek by a card that is no creature.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass

from .cards import CardSet
from .information import seen_move
from .moves import M_BOOST, M_DRAW, M_PLAY, kind_of, payload_of
from .position import CALL, CHOOSE, NO_CARD, SEEK, TIEBREAK, Position

ANY, CREATURE, OTHER = range(3)      # what a draw may have been, by what the record showed
TRIES = 32                           # draws of a world before the record is taken as unread


@dataclass(frozen=True)
class Draw:
    ply: int            # the ply that drew it; -1: in the hand at the start of the record
    kind: int           # ANY, or what a seek showed (CREATURE, OTHER)


def secret_choice(pos: Position, q: int) -> bool:
    return pos.phase == CHOOSE and pos.seats[q].chosen != NO_CARD


@dataclass
class OtherHand:
    """What ``player``'s record says about the other hand now: the hand known at the last
    moment it was known (``held``, less the cards seen leaving it since), the draws into it
    since, the cards revealed from it that those draws must have brought (card, ply played),
    the cores where a seek or a forfeit showed no creature in it, and the unseen cards now."""

    cards: CardSet
    held: frozenset
    draws: list
    revealed: list
    creatureless: list
    unseen: frozenset
    size: int           # the hand now, a secret choice still in it
    must_choose: bool   # the hand holds a creature (holds_creature)
    plies_seen: int     # the plies of the record the player saw made (§5: not a pass)

    def creature(self, card: int) -> bool:
        return self.cards.card(card).is_creature

    def fits(self, draw: Draw, card: int, until: int) -> bool:
        """Whether ``card`` can be the one ``draw`` brought if it stayed in the hand up to
        core ``until``: the kind a seek showed, and no creature in a hand a seek showed
        without one."""
        creature = self.creature(card)
        if draw.kind != ANY and (draw.kind == CREATURE) != creature:
            return False
        return not creature or not any(draw.ply < core <= until
                                       for core in self.creatureless)

    def world(self, rng: random.Random) -> tuple[frozenset, dict] | None:
        """One hand the record allows and the card each draw brought ({draw index: card}),
        or None where this attempt found none."""
        free = list(range(len(self.draws)))
        brought = {}
        for card, played in sorted(self.revealed, key=lambda item: item[1]):
            fitting = [i for i in free if self.draws[i].ply < played
                       and self.fits(self.draws[i], card, played)]
            if not fitting:
                return None
            pick = rng.choice(fitting)
            free.remove(pick)
            brought[pick] = card
        pool = sorted(self.unseen - self.held)
        rng.shuffle(pool)
        # the draws with fewest cards that fit first: a seek's, then those before a seek
        for i in sorted(free, key=lambda i: (self.draws[i].kind == ANY, not any(
                core > self.draws[i].ply for core in self.creatureless))):
            card = next((c for c in pool if self.fits(self.draws[i], c, math.inf)), None)
            if card is None:
                return None
            pool.remove(card)
            brought[i] = card
        hand = self.held | {brought[i] for i in free}
        if self.must_choose and not any(self.creature(card) for card in hand):
            return None
        return frozenset(hand), brought

    def hands(self, count: int, seed: int) -> list[frozenset]:
        """Up to ``count`` hands drawn from ``seed``, each from one world the record allows
        (the same hand as often as worlds give it); empty if none was found."""
        rng = random.Random(seed)
        found = []
        for _ in range(count):
            for _ in range(TRIES):
                world = self.world(rng)
                if world is not None:
                    found.append(world[0])
                    break
            else:
                return []
        return found


def forfeited(before: Position, after: Position, q: int) -> bool:
    """§4.2, no-creature=forfeit: ``q`` lost the round after the call for want of a
    creature (the hand after it holds none)."""
    return (before.phase == CALL and before.seats[q].contending
            and not after.seats[q].contending)


def holds_creature(pos: Position, q: int) -> bool:
    """Whether ``q`` is known to hold a creature (a secret choice counted): after the
    seeks of the round (§4.2: in seat order), had they held none, they would have drawn."""
    contending = pos.seats[q].contending
    return contending and (pos.phase == CHOOSE or (pos.phase == SEEK and q < pos.actor))


def other_hand(seen: list[Position], moves: list[int], cards: CardSet,
               player: int) -> OtherHand | None:
    """What ``player`` knows of the other hand after ``moves``, ``seen`` the position before
    each of them and the one after the last, read only from what they saw (counts, revealed
    cards, seeks, forfeits, the mulligan, empty piles); None where the record starts at a
    secret choice of the other player's (it cannot be told from the hand) or does not add
    up."""
    q = 1 - player
    origin, now = seen[0], seen[-1]
    start, held = 0, None
    for core, pos in enumerate(seen):
        seat = pos.seats[q]
        # an empty pile, or a reshuffle (the deck grew): the seen discard pile became the
        # deck, so the rest of the unseen cards is the hand
        reshuffled = core and len(seat.deck) > len(seen[core - 1].seats[q].deck)
        if not secret_choice(pos, q) and (not seat.deck or not seat.hand or reshuffled):
            start, held = core, frozenset(seat.hand)
    if held is None and secret_choice(origin, q):
        return None
    draws = [Draw(-1, ANY)] * (0 if held is not None else len(origin.seats[q].hand))
    held = held or frozenset()
    revealed, creatureless = [], []
    for ply in range(start, len(moves)):
        pos, move = seen[ply], moves[ply]
        if forfeited(pos, seen[ply + 1], q):
            creatureless.append(ply + 1)
        if pos.actor != q:
            continue
        kind = kind_of(move)
        if pos.phase == SEEK:
            creatureless.append(ply)
        if kind == M_DRAW and pos.phase != TIEBREAK:
            # a seek's draw was a creature when the seek stopped after it, which is seen
            shown = ANY if pos.phase != SEEK else (
                CREATURE if cards.card(payload_of(move)).is_creature else OTHER)
            draws.append(Draw(ply, shown))
        elif kind in (M_PLAY, M_BOOST):
            still_secret = (kind == M_PLAY and now.phase == CHOOSE
                            and now.round == pos.round)
            if not still_secret:
                revealed.append((payload_of(move), ply))
    if now.phase == SEEK and now.actor == q:
        creatureless.append(len(moves))         # seeking now: no creature in the hand
    left = {card for card, _ in revealed}
    seat = now.seats[q]
    unseen = frozenset(seat.hand + seat.deck + ([seat.chosen] if secret_choice(now, q) else []))
    size = len(seat.hand) + secret_choice(now, q)
    knowing = OtherHand(cards, held - left, draws, [(c, p) for c, p in revealed if c not in held],
                        creatureless, unseen, size, holds_creature(now, q),
                        sum(seen_move(pos, cards.attributes, move, player) is not None
                            for pos, move in zip(seen, moves)))
    if len(knowing.held) + len(draws) - len(knowing.revealed) != size:
        return None
    return knowing
