"""The card battle's rules as written, applied to a :class:`~.position.Position` (sections of
the rules page cited inline): the plain-Python reference the fast kernel is tested against.

Clarity over speed: ``apply`` does what a move or chance outcome says, ``advance`` then runs
every automatic step (reveal, compare, payout, clean-up, reshuffles) until the next decision,
chance event or the end. The rule facts are the pure functions of :mod:`.rules`. No State
here: the reference State (reference.py) and the information states (state.py) both step a
position with these.
"""
from __future__ import annotations

from .cards import CardSet
from .moves import (KEEP, M_BOOST, M_CALL, M_DRAW, M_MULLIGAN, M_PASS, M_PLAY, M_TOSS,
                    kind_of, payload_of)
from .options import Options
from .position import (BOOST, CALL, CHOOSE, DEAL, DRAW_RESULT, KEPT, MULLIGAN as
                       MULLIGAN_PHASE, NO_CARD, OVER, REDEAL, REFILL, SEEK, TAKEN,
                       TIEBREAK, TOSS, UNDECIDED, Position)
from .rules import (boost_bonus, can_draw_for_tie, contenders, game_winner, has_creature,
                    in_play, next_booster, payout, short_of_hand, tie_value, top_players,
                    wants_refill)

# -- one move or outcome ---------------------------------------------------------------------


def apply(pos: Position, cards: CardSet, options: Options, move: int) -> None:
    kind, payload = kind_of(move), payload_of(move)
    seat = pos.seats[pos.actor]
    if kind == M_MULLIGAN:                       # §3.2: the hand goes back, 5 new cards come
        seat.mulligan = TAKEN
        seat.deck = sorted(seat.deck + seat.hand)
        seat.hand = []
        pos.phase = REDEAL
    elif move == KEEP:
        seat.mulligan = KEPT
        pos.actor += 1
    elif kind == M_TOSS:                         # §3.3: the toss names the first caller
        pos.caller = payload
        pos.phase = CALL
    elif kind == M_CALL:                         # §4.1
        pos.attribute = payload
        pos.phase = SEEK
    elif kind == M_PLAY:                         # §4.2: a creature from hand, face down
        seat.hand.remove(payload)
        seat.table = sorted(seat.table + [payload])
        seat.chosen = payload
    elif kind == M_BOOST:                        # §4.4: one boost card per round
        target = in_play(seat)
        seat.value += boost_bonus(cards.card(payload), cards.card(target), pos.attribute)
        seat.hand.remove(payload)
        seat.table = sorted(seat.table + [payload])
        seat.boosted = True
    elif kind == M_PASS:                         # §4.4: passing is final for the round
        seat.passed = True
    elif kind == M_DRAW:
        draw(pos, cards, options, payload)


def draw(pos: Position, cards: CardSet, options: Options, number: int) -> None:
    """Card ``number`` leaves the actor's deck: into the hand (setup, refill, §4.2's draw for
    a creature) or, in a tie-break, onto the table (§4.6)."""
    seat = pos.seats[pos.actor]
    seat.deck.remove(number)
    card = cards.card(number)
    if pos.phase != TIEBREAK:
        seat.hand = sorted(seat.hand + [number])
        if pos.phase == REFILL and options.refill == "one":
            seat.refill_left -= 1
        return
    if options.tie_creature_only and not card.is_creature:     # §4.6 tie-card=creature
        seat.discard = sorted(seat.discard + [number])
        return
    seat.table = sorted(seat.table + [number])
    seat.tie_card = number
    seat.value = tie_value(card, pos.attribute)


def step(pos: Position, cards: CardSet, options: Options, move: int) -> None:
    """One ply: ``move`` played, then the automatic steps after it."""
    apply(pos, cards, options, move)
    pos.ply += 1
    advance(pos, cards, options)


def played_on(pos: Position, cards: CardSet, options: Options, move: int) -> Position:
    """A copy of ``pos`` after the ply that plays ``move``."""
    after = pos.copy()
    step(after, cards, options, move)
    return after


# -- the automatic steps ---------------------------------------------------------------------

