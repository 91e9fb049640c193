"""The one-line position notation (the referee's view, round-trips exactly) and the
observer's view (what one player knows, unknown cards written as unknown).

    cardbattle phase=choose actor=P2 caller=P1 attr=forca round=3 ply=58 tiebreak=0
      result=- | P1 won=2 tokens=0 hand=3.17 deck=1.2.4 discard=9 table=12 chosen=12
      tie=- value=0 left=0 flags=ck | P2 won=1 ...

(one line; wrapped here). Piles are card numbers joined by '.', '-' when empty; a deck is
written as a set because its order is never decided before a draw (docs/cardbattle.md).
Seat flags: c contending, b boosted, p passed, o out (stake), k kept, m took the mulligan.
In the observer's view (``view=P1`` after the game name) another player's hand and deck are
``?N`` (N unknown cards) with ``unseen=`` the cards that are in one or the other or chosen
in secret (open deck lists, §2), and a creature chosen but not yet revealed is ``?`` (§5).
A view has no ``ply=`` and shows no other player's ``p`` flag: whether they passed or had no
playable boost is hidden (§5), and a pass is a ply where having no boost card is none; for the
same reason a finished game's view has ``actor=-`` (the last actor: the passer, or the other).
"""
from __future__ import annotations

from dataclasses import replace

from ..game import NotationError
from .cards import MAX_NUMBER, MAX_VALUE, CardSet
from .position import (CHOOSE, DRAW_RESULT, KEPT, NO_CARD, OVER, PENDING, PHASE_NAMES,
                       TAKEN, UNDECIDED, Position, Seat)

GAME_WORD = "cardbattle"
PLAYERS = ("P1", "P2")
HEAD_KEYS = ("phase", "actor", "caller", "attr", "round", "ply", "tiebreak", "result")
VIEW_HEAD_KEYS = tuple(key for key in HEAD_KEYS if key != "ply")     # §5: passes are hidden
SEAT_KEYS = ("won", "tokens", "hand", "deck", "discard", "table", "chosen", "tie", "value",
             "left", "flags")
FLAG_LETTERS = "cbpokm"
# The largest value of each number field, so a number the kernels' C int cannot hold never
# gets that far: a game has no ply limit (§4 ends it by crystals), so counters are bounded
# by that int only; a player owns distinct card numbers (MAX_NUMBER at most), so a value
# sums at most that many cards and a refill draws at most that many.
INT_LIMIT = 2**31 - 1
NUMBER_LIMITS = {"round": INT_LIMIT, "ply": INT_LIMIT, "won": INT_LIMIT, "tokens": INT_LIMIT,
                 "value": MAX_NUMBER * MAX_VALUE, "left": MAX_NUMBER}


def pile(numbers) -> str:
    return ".".join(str(n) for n in sorted(numbers)) or "-"


def card_text(number: int) -> str:
    return str(number) if number != NO_CARD else "-"


def flags(seat: Seat) -> str:
    letters = [c for c, on in (("c", seat.contending), ("b", seat.boosted), ("p", seat.passed),
                               ("o", seat.out), ("k", seat.mulligan == KEPT),
                               ("m", seat.mulligan == TAKEN)) if on]
    return "".join(letters) or "-"


def head(pos: Position, attributes: tuple[str, ...]) -> dict[str, str]:
    result = {UNDECIDED: "-", DRAW_RESULT: "draw"}.get(pos.result)
    return {"phase": PHASE_NAMES[pos.phase], "actor": PLAYERS[pos.actor],
            "caller": PLAYERS[pos.caller],
            "attr": attributes[pos.attribute] if pos.attribute >= 0 else "-",
            "round": str(pos.round), "ply": str(pos.ply), "tiebreak": str(int(pos.tiebreak)),
            "result": result if result is not None else PLAYERS[pos.result]}


