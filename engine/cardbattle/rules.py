"""The rules as small pure functions over a Position, the card set and the Options, each
citing the rules page (docs/rules/cardbattle.md, by section number). The reference implementation strings them together; the Cython kernel has
the same rules in C and is checked against these (tests/test_cardbattle_differential.py).
"""
from __future__ import annotations

from .cards import Card, CardSet
from .options import Options
from .moves import M_BOOST, M_PLAY, kind_of, payload_of
from .notation import PLAYERS
from .position import (BOOST, CHOOSE, CRYSTAL_TOKENS, DRAW_RESULT, NO_CARD, PHASE_NAMES,
                       Position, Seat)


def boost_bonus(card: Card, target: Card | None, attribute: int) -> int:
    """§4.4: what ``card`` adds to ``target`` (the creature or tie-break card in play; None
    or a non-creature only take neutral cards) in ``attribute``, or 0 if it cannot be played:
    an equipment or location with a bonus there, sharing a family with the creature, or
    neutral (Portal do Destino)."""
    if card.is_creature or card.values[attribute] <= 0:
        return 0
    if card.neutral:
        return card.values[attribute]
    if target is None or not target.is_creature:
        return 0
    return card.values[attribute] if set(card.families) & set(target.families) else 0


def in_play(seat: Seat) -> int:
    """The card a seat compares with now: its tie-break card in a tie-break, else its
    creature."""
    return seat.tie_card if seat.tie_card != NO_CARD else seat.chosen


def playable_boosts(pos: Position, cards: CardSet, player: int) -> list[int]:
    seat = pos.seats[player]
    current = in_play(seat)
    target = cards.card(current) if current != NO_CARD else None
    return [n for n in seat.hand
            if boost_bonus(cards.card(n), target, pos.attribute) > 0]


def refusal(pos: Position, cards: CardSet, move: int) -> str | None:
    """Why the actor may not choose (``play:N``) or boost with (``boost:N``) that card here,
    in words (§4.2, §4.4), or None when the card is not the reason (not such a decision)."""
    kind, number = kind_of(move), payload_of(move)
    if kind == M_BOOST and pos.phase != BOOST:
        return ("a boost comes after the reveal, from a player whose value is lower (§4.4); "
                f"this is {PLAYERS[pos.actor]}'s {PHASE_NAMES[pos.phase]}")
    if pos.phase != {M_PLAY: CHOOSE, M_BOOST: BOOST}.get(kind) or number not in cards.cards:
        return None
    seat = pos.seats[pos.actor]
    card = cards.card(number)
    named = f"#{number} {card.name}"
    if number not in seat.hand:
        return f"{named} is not in {PLAYERS[pos.actor]}'s hand"
    if kind == M_PLAY:
        return None if card.is_creature else f"{named} is a {card.kind}, not a creature (§4.2)"
    if card.is_creature:
        return f"{named} is a creature; a boost is an equipment or a location (§4.4)"
    attribute = cards.attributes[pos.attribute] if pos.attribute >= 0 else None
    if attribute is None or card.values[pos.attribute] <= 0:
        return f"{named} has no bonus in {attribute or 'the called attribute'} (§4.4)"
    target = cards.card(in_play(seat)) if in_play(seat) != NO_CARD else None
    if boost_bonus(card, target, pos.attribute) <= 0:
        kin = "/".join(target.families) if target and target.is_creature else "none"
        return (f"{named} ({'/'.join(card.families)}) shares no family with "
                f"{f'#{target.number} {target.name}' if target else 'the card in play'} "
                f"({kin}) and is not neutral (§4.4)")
    return None


def seat_order_from(start: int, players: int) -> list[int]:
    """Seat order beginning with ``start`` (§4.4 ties are broken from the caller)."""
    return [(start + i) % players for i in range(players)]


def contenders(pos: Position) -> list[int]:
    return [p for p, seat in enumerate(pos.seats) if seat.contending]


def top_players(pos: Position) -> list[int]:
    """§4.5: the contenders with the highest value (a tie exists only at the top)."""
    playing = contenders(pos)
    if not playing:
        return []
    best = max(pos.seats[p].value for p in playing)
    return [p for p in playing if pos.seats[p].value == best]


def next_booster(pos: Position, cards: CardSet, options: Options) -> int:
    """§4.4: the player who decides on a boost now, or -1. Only a contender lower than the
    highest value may boost, once per round, not after passing, and only with a playable
    card; ``boost-order`` picks among them (lowest value first, ties from the caller in seat
    order; or the first from the caller in seat order)."""
    playing = contenders(pos)
    if not playing:
        return -1
    best = max(pos.seats[p].value for p in playing)
    eligible = [p for p in seat_order_from(pos.caller, pos.players)
                if p in playing and pos.seats[p].value < best and not pos.seats[p].boosted
                and not pos.seats[p].passed and playable_boosts(pos, cards, p)]
    if not eligible:
        return -1
    if options.lowest_first:
        return min(eligible, key=lambda p: pos.seats[p].value)   # min keeps the first of ties
    return eligible[0]


