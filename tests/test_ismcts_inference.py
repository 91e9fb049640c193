"""ISMCTS's ``infer``: what an observer infers about the other hand from that player's past
play under the opponent model (engine/cardbattle/playout.pyx ``infer``) holds whenever the
other player really plays the model, reads nothing the observer did not see, and the
policy's conditioned determinizations respect it."""
from __future__ import annotations

import pytest

import itertools
import math
import random

from crystalpick.engine import get_game, sample_chance
from crystalpick.engine.cardbattle.moves import (M_BOOST, M_DRAW, M_MULLIGAN, M_PLAY,
                                                 kind_of, payload_of)
from crystalpick.engine.cardbattle.position import TIEBREAK
from crystalpick.search import Limits, make_engine

DECKS = {"deck1": "titas", "deck2": "arsenal"}


def greedy_game(seed: int):
    """A greedy-against-greedy game: its seed (the deal), its moves and the plies at which
    P1 decides (P1 chooses first, so P2 never holds a secret choice there)."""
    rng = random.Random(seed)
    state = get_game("cardbattle", DECKS, seed=seed).new_initial_state()
    moves, decisions = [], []
    while not state.is_terminal():
        if state.is_chance_node():
            move = sample_chance(state, rng.random())
        else:
            if state.current_player() == 0:
                decisions.append(len(moves))
            move = state.game.greedy_move(state)
        moves.append(move)
        state.play(move)
    return seed, moves, decisions


def replay(game, plies):
    seed, moves, _ = game
    state = get_game("cardbattle", DECKS, seed=seed).new_initial_state()
    for move in moves[:plies]:
        state.play(move)
    return state


def uniform_draw(state, seed):
    """The kernel's own (unconditioned) determinization for P1, as a state, and the other
    hand in it as card indices (bit i of a mask: P2's i-th card in number order)."""
    sample = state.game._state(state.search_kernel().determinized(0, seed).to_position())
    seat = sample.to_position().seats[1]
    return sample, [seat.cards().index(n) for n in seat.hand]


def infer(state, observer=0):
    policy = state.game.playout_policy()
    return policy, policy.infer(state.search_kernel(), observer)


def test_inferences_hold_when_the_other_player_plays_the_model():
    masks = calls = 0
    for seed in range(12):
        game = greedy_game(seed)
        for plies in game[2]:
            state = replay(game, plies)
            policy, found = infer(state)
            assert policy.inconsistency_of(state) == 0, (seed, plies, found)
            calls += sum(1 for kind, _ in found if kind == "call")
            masks += sum(1 for kind, _ in found if kind != "call")
    assert masks > 200 and calls > 10          # the games did show something


def test_a_hand_against_the_inferences_is_inconsistent():
    """A hand holding cards the model says it cannot hold is counted against them."""
    tested = 0
    for seed in range(6):
        game = greedy_game(seed)
        for plies in game[2]:
            state = replay(game, plies)
            policy, found = infer(state)
            for mask, allowed in found:
                if mask != "call" and allowed == 0:
                    break
            else:
                continue
            for sample_seed in range(200):
                sample, cards = uniform_draw(state, sample_seed)
                hand = sum(1 << card for card in cards)
                if hand & mask:
                    assert policy.inconsistency_of(sample) >= bin(hand & mask).count("1")
                    tested += 1
                    break
    assert tested > 5


