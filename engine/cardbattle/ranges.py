"""The card battle's private states for ranges (engine/features.py ``Ranges``), read from §5:
what the others cannot see of a player is their hand, and the creature they chose while the
choice is still secret. Open deck lists make the possible ones few enough to list: any
hand-size of the player's unseen cards (their deck list less every card on the table or in
the discard pile), a hand that must hold a creature holding one (as sampling.py draws it)."""
from __future__ import annotations

from itertools import combinations
from math import comb

from .cards import CardSet
from .observation import observe
from .position import CHOOSE, NO_CARD, Position
from .notation import hidden_choice

# A key: the hand (increasing card numbers) and the creature chosen in secret (NO_CARD: none
# hidden now).
PrivateState = tuple[tuple[int, ...], int]


def private_key(pos: Position, player: int) -> PrivateState:
    seat = pos.seats[player]
    secret = seat.chosen if hidden_choice(pos) and seat.chosen != NO_CARD else NO_CARD
    return tuple(sorted(seat.hand)), secret


def _public(pos: Position, cards: CardSet, player: int):
    """What the others see of ``player``: the unseen cards, the hand's size, whether a secret
    choice is made and whether the hand must hold a creature."""
    seat = observe(pos, cards, (player + 1) % pos.players)["seats"][player]
    secret = seat["chosen"] == "hidden"
    must = (pos.phase == CHOOSE and seat["contending"] and not secret)
    return seat["unseen"], seat["hand_count"], secret, must


def private_keys(pos: Position, cards: CardSet, player: int) -> tuple[PrivateState, ...]:
    unseen, size, secret, must = _public(pos, cards, player)
    creature = cards.card
    keys = []
    for chosen in ([n for n in unseen if creature(n).is_creature] if secret else [NO_CARD]):
        rest = [n for n in unseen if n != chosen]
        keys += [(hand, chosen) for hand in combinations(rest, size)
                 if not must or any(creature(n).is_creature for n in hand)]
    return tuple(sorted(keys))


def private_count(pos: Position, cards: CardSet, player: int) -> int:
    unseen, size, secret, must = _public(pos, cards, player)
    creatures = sum(cards.card(n).is_creature for n in unseen)
    if secret:
        return creatures * comb(len(unseen) - 1, size)
    return comb(len(unseen), size) - (comb(len(unseen) - creatures, size) if must else 0)


def private_text(key: PrivateState, cards: CardSet) -> str:
    """The hand's card names in key order, and a creature chosen in secret after them."""
    hand, secret = key
    text = ", ".join(cards.card(n).name for n in hand)
    return text + (f" (chose {cards.card(secret).name})" if secret != NO_CARD else "")
