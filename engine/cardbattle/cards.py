"""Component data: the card set and the decks (rules page §1, §2, §8).

The real card list is not public, so the rules code never hard-codes a card: every card comes
from a card set file (TOML, or JSON by extension) and every deck from a deck file, checked on
load so that a bad file fails naming the file, the card and the field, not with a wrong game
later. The default card set and the sample decks ship in this package.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path

from ..datafile import FieldChecker, read_data
from ..game import GameError
from ..zobrist import digest64

HERE = Path(__file__).parent
DEFAULT_CARDSET = HERE / "cardsets" / "default.toml"
DECK_FOLDER = HERE / "decks"
KINDS = ("creature", "equipment", "location")
MAX_NUMBER = 4095              # card numbers fit the move encoding (moves.py)
ATTRIBUTES = (2, 8)            # how many attributes a card set names (§1)
MAX_VALUE = 99
NAME = re.compile(r"^[^\s:,.|=?]+$")     # an attribute: one word, no notation punctuation
INLINE_DECK = re.compile(r"^\d+(\.\d+)*$")  # a deck written out: card numbers joined by '.'


class CardDataError(GameError):
    """A card set or deck file is missing, unreadable or breaks the format."""


@dataclass(frozen=True)
class Card:
    number: int
    name: str
    kind: str                      # creature, equipment or location
    families: tuple[str, ...]      # empty for a neutral boost card
    mythic: bool                   # creatures only; no effect on play (§4.6)
    neutral: bool                  # boost cards usable with any creature (§4.4)
    values: tuple[int, ...]        # per attribute: a creature's value or a boost's bonus

    @property
    def is_creature(self) -> bool:
        return self.kind == "creature"


@dataclass(frozen=True)
class CardSet:
    name: str
    note: str
    reconstruction: bool
    source: str
    attributes: tuple[str, ...]
    cards: dict                    # number -> Card, in number order
    # An English word per attribute for text output (the rule names stay Portuguese, as the
    # cards print them); optional in the file, "" where none is given.
    glosses: tuple[str, ...] = ()

    def attribute_label(self, index: int) -> str:
        """An attribute's rule name with its English gloss, if any: ``forca (strength)``."""
        name = self.attributes[index]
        gloss = self.glosses[index] if index < len(self.glosses) else ""
        return f"{name} ({gloss})" if gloss and gloss != name else name

    @cached_property
    def digest(self) -> int:
        """Everything the rules read (not names or notes): cache identity includes it."""
        return digest64("cardset", self.attributes, tuple(
            (c.number, c.kind, c.families, c.neutral, c.values) for c in self.cards.values()))

    def label(self) -> str:
        kind = ("a reconstruction of the real cards" if self.reconstruction else
                "invented by the crystalpick project, not the real cards")
        return f"{self.name} ({kind})"

    def card(self, number: int) -> Card:
        return self.cards[number]


@dataclass(frozen=True)
class Deck:
    name: str
    style: str
    source: str
    cards: tuple[int, ...]         # card numbers, each once


# -- reading and checking --------------------------------------------------------------------

class Checker(FieldChecker):
    """The card game's field kinds on top of the common ones; string fields must not be
    blank."""
    error = CardDataError
    blank_strings = False

    def flag(self, data: dict, field: str, where: str) -> bool:
        value = data.get(field, False)
        if not isinstance(value, bool):
            self.fail(where, f"field {field!r} must be true or false, got {value!r}")
        return value

    def words(self, data: dict, field: str, where: str, low: int, high: int) -> tuple[str, ...]:
        value = data.get(field, [])
        if (not isinstance(value, list) or not low <= len(value) <= high
                or not all(isinstance(v, str) and NAME.match(v) for v in value)):
            self.fail(where, f"field {field!r} must be a list of {low}-{high} names (one word "
                             f"each), got {value!r}")
        if len(set(value)) != len(value):
            self.fail(where, f"field {field!r} names something twice")
        return tuple(value)


CREATURE_FIELDS = {"number", "name", "kind", "families", "mythic", "values"}
BOOST_FIELDS = {"number", "name", "kind", "families", "neutral", "bonus"}