def test_inferences_read_nothing_the_observer_did_not_see():
    """Swap two of P2's cards of one kind that never show (in the deck after the deal, never
    played or revealed) in every draw of the game: P1 sees the same game, so infers the
    same."""
    compared = 0
    for seed in range(12):
        game = greedy_game(seed)
        _, moves, decisions = game
        final = replay(game, len(moves)).to_position().seats[1]
        shown = set(final.discard) | set(final.table)
        for plies, move in enumerate(moves):
            state = replay(game, plies)
            pos = state.to_position()
            if kind_of(move) == M_DRAW and pos.phase == TIEBREAK:
                shown.add(payload_of(move))
            if not state.is_chance_node() and state.current_player() == 1:
                shown.update(set(pos.seats[1].hand)
                             - set(replay(game, plies + 1).to_position().seats[1].hand))
        start = replay(game, 0)
        hidden = sorted(set(start.to_position().seats[1].deck) - shown)
        kinds = {}                  # of one kind: a seek for a creature stops at either
        for number in hidden:
            kinds.setdefault(start.game.cardset.card(number).is_creature, []).append(number)
        pair = next((group[:2] for group in kinds.values() if len(group) >= 2), None)
        if pair is None:
            continue
        swap = {pair[0]: pair[1], pair[1]: pair[0]}
        twin = get_game("cardbattle", DECKS, seed=seed).new_initial_state()
        other = []
        for move in moves:
            if (kind_of(move) == M_DRAW and twin.is_chance_node()
                    and twin.to_position().actor == 1 and payload_of(move) in swap):
                move = (move & ~payload_of(move)) | swap[payload_of(move)]
            other.append(move)
            twin.play(move)
        for plies in decisions:
            assert infer(replay(game, plies))[1] == infer(replay((seed, other, decisions),
                                                                 plies))[1]
            compared += 1
    assert compared > 100


