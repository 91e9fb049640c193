"""Card battle positions built seat by seat, for rule tests that need one exact situation."""
from __future__ import annotations

from crystalpick.engine.cardbattle import CardBattle
from crystalpick.engine.cardbattle.position import Position, Seat
from crystalpick.engine.cardbattle.steps import advance

CARDS = CardBattle().cardset


def first(predicate) -> int:
    """The lowest card number of the default set with ``predicate``."""
    return next(n for n, card in CARDS.cards.items() if predicate(card))


def creature_of(*families) -> int:
    return first(lambda c: c.is_creature and set(c.families) == set(families))


def boost_of(family, attribute: int) -> int:
    return first(lambda c: c.kind == "equipment" and c.families == (family,)
                 and c.values[attribute] > 0)


def creatures(count: int, skip=()) -> list[int]:
    numbers = [n for n, c in CARDS.cards.items() if c.is_creature and n not in skip]
    return numbers[:count]


def state(rules: dict | None, seats: list[Seat], impl: str = "reference", **head):
    """A state of ``seats`` with the head fields given (phase, actor, ...), after the rules'
    automatic steps from there (the reference's ``advance``)."""
    game = CardBattle(rules, impl=impl)
    pos = Position(seats=seats, **head)
    advance(pos, game.cardset, game.options)
    return game._state(pos)
