"""Searches that draw the other hand by its range (search/beliefs.py, ``range=true``): the
kernel's determinize follows the range's probabilities, not uniform ones, the tracker is
carried through a game and started again for another, and the engines say what they drew
from."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from crystalpick.engine import get_game
from crystalpick.engine.cardbattle import CardBattle
from crystalpick.engine.cardbattle.position import NO_CARD
from crystalpick.engine.game import GameError, sample_chance
from crystalpick.search import Limits, make_engine
from crystalpick.search.beliefs import Beliefs
from crystalpick.search.range_walk import PolicyStrategy
from crystalpick.search.ranges import RangeTracker
from crystalpick.search.options import OptionError
from crystalpick.search.specs import parse_spec

DRAWS = 20_000


def greedy_decisions(game, seed: int):
    """Each decision of a game both players play by the playout policy, chance from
    ``seed``."""
    rng, state, policy = random.Random(seed), game.setup_state(), game.playout_policy()
    while not state.is_terminal():
        if state.is_chance_node():
            state.play(sample_chance(state, rng.random()))
            continue
        yield state
        state.play(policy.playout(state, rng.randrange(2**32)))


def drawn_hands(state, observer: int, beliefs) -> Counter:
    """The other hand in DRAWS determinizations of the kernel that knows ``beliefs``."""
    kernel = state.knowing_kernel(observer, 1, beliefs).kernel
    return Counter(tuple(sorted(kernel.determinized(observer, seed).to_position()
                                .seats[1 - observer].hand)) for seed in range(DRAWS))


def as_hands(probabilities) -> dict:
    """A range's private states as the hands a determinization holds (a secret choice
    taken back into the hand)."""
    hands: dict = {}
    for (hand, secret), p in probabilities.items():
        key = tuple(sorted(hand + ((secret,) if secret != NO_CARD else ())))
        hands[key] = hands.get(key, 0.0) + p
    return hands


@pytest.mark.parametrize("name", ("ties-3", "boost-3", "reshuffle-2"))
def test_determinize_draws_the_other_hand_by_the_range(name):
    beliefs, checked = Beliefs(epsilon=0.1), 0
    for seed in range(6):
        game = CardBattle(seed=seed).small_configuration(name)
        for state in greedy_decisions(game, seed):
            observer = state.current_player()
            found = beliefs.range_of(state, observer)
            expected = as_hands(found.probabilities) if found else {}
            if len([p for p in expected.values() if p > 0]) < 2:
                continue
            drawn = drawn_hands(state, observer, found.probabilities)
            assert set(drawn) <= {hand for hand, p in expected.items() if p > 0}
            error = max(abs(drawn[hand] / DRAWS - p) for hand, p in expected.items())
            uniform = 1 / len([p for p in expected.values() if p > 0])
            assert error < 0.015, (name, seed, expected, drawn)
            if max(abs(p - uniform) for p in expected.values() if p > 0) > 0.05:
                checked += 1        # uniform draws would have failed the bound above
    assert checked >= 2


def test_know_hands_refuses_bad_weights():
    state = next(greedy_decisions(CardBattle(seed=1).small_configuration("hidden-3"), 0))
    kernel = state.knowing_kernel(0, 1).kernel
    hand = state.to_position().seats[1].hand
    for weights in ([1.0, 2.0], [-1.0], [0.0]):
        with pytest.raises(ValueError, match="weight"):
            kernel.know_hands(0, hand, [hand], weights)


def test_a_game_without_ranges_refuses_beliefs():
    state = get_game("mattock").state()
    with pytest.raises(GameError, match="no ranges"):
        state.knowing_kernel(0, 1, {(): 1.0})


def test_a_game_begun_dealt_gets_its_range_from_the_deal_not_from_the_true_hands():
    """A match's games start from a dealt position: walked from there, the range held the
    other player's true hand alone (the engines' range=true read it). With the deal put
    back (Ranges.with_open_start) every hand the view allows stays possible; a history from
    a position the deal cannot make is refused."""
    game = get_game("cardbattle", seed=7)
    state = game.state(moves="keep keep toss:P2 call:forca")
    found = Beliefs().range_of(state, 0).probabilities
    assert sum(p > 0 for p in found.values()) == game.private_state_count(state, 1) > 1000
    assert found[game.private_state(state, 1)] < 0.01
    later = game.parse_position(state.position())           # mid-game: no deal makes it
    later.play(later.legal_moves()[0])
    with pytest.raises(GameError, match="cannot put back"):
        RangeTracker(later, 0, PolicyStrategy(game.playout_policy(), 0.1), markov=True)


def test_the_range_is_carried_and_started_again_for_another_game():
    game = CardBattle(seed=1).small_configuration("hidden-3")
    beliefs = Beliefs()
    assert beliefs.range_of(game.setup_state(), 0) is None         # no history yet
    states = [s.clone() for s in greedy_decisions(game, 1) if s.current_player() == 0]
    beliefs.range_of(states[0], 0)
    tracker = beliefs.trackers[(game.identity, 0)]
    beliefs.range_of(states[1], 0)
    assert beliefs.trackers[(game.identity, 0)] is tracker
    other = [s for s in greedy_decisions(game, 2) if s.current_player() == 0][1]
    assert beliefs.range_of(other, 0) is not None
    assert beliefs.trackers[(game.identity, 0)] is not tracker


@pytest.mark.parametrize("spec", ("ismcts:range=true", "mccfr:root=view,horizon=1,range=true"))
def test_the_engines_say_they_drew_by_the_range(spec):
    game = CardBattle(seed=2).small_configuration("ties-3")
    state = [s.clone() for s, _ in zip(greedy_decisions(game, 0), range(4))][-1]
    parsed = parse_spec(spec)
    engine = make_engine(parsed.name, **parsed.seeded(5))
    observer = state.current_player()
    engine.analyse(state, Limits(simulations=200), None, observer, 1)
    assumed = engine.assumed_range(state, observer, 3)
    assert f"by {game.player_names[1 - observer]}'s range" in assumed.method
    assert engine.range is not None and engine.range.probabilities


@pytest.mark.parametrize("spec", ("mccfr:range=true", "mccfr:root=view,range=true,infer=true"))
def test_mccfr_refuses_a_range_it_cannot_use(spec):
    parsed = parse_spec(spec)
    with pytest.raises(OptionError, match="range"):
        make_engine(parsed.name, **parsed.options)


def replayed(game, moves):
    state = game.setup_state()
    for move in moves:
        state.play(state.parse_move(move))
    return state


def swapped_p2_deal():
    """P1 to choose a creature in secret (hidden-3, seed 1), and the same history with one
    card of P2's deal swapped for one still in P2's deck: nothing P1 sees differs."""
    game = CardBattle(seed=1).small_configuration("hidden-3")
    moves = ["draw:1", "draw:3", "draw:13", "draw:11", "keep", "keep", "toss:P2",
             "call:ataque"]
    real = replayed(game, moves)
    other = replayed(game, [move.replace("draw:13", "draw:12") for move in moves])
    assert real.current_player() == 0 and "phase=choose" in real.position()
    assert real.observation_string(0) == other.observation_string(0)
    assert real.to_position().seats[1].hand != other.to_position().seats[1].hand
    return real, other


def test_a_players_own_range_as_the_other_knows_it_ignores_the_others_hidden_cards():
    """What a searcher may ask (search/beliefs.py): P1's range as P2 knows it, walked with
    P2's real hand held, is the same whichever hand P2 really holds."""
    real, other = swapped_p2_deal()
    ranges = [Beliefs().range_of(state, 1).probabilities for state in (real, other)]
    assert len([p for p in ranges[0].values() if p > 0]) >= 2
    assert ranges[0].keys() == ranges[1].keys()
    assert all(abs(ranges[0][key] - ranges[1][key]) < 1e-12 for key in ranges[0])