def seat_fields(seat: Seat) -> dict[str, str]:
    return {"won": str(seat.won), "tokens": str(seat.tokens), "hand": pile(seat.hand),
            "deck": pile(seat.deck), "discard": pile(seat.discard), "table": pile(seat.table),
            "chosen": card_text(seat.chosen), "tie": card_text(seat.tie_card),
            "value": str(seat.value), "left": str(seat.refill_left), "flags": flags(seat)}


def join(words: dict[str, str]) -> str:
    return " ".join(f"{k}={v}" for k, v in words.items())


def format_position(pos: Position, attributes: tuple[str, ...]) -> str:
    parts = [f"{GAME_WORD} {join(head(pos, attributes))}"]
    parts += [f"{PLAYERS[p]} {join(seat_fields(seat))}" for p, seat in enumerate(pos.seats)]
    return " | ".join(parts)


def hidden_pile(numbers: list[int], secret: bool) -> str:
    """A table seen by another player: its known cards, and ``?`` for a secret choice."""
    if not secret:
        return pile(numbers)
    return f"{pile(numbers)}+?" if numbers else "?"


def hidden_choice(pos: Position) -> bool:
    """§4.2-4.3: the chosen creatures stay secret until every player has chosen."""
    return pos.phase == CHOOSE


def observed_seat(pos: Position, seat: Seat, own: bool) -> dict[str, str]:
    """A seat as a player sees it: all of their own; of another, the public part."""
    words = seat_fields(seat)
    if own:
        return words
    secret = hidden_choice(pos) and seat.chosen != NO_CARD
    table = [n for n in seat.table if not (secret and n == seat.chosen)]
    words.update(hand=f"?{len(seat.hand)}", deck=f"?{len(seat.deck)}",
                 flags=flags(replace(seat, passed=False)),
                 table=hidden_pile(table, secret),
                 chosen="?" if secret else words["chosen"])
    return {**{k: words[k] for k in ("won", "tokens", "hand", "deck")},
            "unseen": pile(seat.hand + seat.deck + ([seat.chosen] if secret else [])),
            **{k: words[k] for k in SEAT_KEYS[4:]}}


def view_head(pos: Position, attributes: tuple[str, ...]) -> dict[str, str]:
    """The head as every player sees it: no ply count (§5: another player's pass is hidden,
    and a pass is a ply where having no usable boost card is none), and no actor once the
    game is over (it would name whoever moved last: the passing player, or the drawer)."""
    words = {key: value for key, value in head(pos, attributes).items() if key in VIEW_HEAD_KEYS}
    if pos.phase == OVER:
        words["actor"] = "-"
    return words


def format_observation(pos: Position, attributes: tuple[str, ...], player: int) -> str:
    parts = [f"{GAME_WORD} view={PLAYERS[player]} {join(view_head(pos, attributes))}"]
    parts += [f"{PLAYERS[p]} {join(observed_seat(pos, seat, p == player))}"
              for p, seat in enumerate(pos.seats)]
    return " | ".join(parts)


# -- parsing ---------------------------------------------------------------------------------

def fields(text: str, keys: tuple[str, ...], where: str) -> dict[str, str]:
    words = text.split()
    if len(words) != len(keys):
        raise NotationError(f"{where}: expected {len(keys)} fields "
                            f"({' '.join(k + '=...' for k in keys)}), got {len(words)}")
    out = {}
    for key, word in zip(keys, words):
        name, sep, value = word.partition("=")
        if name != key or not sep or not value:
            raise NotationError(f"{where}: expected {key}=..., got {word!r}")
        out[key] = value
    return out


def number(value: str, where: str, key: str) -> int:
    high = NUMBER_LIMITS[key]
    if not (value.isascii() and value.isdigit()) or int(value) > high:
        raise NotationError(f"{where}: {key}={value!r} is not a whole number in 0..{high}")
    return int(value)


def player(value: str, where: str, key: str) -> int:
    if value not in PLAYERS:
        raise NotationError(f"{where}: {key}={value!r}; expected {' or '.join(PLAYERS)}")
    return PLAYERS.index(value)


