"""A card set as a list people can read and filter (``crystalpick cards``), so a player can
build a deck without reading the card set's TOML."""
from __future__ import annotations

from ..game import GameError
from .cards import KINDS, Card, CardSet
from .people import folded
from .render import hand_table

SORT_KEYS = ("number", "name")          # and every attribute of the card set


def families(cardset: CardSet) -> list[str]:
    return sorted({f for card in cardset.cards.values() for f in card.families}, key=folded)


def choose(given: str, choices: list[str], option: str) -> str:
    """The choice ``given`` names (case and accents aside); one line naming the choices if
    none."""
    for choice in choices:
        if folded(choice) == folded(given):
            return choice
    raise GameError(f"{option} {given!r}: expected one of {', '.join(choices)}")


def sort_key(cardset: CardSet, sort: str | None) -> str:
    """What ``--sort`` names: number, name, or an attribute by its name or English gloss."""
    if sort is None:
        return "number"
    glossed = {folded(g): a for a, g in zip(cardset.attributes, cardset.glosses) if g}
    return glossed.get(folded(sort)) or choose(sort, [*SORT_KEYS, *cardset.attributes],
                                               "--sort")


def select_cards(cardset: CardSet, family: str | None = None, kind: str | None = None,
                 sort: str | None = None) -> list[Card]:
    """The cards of ``family`` (neutral cards go with every family, §4.4) and ``kind``, in
    number order, or by ``sort``: a name, or an attribute, highest first."""
    family = None if family is None else choose(family, families(cardset), "--family")
    kind = None if kind is None else choose(kind, list(KINDS), "--kind")
    sort = sort_key(cardset, sort)
    chosen = [c for c in cardset.cards.values()
              if (kind is None or c.kind == kind)
              and (family is None or family in c.families or c.neutral)]
    if sort == "name":
        return sorted(chosen, key=lambda c: (folded(c.name), c.number))
    if sort in cardset.attributes:
        a = cardset.attributes.index(sort)
        return sorted(chosen, key=lambda c: (-c.values[a], c.number))
    return chosen


def card_document(card: Card, cardset: CardSet) -> dict:
    """A card as JSON: a creature's ``values`` or a boost card's ``bonus`` by attribute."""
    field = "values" if card.is_creature else "bonus"
    return {"number": card.number, "name": card.name, "kind": card.kind,
            "families": list(card.families), "mythic": card.mythic, "neutral": card.neutral,
            field: dict(zip(cardset.attributes, card.values))}


def listing_document(cardset: CardSet, chosen: list[Card]) -> dict:
    return {"cardset": {"name": cardset.name, "file": cardset.source,
                        "label": cardset.label()},
            "attributes": [{"name": a, "gloss": g or None}
                           for a, g in zip(cardset.attributes, cardset.glosses or
                                           ("",) * len(cardset.attributes))],
            "count": len(chosen), "cards": [card_document(c, cardset) for c in chosen]}


def listing_text(cardset: CardSet, chosen: list[Card], sort: str | None = None) -> str:
    """A header (the card set, the attributes with their glosses), a table of the cards
    (the sort attribute marked) and the count."""
    sort = sort_key(cardset, sort)
    called = cardset.attributes.index(sort) if sort in cardset.attributes else -1
    lines = [f"card set: {cardset.label()}",
             "attributes: " + ", ".join(cardset.attribute_label(a)
                                        for a in range(len(cardset.attributes))),
             "families: " + ", ".join(families(cardset))]
    lines += hand_table([c.number for c in chosen], cardset, called, places=False)
    lines.append(f"{len(chosen)} card{'' if len(chosen) == 1 else 's'}")
    return "\n".join(lines)
