"""Moves as people read and type them: a card's name beside its number, an attribute with its
English gloss, and a card chosen by its place in the hand or the start of its name.

The notation (moves.py) stays the one canonical spelling that records and programs use; these
are the friendlier forms around it, for the terminal game and for text output.
"""
from __future__ import annotations

import unicodedata

from ..game import NotationError
from .cards import CardSet
from .moves import (CARD_KINDS, M_BOOST, M_CALL, M_PLAY, M_TOSS, encode, format_move, kind_of,
                    payload_of)
from .options import Options
from .position import BOOST, CALL, CHOOSE, DEAL, REDEAL, REFILL, SEEK, TIEBREAK, Position
from .rules import settles_tie, tie_value

CARD_MOVES = frozenset(CARD_KINDS.values())
PEOPLE_FORMS = "or a card of the hand by its place (1, 2, ...) or the start of its name"


def describe_move(move: int, cards: CardSet, players: tuple[str, ...]) -> str:
    """``play:25 Guerreiro de Bronze``, ``call:forca (strength)``: the notation first, so a
    reader can type it back."""
    text = format_move(move, cards.attributes, players)
    if kind_of(move) == M_CALL:
        return f"call:{cards.attribute_label(payload_of(move))}"
    if kind_of(move) in CARD_MOVES and payload_of(move) in cards.cards:
        return f"{text} {cards.card(payload_of(move)).name}"
    return text


def chance_text(pos: Position, cards: CardSet, options: Options, move: int, shown: str,
                players: tuple[str, ...], reshuffled: bool = False) -> str:
    """A chance outcome about to happen in ``pos``, ``shown`` as the reader may see it
    (``draw:?`` for another player's draw into hand), with whose draw it is and why, so a
    line between two screens tells what happened: ``P2 draw:? (refill to 5 cards)``;
    ``reshuffled``: the drawer's discard pile has just become their deck (§4.9)."""
    if kind_of(move) == M_TOSS:
        return f"{shown} (the coin toss: {players[payload_of(move)]} calls the first round)"
    if pos.phase == TIEBREAK:
        card = cards.card(payload_of(move))
        attribute = cards.attributes[pos.attribute]
        why = (f"tie-break card: {attribute} {tie_value(card, pos.attribute)}"
               if settles_tie(card, options) else
               "tie-break: not a creature, so discarded and drawn again")
    else:
        why = {DEAL: "the deal", REDEAL: "a new hand after the mulligan",
               SEEK: "no creature in hand: draws until one comes",
               REFILL: (f"refill to {options.hand} cards" if options.refill == "five"
                        else "refill: one card")}[pos.phase]
    if reshuffled:
        why += "; the deck was empty: the discard pile shuffled into it"
    return f"{players[pos.actor]} {shown} ({why})"


def folded(text: str) -> str:
    """``text`` without case or accents, so ``dragao`` finds ``Dragão``."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold().strip()


def move_for_people(text: str, pos: Position, cards: CardSet) -> int | None:
    """The move ``text`` names in the people's forms, for the player to act in ``pos``: a
    card of their hand by its place or an unambiguous start of its name (a creature to
    choose, a boost card to play), an attribute to call by the start of its name or gloss.
    None if ``text`` is not in these forms; NotationError if it is but names no one card.
    Legality is the caller's business (the move it returns may still be illegal)."""
    word = folded(text)
    if not word:
        return None
    kind = {CHOOSE: M_PLAY, BOOST: M_BOOST}.get(pos.phase)
    if pos.phase == CALL:
        found = sorted({a for a, name in enumerate(cards.attributes)
                        if folded(name).startswith(word)
                        or (a < len(cards.glosses) and cards.glosses[a]
                            and folded(cards.glosses[a]).startswith(word))})
        return encode(M_CALL, found[0]) if len(found) == 1 else ambiguous(
            text, [cards.attribute_label(a) for a in found])
    if kind is None:
        return None
    hand = pos.seats[pos.actor].hand
    if word.isdigit():
        place = int(word)
        if not 1 <= place <= len(hand):
            raise NotationError(f"move {text.strip()!r}: the hand holds {len(hand)} cards; "
                                f"give a place 1-{len(hand)}")
        return encode(kind, hand[place - 1])
    found = [n for n in hand if folded(cards.card(n).name).startswith(word)]
    return encode(kind, found[0]) if len(found) == 1 else ambiguous(
        text, [f"{n} {cards.card(n).name}" for n in found])


def ambiguous(text: str, names: list[str]) -> None:
    """None when nothing matched; a NotationError naming the candidates when several did."""
    if not names:
        return None
    raise NotationError(f"move {text.strip()!r} could be any of: {', '.join(names)}; type "
                        f"more of the name")
