"""The range carried through a game (search/ranges.py ``RangeTracker``) equals the walk from
the deal (``range_of``) at every decision, on small configurations with hidden hands, secret
choices and reshuffles, and at the first decisions of a full-size game; the exact check of
the walk itself is tests/test_ranges.py (slow)."""
from __future__ import annotations

import random

import pytest

from crystalpick.engine import GameError
from crystalpick.engine.cardbattle import CardBattle
from crystalpick.engine.cardbattle.ranges import private_key
from crystalpick.engine.cardbattle.smallgames import ply_events
from crystalpick.engine.game import sample_chance
from crystalpick.search.range_walk import PolicyStrategy
from crystalpick.search.ranges import (DEFAULT_MAX_WORLDS, RangeTracker, TooManyWorlds,
                                       WalkStopped, origin, range_of)
from crystalpick.search.stop import StopFlag

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


@pytest.mark.slow        # about 10 s: the walk on States at thousands of hands
def test_full_size_the_walk_in_c_equals_the_walk_on_states_through_a_game():
    """Two sample decks, greedy play: the mover's range of the other carried in C and on
    States under the same greedy-0.9 strategy agree at the first six decisions (while the
    walk on States is affordable), a secret choice among them."""
    game = CardBattle({"deck1": "titas", "deck2": "arsenal"})
    policy = game.playout_policy()
    state, chance, trackers, checked = game.setup_state(), random.Random(11), None, 0
    secret = False
    while checked < 6:
        if state.is_chance_node():
            state.play(sample_chance(state, chance.random()))
            continue
        mover = state.current_player()
        trackers = trackers or [[RangeTracker(state, p, strategy, markov=True) for strategy
                                 in (PolicyStrategy(policy, 0.1), greedy_share(policy, 0.1))]
                                for p in (0, 1)]
        in_c, on_states = (tracker.advance(state) for tracker in trackers[mover])
        assert sum(p > 0 for p in in_c.probabilities.values()) > 100
        assert differences(in_c, on_states) < 1e-12
        secret |= any(p > 0 and chosen for (_, chosen), p in in_c.probabilities.items())
        checked += 1
        state.play(policy.playout(state, 1))
    assert secret, "no secret choice in the ranges compared"


def greedy_share(policy, epsilon: float):
    """The bench's opponent model as a plain Python strategy: the policy's move with
    1 - ``epsilon``, every legal move ``epsilon`` / their number."""
    def strategy(state):
        moves = state.legal_moves()
        shares = {move: epsilon / len(moves) for move in moves}
        shares[policy.playout(state, 1)] += 1.0 - epsilon
        return shares
    return strategy


@pytest.mark.parametrize("name", SMALL)
@pytest.mark.parametrize("markov", (True, False))
def test_the_walk_in_c_equals_the_walk_on_states(name, markov):
    """A PolicyStrategy walks in C (range_walk.pyx ``walk``); the same strategy as a Python
    callable walks on States: at every decision both carried ranges agree, and so do the
    worlds held (their positions, records and weights)."""
    game = CardBattle().small_configuration(name)
    policy = game.playout_policy()
    fast, slow = PolicyStrategy(policy, 0.2), greedy_share(policy, 0.2)
    compared = 0
    for seed in range(2):
        trackers = None
        for state in decisions(game, seed):
            trackers = trackers or [[RangeTracker(state, p, strategy, markov=markov)
                                     for strategy in (fast, slow)] for p in (0, 1)]
            for observer in (0, 1):
                in_c, on_states = (t.advance(state) for t in trackers[observer])
                assert trackers[observer][0]._fast and not trackers[observer][1]._fast
                assert differences(in_c, on_states) < 1e-12
                assert in_c.worlds == on_states.worlds
                held = [held_worlds(t, state, observer) for t in trackers[observer]]
                assert held[0].keys() == held[1].keys()
                assert max(abs(held[0][k] - held[1][k]) for k in held[0]) < 1e-12
                compared += sum(p > 0 for p in in_c.probabilities.values()) > 1
    assert compared >= 5, "too few uncertain ranges compared"


def held_worlds(tracker, state, observer) -> dict:
    """The tracker's worlds' weights by (position, observer's key), each checked to hold the
    observer's true record and a move log that replays to it from the origin."""
    worlds, start = {}, origin(state).hash_key()
    for world, weight in tracker.worlds():
        replayed = origin(world)
        assert replayed.hash_key() == start
        for move in world.played_moves():
            replayed.play(move)
        assert replayed.hash_key() == world.hash_key()
        seen = world.information_state_key(observer)
        assert seen == state.information_state_key(observer)
        key = (world.hash_key(), seen)
        worlds[key] = worlds.get(key, 0.0) + weight
    return worlds


def test_a_stopped_or_too_large_walk_leaves_the_tracker_as_it_was():
    game = CardBattle({"deck1": "titas", "deck2": "arsenal"})
    strategy = PolicyStrategy(game.playout_policy(), 0.1)
    state = next(decisions(game, 3))
    tracker, stop = RangeTracker(state, 1, strategy, markov=True), StopFlag()
    stop.set()
    with pytest.raises(WalkStopped):
        tracker.advance(state, stop)
    tracker.max_worlds = 1000                 # the first decision holds thousands
    with pytest.raises(TooManyWorlds):
        tracker.advance(state)
    stop.clear()
    tracker.max_worlds = DEFAULT_MAX_WORLDS
    assert differences(tracker.advance(state, stop),
                       range_of(state, 1, strategy, markov=True)) == 0.0


def test_the_kernels_private_state_is_the_positions():
    """The card kernel reads a world's private state in C (``Kernel.private_key``, what
    ``private_state`` of a fast state answers): the same key as the position's, secret
    choices included, at every ply of random games."""
    secret = 0
    for decks in (("titas", "arsenal"), ("mista", "alianca")):
        game = CardBattle({"deck1": decks[0], "deck2": decks[1]})
        for seed in range(4):
            rng, state = random.Random(seed), game.setup_state()
            while not state.is_terminal():
                for player in (0, 1):
                    key = state.kernel.private_key(player)
                    assert key == private_key(state.to_position(), player)
                    secret += key[1] != 0
                state.play(rng.choice(state.legal_moves()))
    assert secret, "no secret choice met"