def advance(pos: Position, cards: CardSet, options: Options) -> None:
    """Run the automatic steps until a decision, a chance event or the end."""
    while True:
        if pos.result != UNDECIDED:
            pos.phase = OVER
            return
        phase = pos.phase
        if phase in (DEAL, REFILL):              # §3.1 and §4.8, in seat order
            drawer = next((p for p, s in enumerate(pos.seats)
                           if (short_of_hand(s, options.hand) if phase == DEAL
                               else wants_refill(s, options))), -1)
            if drawer >= 0:
                if start_draw(pos, options, drawer):
                    return
                continue
            if phase == DEAL:
                pos.phase, pos.actor = MULLIGAN_PHASE, 0
            else:
                pos.phase, pos.actor = CALL, pos.caller          # §4.1: the caller calls
            continue
        if phase == MULLIGAN_PHASE:
            if pos.actor >= pos.players:
                pos.phase, pos.actor = TOSS, 0
            return
        if phase == REDEAL:
            seat = pos.seats[pos.actor]
            if short_of_hand(seat, options.hand):
                if start_draw(pos, options, pos.actor):
                    return
                continue
            pos.phase = MULLIGAN_PHASE
            pos.actor += 1
            continue
        if phase in (TOSS, CALL):
            if phase == CALL:
                pos.actor = pos.caller
            return
        if phase == SEEK:                        # §4.2: no creature in hand
            needy = [p for p in contenders(pos) if not has_creature(pos.seats[p], cards)]
            if not needy:
                pos.phase = CHOOSE
                continue
            if options.draw_for_creature:
                if start_draw(pos, options, needy[0]):
                    return
                continue
            pos.seats[needy[0]].contending = False     # no-creature=forfeit
            continue
        if phase == CHOOSE:
            chooser = next((p for p in contenders(pos) if pos.seats[p].chosen == NO_CARD), -1)
            if chooser >= 0:
                pos.actor = chooser
                return
            for p in contenders(pos):            # §4.3: reveal
                pos.seats[p].value = cards.card(pos.seats[p].chosen).values[pos.attribute]
            pos.phase = BOOST
            continue
        if phase == BOOST:
            booster = -1
            if not pos.tiebreak or options.tie_boosts:
                booster = next_booster(pos, cards, options)
            if booster >= 0:
                pos.actor = booster
                return
            compare(pos, cards, options)
            continue
        if phase == TIEBREAK:
            drawer = next((p for p in contenders(pos)
                           if pos.seats[p].tie_card == NO_CARD), -1)
            if drawer >= 0:
                if start_draw(pos, options, drawer):
                    return
                continue
            pos.phase = BOOST                    # §4.6 tie-boosts decides there
            continue
        return                                   # OVER


def start_draw(pos: Position, options: Options, player: int) -> bool:
    """Make ``player`` draw next: True for a chance node; a reshuffle first if the deck is
    empty (§4.9), or with deck-out=lose the game ends (False)."""
    seat = pos.seats[player]
    pos.actor = player
    if seat.deck:
        return True
    if options.reshuffle:
        seat.deck, seat.discard = seat.discard, []
        return True
    pos.result = 1 - player                      # the other player (two players, §7)
    return False


def compare(pos: Position, cards: CardSet, options: Options) -> None:
    """§4.5-4.6: one highest value wins; a tie at the top goes to a tie-break among the tied
    players who can draw (one left wins, none left: a void round)."""
    top = top_players(pos)
    if len(top) > 1:
        for p, seat in enumerate(pos.seats):
            seat.contending = p in top and can_draw_for_tie(seat, cards, options)
            seat.tie_card = NO_CARD
        top = contenders(pos)
        if len(top) > 1:
            pos.tiebreak = True
            pos.phase = TIEBREAK
            return
    if top:
        win_round(pos, top[0], options)
    clean_up(pos, options)


def win_round(pos: Position, winner: int, options: Options) -> None:
    """§4.7: a crystal (§6 crystals option) and the next call."""
    payout(pos, winner, options)
    pos.caller = winner
    best = game_winner(pos, options)
    if best >= 0:
        pos.result = best


def clean_up(pos: Position, options: Options) -> None:
    """§4.8: the table to the discard piles, then the refill; §6 max-rounds."""
    for seat in pos.seats:
        seat.discard = sorted(seat.discard + seat.table)
        seat.table = []
        seat.chosen = seat.tie_card = NO_CARD
        seat.value = 0
        seat.boosted = seat.passed = False
        seat.contending = not seat.out
        seat.refill_left = 1 if options.refill == "one" else 0
    pos.tiebreak = False
    pos.attribute = -1
    pos.round += 1
    if pos.result == UNDECIDED and pos.round >= options.max_rounds:
        pos.result = DRAW_RESULT
    pos.phase = REFILL