def parse_card(check: Checker, data, position: int, attributes: tuple[str, ...]) -> Card:
    where = f"card[{position}]"
    if not isinstance(data, dict):
        check.fail(where, f"expected a table, got {type(data).__name__}")
    number = check.integer(data, "number", where, 1, MAX_NUMBER)
    where = f"card {number}"
    kind = check.string(data, "kind", where, choices=KINDS)
    creature = kind == "creature"
    check.table(data, where, CREATURE_FIELDS if creature else BOOST_FIELDS)
    name = check.string(data, "name", where)
    families = check.words(data, "families", where, 0, 8)
    neutral = check.flag(data, "neutral", where)
    if not families and not neutral:
        check.fail(where, "field 'families' is missing (a card without a family must be "
                          "neutral = true)")
    if creature and not families:
        check.fail(where, "field 'families': a creature has at least one family")
    field = "values" if creature else "bonus"
    given = data.get(field, {} if not creature else None)
    if given is None:
        check.fail(where, f"field {field!r} is missing")
    given = check.table(given, f"{where} field {field!r}", set(attributes))
    if creature:
        missing = [a for a in attributes if a not in given]
        if missing:
            check.fail(where, f"field 'values' misses attribute {missing[0]!r} (a creature has "
                              f"a value for every attribute)")
    values = tuple(check.integer(given, a, f"{where} field {field!r}", 0, MAX_VALUE)
                   if a in given else 0 for a in attributes)
    return Card(number, name, kind, families, check.flag(data, "mythic", where), neutral, values)


def parse_cardset(data, source: str) -> CardSet:
    check = Checker(f"card set {source}")
    data = check.table(data, "top level", {"name", "note", "reconstruction", "attributes",
                                           "glosses", "card"})
    name = check.string(data, "name", "top level")
    attributes = check.words(data, "attributes", "top level", *ATTRIBUTES)
    glosses = check.table(data.get("glosses", {}), "top level field 'glosses'", set(attributes))
    glosses = tuple(check.string(glosses, a, "top level field 'glosses'", default="")
                    for a in attributes)
    listed = data.get("card")
    if not isinstance(listed, list) or not listed:
        check.fail("card", "expected a list of cards ([[card]] tables)")
    cards: dict[int, Card] = {}
    for position, entry in enumerate(listed):
        card = parse_card(check, entry, position, attributes)
        if card.number in cards:
            check.fail(f"card {card.number}", "field 'number' is used by more than one card")
        cards[card.number] = card
    return CardSet(name, check.string(data, "note", "top level", default=""),
                   check.flag(data, "reconstruction", "top level"), source, attributes,
                   dict(sorted(cards.items())), glosses)


def parse_deck(data, source: str, cardset: CardSet, minimum: int) -> Deck:
    """A deck (§2): at least ``minimum`` cards, each number once, a creature among them,
    every number in the card set."""
    check = Checker(f"deck {source}")
    data = check.table(data, "top level", {"name", "style", "cards"})
    numbers = data.get("cards")
    if not isinstance(numbers, list) or not all(
            isinstance(n, int) and not isinstance(n, bool) for n in numbers):
        check.fail("field 'cards'", "expected a list of card numbers")
    for number in numbers:
        if number not in cardset.cards:
            check.fail(f"card {number}", f"field 'cards': card {number} is not in the card set "
                                         f"{cardset.source}")
        if numbers.count(number) > 1:
            check.fail(f"card {number}", "field 'cards': a deck holds at most one copy of "
                                         "each card number")
    if len(numbers) < minimum:
        check.fail("field 'cards'", f"{len(numbers)} cards; a deck holds at least {minimum}")
    if not any(cardset.cards[n].is_creature for n in numbers):
        check.fail("field 'cards'", "a deck holds at least one creature")
    return Deck(check.string(data, "name", "top level", default=Path(source).stem),
                check.string(data, "style", "top level", default=""), source, tuple(numbers))


@lru_cache(maxsize=8)
def load_cardset(path: str | None = None) -> CardSet:
    """The card set at ``path``; the default (invented) one if None."""
    file = DEFAULT_CARDSET if path is None else Path(path)
    return parse_cardset(read_data(file, "card set", CardDataError), file.name)


def sample_decks() -> tuple[str, ...]:
    return tuple(sorted(p.stem for p in DECK_FOLDER.glob("*.toml")))


def inline_deck(cards) -> str:
    """A deck written out as its card numbers joined by '.' in increasing order (the piles'
    spelling in the position notation): a deck option value that needs no file, so a
    deck built by a program (the deck advisor's swaps) travels to any worker as text."""
    return ".".join(map(str, sorted(cards)))


def load_deck(name_or_path: str, cardset: CardSet, minimum: int) -> Deck:
    """A sample deck by name, a deck written out (:func:`inline_deck`), or a deck file by
    path."""
    if INLINE_DECK.match(name_or_path):
        numbers = [int(n) for n in name_or_path.split(".")]
        return parse_deck({"name": name_or_path, "cards": numbers}, name_or_path, cardset,
                          minimum)
    file = DECK_FOLDER / f"{name_or_path}.toml"
    if name_or_path not in sample_decks():
        file = Path(name_or_path)
    return parse_deck(read_data(file, "deck", CardDataError), file.name, cardset, minimum)