def settles_tie(card: Card, options: Options) -> bool:
    """§4.6 tie-card: with ``creature`` only a creature settles; with ``zero`` any card."""
    return card.is_creature or not options.tie_creature_only


def can_draw_for_tie(seat: Seat, cards: CardSet, options: Options) -> bool:
    """§4.6: a tied player cannot draw when neither deck nor discard pile holds a card that
    can settle the tie."""
    return any(settles_tie(cards.card(n), options) for n in seat.deck + seat.discard)


def tie_value(card: Card, attribute: int) -> int:
    """§4.6: a drawn tie-break card's value; a non-creature counts 0 (tie-card=zero)."""
    return card.values[attribute] if card.is_creature else 0


def has_creature(seat: Seat, cards: CardSet) -> bool:
    return any(cards.card(n).is_creature for n in seat.hand)


def short_of_hand(seat: Seat, hand: int) -> bool:
    """§3.1, §3.2, §4.8 refill=five: a seat draws while it holds fewer than ``hand`` cards and
    has a card to draw (§4.9: with neither deck nor discard cards it draws nothing)."""
    return len(seat.hand) < hand and bool(seat.deck or seat.discard)


def wants_refill(seat: Seat, options: Options) -> bool:
    """§4.8: whether a seat still draws in the refill."""
    if options.refill == "five":
        return short_of_hand(seat, options.hand)
    return seat.refill_left > 0 and bool(seat.deck or seat.discard)


def payout(pos: Position, winner: int, options: Options) -> None:
    """§4.7 and §6: the winner gains a crystal; with ``stake`` every other player still in
    the game pays one of theirs and is out at none."""
    pos.seats[winner].won += 1
    if not options.stake:
        return
    for p, seat in enumerate(pos.seats):
        if p != winner and not seat.out:
            seat.tokens -= 1
            pos.seats[winner].tokens += 1
            seat.out = seat.tokens <= 0


def game_winner(pos: Position, options: Options) -> int:
    """§6: the first to have won ``target`` crystals; with ``stake`` also the last player
    with crystals. -1 while nobody has won."""
    for p, seat in enumerate(pos.seats):
        if seat.won >= options.target:
            return p
    left = [p for p, seat in enumerate(pos.seats) if not seat.out]
    return left[0] if options.stake and len(left) == 1 else -1


def crystals_problem(pos: Position, options: Options) -> tuple[int, str] | None:
    """Why a seat's crystals in ``pos`` cannot come from play (§6), as (seat, what), or
    None: nobody past ``target``, and a player at it the winner; with ``bank`` no crystal
    held or lost; with ``stake`` each holds their 8 plus what they won less what the others won,
    and is out exactly at none."""
    for p, seat in enumerate(pos.seats):
        if seat.won > options.target:
            return p, (f"won={seat.won}: the game ends when the first player reaches "
                       f"{options.target} (target)")
        if seat.won == options.target and pos.result != p:
            return p, (f"won={seat.won}: reaching {options.target} (target) wins the game, "
                       f"and result= does not say this player won")
        if not options.stake:
            if seat.tokens or seat.out:
                return p, ("tokens and flag o are for crystals=stake; with crystals=bank "
                           "no crystal is held (tokens=0)")
            continue
        held = CRYSTAL_TOKENS + seat.won - sum(other.won for q, other in enumerate(pos.seats)
                                               if q != p)
        if seat.tokens != held or seat.out != (held <= 0):
            return p, (f"tokens={seat.tokens}{' out' if seat.out else ''}: with crystals=stake "
                       f"a player holds {CRYSTAL_TOKENS} plus the rounds they won less the "
                       f"rounds the other won ({max(held, 0)} here), out at 0")
    return None


def end_reason(pos: Position, options: Options, names) -> str:
    """Why the game ended in ``pos`` (over): §6's target or stake, §4.9's deck-out, or a
    draw at the max-rounds limit (the only draw)."""
    if pos.result == DRAW_RESULT:
        return f"{pos.round} rounds played (the max-rounds limit)"
    winner = pos.result
    if pos.seats[winner].won >= options.target:
        return f"{names[winner]} reached {options.target} crystals"
    others = [p for p in range(pos.players) if p != winner]
    if options.stake and all(pos.seats[p].out for p in others):
        return " and ".join(names[p] for p in others) + " out of crystals"
    empty = [p for p in others if not pos.seats[p].deck] or others
    return " and ".join(names[p] for p in empty) + " had to draw from an empty deck"


def returns(pos: Position, winner: int) -> tuple[float, ...]:
    if winner < 0:
        return tuple(0.0 for _ in pos.seats)
    if len(pos.seats) == 2:
        return (1.0, -1.0) if winner == 0 else (-1.0, 1.0)
    share = 1.0 / (len(pos.seats) - 1)
    return tuple(1.0 if p == winner else -share for p in range(len(pos.seats)))
