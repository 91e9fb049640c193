"""A player's observation as data (§5: what that player knows) and the greedy policy that
reads only it.

Known to everyone: the deck lists (decklists=open), revealed, discarded and tabled cards,
crystals, pile sizes, the caller, the called attribute and the mulligan decisions. Known to a
player alone: their own hand. Hidden from everyone: the order of every deck (never decided
before a draw). A creature chosen in secret stays hidden until every player has chosen.
"""
from __future__ import annotations

from .cards import CardSet
from .moves import KEEP, M_BOOST, M_CALL, M_PLAY, MULLIGAN, PASS, kind_of, payload_of
from .notation import PLAYERS, hidden_choice
from .position import (DRAW_RESULT, KEPT, NO_CARD, OVER, PHASE_NAMES, TAKEN, UNDECIDED,
                       Position)

MULLIGAN_WORDS = {0: "pending", KEPT: "kept", TAKEN: "taken"}


def observe(pos: Position, cards: CardSet, player: int) -> dict:
    seats = []
    secret = hidden_choice(pos)
    for p, seat in enumerate(pos.seats):
        own = p == player
        hide = secret and not own and seat.chosen != NO_CARD
        seats.append({
            "player": PLAYERS[p], "won": seat.won, "tokens": seat.tokens, "out": seat.out,
            "mulligan": MULLIGAN_WORDS[seat.mulligan],
            "hand": list(seat.hand) if own else None, "hand_count": len(seat.hand),
            "deck": list(seat.deck) if own else None, "deck_count": len(seat.deck),
            "unseen": None if own else sorted(seat.hand + seat.deck
                                              + ([seat.chosen] if hide else [])),
            "discard": list(seat.discard),
            "table": [n for n in seat.table if not (hide and n == seat.chosen)],
            "chosen": "hidden" if hide else (seat.chosen or None),
            "tie_card": seat.tie_card or None, "value": seat.value,
            "contending": seat.contending, "boosted": seat.boosted,
            "passed": seat.passed if own else None,     # §5: a pass looks like no boost card
        })
    result = {UNDECIDED: None, DRAW_RESULT: "draw"}.get(pos.result, None)
    return {"player": PLAYERS[player], "phase": PHASE_NAMES[pos.phase],
            "actor": PLAYERS[pos.actor] if pos.phase != OVER else None, "caller": PLAYERS[pos.caller],
            "attribute": cards.attributes[pos.attribute] if pos.attribute >= 0 else None,
            "round": pos.round, "tiebreak": pos.tiebreak,
            "result": result if pos.result < 0 else PLAYERS[pos.result], "seats": seats}


def referee_view(pos: Position, cards: CardSet) -> dict:
    """The observation of the referee, who sees every hand: each seat as its own player
    observes it (the diagram of a position with no observer, as its screen shows it)."""
    seen = observe(pos, cards, 0)
    seen["seats"] = [observe(pos, cards, p)["seats"][p] for p in range(pos.players)]
    seen["player"] = "referee"
    return seen


# -- greedy: the best immediate choice against the cards the others may hold ---------------

def win_chance(value: int, against: list[int]) -> float:
    """The chance that ``value`` beats one of ``against`` drawn uniformly (a tie is half)."""
    if not against:
        return 1.0
    return sum(1.0 if value > v else 0.5 if value == v else 0.0 for v in against) / len(against)


def greedy_choice(obs: dict, cards: CardSet, legal: list[int]) -> int:
    me = next(s for s in obs["seats"] if s["player"] == obs["player"])
    others = [s for s in obs["seats"] if s["player"] != obs["player"]]
    possible = [cards.card(n) for s in others for n in s["unseen"]
                if cards.card(n).is_creature]
    kinds = {kind_of(m) for m in legal}
    if KEEP in legal:                            # keep a hand that holds a creature
        return KEEP if any(cards.card(n).is_creature for n in me["hand"]) else MULLIGAN
    if M_CALL in kinds:
        creatures = [cards.card(n) for n in me["hand"] if cards.card(n).is_creature]

        def call_score(move):
            a = payload_of(move)
            best = max((c.values[a] for c in creatures), default=0)
            return win_chance(best, [c.values[a] for c in possible])
        return max(legal, key=call_score)        # max keeps the first of equals
    attribute = cards.attributes.index(obs["attribute"])
    if M_PLAY in kinds:                          # the likeliest winner, the cheapest of equals
        def play_score(move):
            card = cards.card(payload_of(move))
            return (win_chance(card.values[attribute], [c.values[attribute] for c in possible]),
                    -sum(card.values))
        return max(legal, key=play_score)
    best_other = max(s["value"] for s in others if s["contending"])
    winning = [m for m in legal if kind_of(m) == M_BOOST
               and me["value"] + cards.card(payload_of(m)).values[attribute] > best_other]
    return min(winning, key=lambda m: cards.card(payload_of(m)).values[attribute]) \
        if winning else PASS