def card(value: str, where: str, key: str, cards: CardSet) -> int:
    if value == "-":
        return NO_CARD
    if not value.isdigit() or int(value) not in cards.cards:
        raise NotationError(f"{where}: {key}={value!r} is not a card of {cards.source}")
    return int(value)


def parse_pile(value: str, where: str, key: str, cards: CardSet) -> list[int]:
    if value == "-":
        return []
    numbers = [card(part, where, key, cards) for part in value.split(".")]
    if len(set(numbers)) != len(numbers) or numbers != sorted(numbers):
        raise NotationError(f"{where}: {key}={value!r} must list different cards in "
                            f"increasing order")
    return numbers


def parse_seat(text: str, index: int, cards: CardSet) -> Seat:
    where = f"seat {PLAYERS[index]}"
    name, _, rest = text.strip().partition(" ")
    if name != PLAYERS[index]:
        raise NotationError(f"{where}: expected it to start with {PLAYERS[index]}, got {name!r}")
    f = fields(rest, SEAT_KEYS, where)
    letters = "" if f["flags"] == "-" else f["flags"]
    if any(c not in FLAG_LETTERS for c in letters) or len(set(letters)) != len(letters) \
            or ("k" in letters and "m" in letters):
        raise NotationError(f"{where}: flags={f['flags']!r}; expected letters from "
                            f"{FLAG_LETTERS} (k and m exclusive) or -")
    seat = Seat(hand=parse_pile(f["hand"], where, "hand", cards),
                deck=parse_pile(f["deck"], where, "deck", cards),
                discard=parse_pile(f["discard"], where, "discard", cards),
                table=parse_pile(f["table"], where, "table", cards),
                chosen=card(f["chosen"], where, "chosen", cards),
                tie_card=card(f["tie"], where, "tie", cards),
                value=number(f["value"], where, "value"),
                contending="c" in letters, boosted="b" in letters, passed="p" in letters,
                out="o" in letters,
                mulligan=KEPT if "k" in letters else TAKEN if "m" in letters else PENDING,
                won=number(f["won"], where, "won"), tokens=number(f["tokens"], where, "tokens"),
                refill_left=number(f["left"], where, "left"))
    owned = seat.hand + seat.deck + seat.discard + seat.table
    if len(set(owned)) != len(owned):
        raise NotationError(f"{where}: a card is in two piles")
    if not owned:
        raise NotationError(f"{where}: the player owns no card")
    for key, value in (("chosen", seat.chosen), ("tie", seat.tie_card)):
        if value != NO_CARD and value not in seat.table:
            raise NotationError(f"{where}: {key}={value} is not on the table")
    return seat


def parse_position(text: str, cards: CardSet) -> Position:
    parts = text.strip().split("|")
    if len(parts) != 1 + len(PLAYERS):
        raise NotationError(f"position: expected a head and {len(PLAYERS)} seats separated by "
                            f"'|', got {len(parts)} parts")
    word, _, rest = parts[0].strip().partition(" ")
    if word != GAME_WORD:
        raise NotationError(f"position: expected it to start with {GAME_WORD!r}, got {word!r}")
    f = fields(rest, HEAD_KEYS, "position head")
    if f["phase"] not in PHASE_NAMES:
        raise NotationError(f"position head: phase={f['phase']!r}; expected one of "
                            f"{', '.join(PHASE_NAMES)}")
    attr = f["attr"]
    if attr != "-" and attr not in cards.attributes:
        raise NotationError(f"position head: attr={attr!r}; expected - or one of "
                            f"{', '.join(cards.attributes)}")
    result = {"-": UNDECIDED, "draw": DRAW_RESULT}.get(f["result"])
    if result is None:
        result = player(f["result"], "position head", "result")
    if f["tiebreak"] not in ("0", "1"):
        raise NotationError(f"position head: tiebreak={f['tiebreak']!r}; expected 0 or 1")
    return Position(seats=[parse_seat(part, i, cards) for i, part in enumerate(parts[1:])],
                    phase=PHASE_NAMES.index(f["phase"]),
                    actor=player(f["actor"], "position head", "actor"),
                    caller=player(f["caller"], "position head", "caller"),
                    attribute=cards.attributes.index(attr) if attr != "-" else -1,
                    tiebreak=f["tiebreak"] == "1",
                    round=number(f["round"], "position head", "round"),
                    ply=number(f["ply"], "position head", "ply"), result=result)


