"""The range carried through a game (search/ranges.py ``RangeTracker``) equals the walk from
the deal (``range_of``) at every decision, on small configurations with hidden hands, secret
choices and reshuffles, and at the first decisions of a full-size game; the exact check of
the walk itself is tests/test_ranges.py (slow)."""
from __future__ import annotations

import random

import pytest

from crystalpick.engine import GameError
from crystalpick.engine.cardbattle import CardBattle
from crystalpick.engine.cardbattle.smallgames import ply_events
from crystalpick.engine.game import sample_chance
from crystalpick.search.ranges import RangeTracker, range_of

SMALL = ("hidden-3", "boost-3", "ties-3", "reshuffle-2")


def keyed(state) -> dict[int, float]:
    """A strategy that reads the mover's information set only, different at every set (a
    pseudo-random distribution seeded by its key), so Bayes moves the range."""
    moves = state.legal_moves()
    rng = random.Random(state.information_set_key(state.current_player()))
    weights = [0.05 + rng.random() for _ in moves]
    return {move: weight / sum(weights) for move, weight in zip(moves, weights)}


def decisions(game, seed: int, events: set | None = None):
    """Each decision of a game from the setup, chance by its probabilities and moves by
    ``keyed``, drawn from ``seed``; the rarer rules met are added to ``events``."""
    rng, state = random.Random(seed), game.setup_state()
    while not state.is_terminal():
        if state.is_chance_node():
            move = sample_chance(state, rng.random())
        else:
            yield state
            strategy = keyed(state)
            move = rng.choices(list(strategy), list(strategy.values()))[0]
        before = state.to_position()
        state.play(move)
        if events is not None:
            events |= ply_events(before, state.to_position())


def differences(tracked, scratch) -> float:
    assert set(tracked.probabilities) == set(scratch.probabilities)
    return max(abs(p - scratch.probabilities[key]) for key, p in tracked.probabilities.items())


@pytest.mark.parametrize("name", SMALL)
def test_the_carried_range_equals_the_walk_from_the_deal_at_every_decision(name):
    game = CardBattle().small_configuration(name)
    events, secret, uncertain = set(), False, 0
    for seed in range(3):
        trackers = None
        for state in decisions(game, seed, events):
            trackers = trackers or [RangeTracker(state, p, keyed) for p in (0, 1)]
            for observer in (0, 1):
                tracked = trackers[observer].advance(state)
                assert differences(tracked, range_of(state, observer, keyed)) < 1e-12
                alive = [key for key, p in tracked.probabilities.items() if p > 0]
                uncertain += len(alive) > 1
                secret |= any(chosen for _, chosen in alive)
    assert uncertain >= 5, "too few decisions with an uncertain range to check anything"
    assert secret or name == "reshuffle-2", "no secret choice held in a range"
    assert name != "reshuffle-2" or "reshuffle" in events, "no reshuffle met"


def test_the_check_fails_when_the_carried_weights_are_wrong():
    """Flattening the weights carried from one decision to the next (as a tracker that
    forgot Bayes would) moves some later range away from the walk's."""
    game = CardBattle().small_configuration("boost-3")
    worst = 0.0
    for seed in range(3):
        tracker = None
        for state in decisions(game, seed):
            tracker = tracker or RangeTracker(state, 0, keyed)
            tracked = tracker.advance(state)
            worst = max(worst, differences(tracked, range_of(state, 0, keyed)))
            tracker._held = {key: (world, 1.0) for key, (world, _) in tracker._held.items()}
    assert worst > 1e-3


def test_a_state_of_another_game_is_refused():
    game = CardBattle().small_configuration("boost-3")
    first, second = (next(iter(decisions(game, seed))) for seed in (0, 1))
    assert first.played_moves() != second.played_moves()
    tracker = RangeTracker(first, 0, keyed)
    tracker.advance(first)
    with pytest.raises(GameError, match="does not continue the game"):
        tracker.advance(second)


def observed(state) -> dict[int, float]:
    """As ``keyed``, read from the mover's observation now only (the kernel's key): a
    strategy the walk may merge worlds for by position (``markov``)."""
    mover = state.current_player()
    moves = state.legal_moves()
    rng = random.Random(state.search_kernel().observation_key_of(mover))
    weights = [0.05 + rng.random() for _ in moves]
    return {move: weight / sum(weights) for move, weight in zip(moves, weights)}


@pytest.mark.parametrize("name", ("boost-3", "reshuffle-2"))
def test_merging_by_position_is_exact_for_a_strategy_of_the_observation(name):
    """``markov`` merges worlds the full walk keeps apart by the others' information
    sets; for a strategy of the observation only, the ranges are the same."""
    game = CardBattle().small_configuration(name)
    fewer = 0
    for seed in range(2):
        for state in decisions(game, seed):
            observer = state.current_player()
            merged = range_of(state, observer, observed, markov=True)
            apart = range_of(state, observer, observed)
            assert differences(merged, apart) < 1e-12
            fewer += merged.worlds < apart.worlds
    assert fewer, "no worlds merged by position: the check compares two equal walks"


@pytest.mark.slow        # about 30 s: thousands of hands, walked from the deal as well
def test_full_size_the_carried_range_equals_the_walk_at_the_first_decisions():
    """Two sample decks, the second player's first three decisions (thousands of hands),
    worlds merged by position (``markov``)."""
    game = CardBattle({"deck1": "titas", "deck2": "arsenal"})
    tracker, checked = None, 0
    for state in decisions(game, 7):
        if state.current_player() != 1:
            continue
        tracker = tracker or RangeTracker(state, 1, observed, markov=True)
        tracked = tracker.advance(state)
        assert sum(p > 0 for p in tracked.probabilities.values()) > 100
        assert differences(tracked, range_of(state, 1, observed, markov=True)) < 1e-12
        checked += 1
        if checked == 3:
            break
    assert checked == 3