def test_conditioned_determinizations_respect_the_inferences():
    consistent = {True: 0, False: 0}
    draws = 0
    for seed in (3, 4):
        game = greedy_game(seed)
        for plies in game[2][len(game[2]) // 3:]:
            state = replay(game, plies)
            policy, found = infer(state)
            if not found:
                continue
            for sample_seed in range(30):
                conditioned = state.game._state(
                    policy.determinized(state, 0, sample_seed).to_position())
                uniform = state.game._state(
                    state.search_kernel().determinized(0, sample_seed).to_position())
                consistent[True] += policy.inconsistency_of(conditioned) == 0
                consistent[False] += policy.inconsistency_of(uniform) == 0
                draws += 1
    assert consistent[True] >= 0.95 * draws
    assert consistent[False] < 0.9 * consistent[True]


def test_infer_plays_legal_moves_and_a_bare_position_infers_nothing():
    game = greedy_game(5)
    state = replay(game, game[2][-1])
    engine = make_engine("ismcts", infer=True, model=1, playout="heuristic", seed=1)
    result = engine.analyse(state, Limits(simulations=300), None, 0, 1)
    assert result.play_move in state.legal_moves()
    assert infer(state.game.parse_position(state.position()))[1] == []


def test_a_card_played_after_it_was_ruled_out_took_one_of_the_draws_since():
    """drawn_and_gone: a card played at core 5 that an inference at core 2 ruled out came
    in after core 2; one ruled out only after it was played, or never, says nothing."""
    from crystalpick.engine.cardbattle.playout import drawn_and_gone
    found = [(2, 0b100, 3), (7, 0b1000, 1)]
    assert drawn_and_gone(found, [(5, 2)], 2) == 1
    assert drawn_and_gone(found, [(5, 2)], 6) == 0          # played before core 6
    assert drawn_and_gone(found, [(5, 3)], 2) == 0          # card 3 ruled out at 7 only
    assert drawn_and_gone(found, [(9, 3), (5, 2)], 2) == 2
    assert drawn_and_gone(found, [(9, 3), (5, 2)], 7) == 1


def histories_that_fit(hand, history):
    """The share of the other hand's possible histories that fit the inferences, by
    enumeration: every assignment of the cards that went through the hand (``hand`` and
    those seen leaving it) to the draws seen, each gone card drawn before it left (all such
    assignments alike likely: draws from a shuffled deck are exchangeable), in which no
    inference's ruled-out card was in hand at its core."""
    draws, gone, inferences = history
    cards = [(card, None) for card in hand] + list(gone)
    fit = total = 0
    for slots in itertools.permutations(range(len(draws)), len(cards)):
        arrived = [draws[slot] for slot in slots]
        if any(left is not None and came >= left
               for (_, left), came in zip(cards, arrived)):
            continue
        total += 1
        fit += not any(mask >> card & 1 and came < core and (left is None or core <= left)
                       for core, mask in inferences
                       for (card, left), came in zip(cards, arrived))
    return fit / total


def test_the_followed_history_is_the_other_hands_as_the_game_shows_it():
    """The draws followed are those into the other hand since the deal or their mulligan
    (by its size, a public count), and the cards seen leaving it are those they played
    (revealed), with their plies: every card drawn is in the hand or gone. After their deck
    was reshuffled (a card can come twice) the draws are not followed."""
    checked = skipped = 0
    for seed in range(6):
        game = greedy_game(seed)
        _, moves, decisions = game
        for plies in decisions:
            state = replay(game, 0)
            draws, gone = [-1] * len(state.to_position().seats[1].hand), []
            reshuffled = False
            for ply, move in enumerate(moves[:plies]):
                mover = state.current_player()
                seat = state.to_position().seats[1]
                state.play(move)
                after = state.to_position().seats[1]
                if mover == 1 and kind_of(move) == M_MULLIGAN:
                    draws, gone = [], []
                    continue
                if mover == 1 and kind_of(move) in (M_PLAY, M_BOOST):
                    gone.append((seat_index(state, payload_of(move)), ply))
                draws += [ply] * max(0, len(after.hand) - len(seat.hand))
                reshuffled |= len(after.deck) > len(seat.deck)
            policy, _ = infer(state)
            if reshuffled:
                assert policy.history() is None
                skipped += 1
                continue
            followed_draws, followed_gone, _ = policy.history()
            assert (followed_draws, followed_gone) == (draws, gone), (seed, plies)
            assert len(draws) == len(state.to_position().seats[1].hand) + len(gone)
            checked += 1
    assert checked > 50 and skipped > 0


def seat_index(state, number):
    """Bit i of a mask: the other seat's i-th card in number order."""
    return state.to_position().seats[1].cards().index(number)


def test_the_real_history_fits_when_the_other_player_plays_the_model():
    """Against greedy, no card an inference rules out was in the other hand at its core,
    by the cards' real arrivals: what the histories are weighed by is true of the game."""
    followed = 0
    for seed in range(12):
        game = greedy_game(seed)
        _, moves, decisions = game
        for plies in decisions:
            state = replay(game, plies)
            policy, _ = infer(state)
            history = policy.history()
            if history is None:
                continue
            held = []                                   # (card, arrived, left or None)
            walk = replay(game, 0)
            for card in walk.to_position().seats[1].hand:
                held.append([seat_index(walk, card), -1, None])
            for ply, move in enumerate(moves[:plies]):
                before = set(walk.to_position().seats[1].hand)
                walk.play(move)
                after = set(walk.to_position().seats[1].hand)
                if not after:                           # a mulligan: the hand went back
                    held = []
                    continue
                for card in before - after:
                    next(h for h in held if h[0] == seat_index(walk, card)
                         and h[2] is None)[2] = ply
                held += [[seat_index(walk, card), ply, None] for card in after - before]
            for core, mask in history[2]:
                assert not [card for card, came, left in held if mask >> card & 1
                            and came < core and (left is None or core <= left)], (seed, core)
            followed += 1
    assert followed > 150


@pytest.mark.slow
def test_hands_are_kept_with_the_share_of_their_histories_that_fit():
    trials, checked = 20_000, 0
    for seed in range(8):
        game = greedy_game(seed)
        for plies in game[2]:
            state = replay(game, plies)
            policy, _ = infer(state)
            history = policy.history()
            if history is None or len(history[0]) > 8 or not history[2]:
                continue
            for sample_seed in range(6):
                sample, hand = uniform_draw(state, sample_seed)
                exact = histories_that_fit(hand, history)
                if exact in (0.0, 1.0):
                    continue
                measured = policy.arrival_fit_share(sample, trials, sample_seed)
                assert abs(measured - exact) <= 4 * math.sqrt(exact * (1 - exact) / trials), (
                    seed, plies, sample_seed, hand, history)
                checked += 1
    assert checked > 10