# -- an observer's view as a position (analysis of what one player knows) -------------------

VIEW_SEAT_KEYS = ("won", "tokens", "hand", "deck", "unseen") + SEAT_KEYS[4:]


def unknown_count(value: str, where: str, key: str) -> int:
    if not value.startswith("?") or not value[1:].isdigit():
        raise NotationError(f"{where}: {key}={value!r}; expected ?N (N unknown cards)")
    return int(value[1:])


def filled_seat(text: str, index: int, cards: CardSet) -> str:
    """Another seat of a view as referee notation: the unseen cards placed in a fixed way
    (creatures first into the hand, a secret choice the first unseen creature). Only the
    viewer's analysis is meaningful on it, and that never reads the placement."""
    where = f"seat {PLAYERS[index]}"
    name, _, rest = text.strip().partition(" ")
    f = fields(rest, VIEW_SEAT_KEYS, where)
    hand, deck = unknown_count(f["hand"], where, "hand"), unknown_count(f["deck"], where, "deck")
    unseen = parse_pile(f["unseen"], where, "unseen", cards)
    table_text = f["table"]
    secret = table_text == "?" or table_text.endswith("+?")
    if secret != (f["chosen"] == "?"):
        raise NotationError(f"{where}: table={table_text!r} and chosen={f['chosen']!r} must "
                            f"both show a secret choice (?) or neither")
    table = parse_pile(table_text[:-2] if table_text.endswith("+?") else
                       "-" if secret else table_text, where, "table", cards)
    creatures = [n for n in unseen if cards.card(n).is_creature]
    chosen = f["chosen"]
    if secret:
        if not creatures:
            raise NotationError(f"{where}: a secret choice but no unseen creature")
        chosen = str(creatures[0])
        table = sorted(table + [creatures[0]])
        unseen.remove(creatures[0])
    if len(unseen) != hand + deck:
        raise NotationError(f"{where}: unseen={f['unseen']!r} holds {len(unseen)} cards; the "
                            f"hand ({hand}) and deck ({deck}) need {hand + deck}")
    ordered = [n for n in unseen if cards.card(n).is_creature] + \
        [n for n in unseen if not cards.card(n).is_creature]
    words = {"won": f["won"], "tokens": f["tokens"], "hand": pile(ordered[:hand]),
             "deck": pile(ordered[hand:]), "discard": f["discard"], "table": pile(table),
             "chosen": chosen, **{k: f[k] for k in SEAT_KEYS[7:]}}
    return f"{name} {join(words)}"


def parse_view(text: str, cards: CardSet) -> tuple[Position, int]:
    """``cardbattle view=P2 ...`` as printed by ``observation_string``: a position whose
    unseen cards are placed in a fixed way, and the viewer."""
    parts = text.strip().split("|")
    word, _, rest = parts[0].strip().partition(" ")
    view, _, rest = rest.partition(" ")
    viewer = player(view.partition("=")[2], "position head", "view")
    if len(parts) != 1 + len(PLAYERS):
        raise NotationError(f"view: expected a head and {len(PLAYERS)} seats separated by "
                            f"'|', got {len(parts)} parts")
    seats = [part if i == viewer else filled_seat(part, i, cards)
             for i, part in enumerate(parts[1:])]
    words = fields(rest, VIEW_HEAD_KEYS, "view head")
    words = {key: words.get(key, "0") for key in HEAD_KEYS}    # the ply is unknown: 0
    if words["actor"] == "-":                                   # a finished game's: P1
        words["actor"] = PLAYERS[0]
    return parse_position(" | ".join([f"{word} {join(words)}"] + seats), cards), viewer


def is_view(text: str) -> bool:
    words = text.split()
    return len(words) > 1 and words[1].startswith("view=")
