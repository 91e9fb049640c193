"""Move encoding and the move notation.

A move is ``kind << 12 | payload``: the payload is a card number (1-4095), an attribute index
or a player. The notation is short and readable:

    keep  mulligan          the mulligan decision (§3.2)
    call:forca              call an attribute (§4.1)
    play:17                 choose creature 17, in secret (§4.2)
    boost:170  pass         boost with card 170, or pass (§4.4)
    draw:17                 chance: card 17 is drawn (setup, refill, tie-break, §3, §4)
    toss:P2                 chance: the coin toss makes P2 the first caller (§3.3)
"""
from __future__ import annotations

import re

from ..game import NotationError

KIND_SHIFT = 12
PAYLOAD = (1 << KIND_SHIFT) - 1
M_KEEP, M_MULLIGAN, M_CALL, M_PLAY, M_BOOST, M_PASS, M_DRAW, M_TOSS = range(1, 9)
KEEP = M_KEEP << KIND_SHIFT
MULLIGAN = M_MULLIGAN << KIND_SHIFT
PASS = M_PASS << KIND_SHIFT
CARD_KINDS = {"play": M_PLAY, "boost": M_BOOST, "draw": M_DRAW}
PUT_DOWN = (M_PLAY, M_BOOST)        # moves that put a card of the mover's on the table
WORDS = {"keep": KEEP, "mulligan": MULLIGAN, "pass": PASS}
SYNTAX = re.compile(r"^[a-z]+$")
EXPECTED = ("keep, mulligan, call:ATTRIBUTE, play:N, boost:N, pass, draw:N or toss:PLAYER")


def encode(kind: int, payload: int = 0) -> int:
    return kind << KIND_SHIFT | payload


def kind_of(move: int) -> int:
    return move >> KIND_SHIFT


def payload_of(move: int) -> int:
    return move & PAYLOAD


def format_move(move: int, attributes: tuple[str, ...], players: tuple[str, ...]) -> str:
    kind, payload = kind_of(move), payload_of(move)
    for word, code in WORDS.items():
        if move == code:
            return word
    if kind == M_CALL:
        return f"call:{attributes[payload]}"
    if kind == M_TOSS:
        return f"toss:{players[payload]}"
    for word, code in CARD_KINDS.items():
        if kind == code:
            return f"{word}:{payload}"
    raise ValueError(f"not a card battle move: {move}")


def parse_move_syntax(text: str, attributes: tuple[str, ...], players: tuple[str, ...]) -> int:
    """The move ``text`` spells (legality is the state's business); NotationError if none."""
    word = text.strip()
    name, colon, argument = word.partition(":")
    name = name.lower()
    if not SYNTAX.match(name) or (colon and not argument) or any(c.isspace() for c in word):
        raise NotationError(f"move {word!r}: expected {EXPECTED}")
    argument = argument if colon else None
    if name in WORDS and argument is None:
        return WORDS[name]
    if name == "call" and argument is not None:
        if argument not in attributes:
            raise NotationError(f"move {word!r}: no attribute {argument!r}; the card set's "
                                f"attributes are {', '.join(attributes)}")
        return encode(M_CALL, attributes.index(argument))
    if name == "toss" and argument is not None:
        upper = argument.upper()
        if upper not in players:
            raise NotationError(f"move {word!r}: expected toss:{'|'.join(players)}")
        return encode(M_TOSS, players.index(upper))
    if name in CARD_KINDS and argument is not None:
        if not argument.isdigit() or not 1 <= int(argument) <= PAYLOAD:
            raise NotationError(f"move {word!r}: {argument!r} is not a card number 1-{PAYLOAD}")
        return encode(CARD_KINDS[name], int(argument))
    raise NotationError(f"move {word!r}: expected {EXPECTED}")