def test_the_other_players_redraws_follow_the_own_range():
    """knowing_kernel's own_range: the kernel's determinize for the other player draws the
    searching player's hand by it (mccfr public with range=true), leaving its draws for the
    searching player as they were."""
    real, _ = swapped_p2_deal()
    own = Beliefs().range_of(real, 1).probabilities
    skewed = {key: p * (3.0 if i == 0 else 1.0) for i, (key, p) in enumerate(own.items())}
    total = sum(skewed.values())
    skewed = {key: p / total for key, p in skewed.items()}
    kernel = real.knowing_kernel(0, 1, own_range=skewed).kernel
    drawn = Counter(tuple(sorted(kernel.determinized(1, seed).to_position().seats[0].hand))
                    for seed in range(DRAWS))
    for hand, p in as_hands(skewed).items():
        assert abs(drawn[hand] / DRAWS - p) < 0.015, (hand, p, drawn)
    plain = real.knowing_kernel(0, 1).kernel
    assert [kernel.determinized(0, seed).to_position() for seed in range(20)] == \
        [plain.determinized(0, seed).to_position() for seed in range(20)]


def test_with_public_the_view_search_redraws_the_own_hand_by_its_range():
    game = CardBattle(seed=2).small_configuration("ties-3")
    state = [s.clone() for s, _ in zip(greedy_decisions(game, 0), range(4))][-1]
    observer = state.current_player()
    own, other = game.player_names[observer], game.player_names[1 - observer]
    for options, said in (({"range": True}, f"by {own}'s range as {other} knows it"),
                          ({}, f"by {other}'s view")):
        engine = make_engine("mccfr", root="view", horizon=1, public=True, seed=5, **options)
        engine.analyse(state, Limits(simulations=200), None, observer, 1)
        assert f"{own}'s own hand redrawn for {other} too, {said}" in \
            engine.assumed_range(state, observer, 3).method
        assert (engine.own is not None) == bool(options)


def test_a_range_is_refused_where_the_game_declares_none():
    """mccfr:root=view,range=true on a game without ranges says so instead of drawing
    from the view as if nothing had been asked."""
    state = get_game("maatatahay").new_initial_state()
    while state.is_chance_node():
        state.play(state.legal_moves()[0])
    engine = make_engine("mccfr", root="view", range=True, seed=1)
    with pytest.raises(GameError, match="range=true .* maatatahay declares none"):
        engine.analyse(state, Limits(simulations=10), None, state.current_player(), 1)
