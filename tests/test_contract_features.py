"""The optional game features (engine/features.py), checked for every registered game and for
Chance Nim: a feature a game declares is provided and works through the contract alone, and
one it does not declare is absent, so a caller that skips the capability check fails loudly
instead of calling a do-nothing default."""
from __future__ import annotations

import random

import pytest

from crystalpick.engine import (FEATURES, DeckBuilding, Feature, GameError, GreedyPolicy,
                                MCTSDefaults, Ranges, TunedSearch, mcts_defaults, provides,
                                require,
                                sample_chance)

from test_contract import GAME_CLASSES, game_ids

PLIES = 400          # plies of the random game a declared policy is asked about


def members(feature: type[Feature]) -> set[str]:
    """What declaring ``feature`` adds to a game: its methods and its annotated data."""
    declared = set(vars(feature)) | set(vars(feature).get("__annotations__", {}))
    return {name for name in declared if not name.startswith("_")} - {"offers", "needed_by"}


def test_every_feature_adds_members():
    assert all(members(feature) for feature in FEATURES)


@pytest.mark.parametrize("feature", FEATURES, ids=lambda feature: feature.__name__)
@pytest.mark.parametrize("cls", GAME_CLASSES, ids=game_ids)
def test_a_game_has_exactly_the_features_it_declares(cls, feature):
    game = cls(seed=1)
    if provides(game, feature):
        assert require(game, feature, "this test") is game
        missing = [name for name in members(feature) if getattr(game, name, None) is None]
        assert not missing, f"{cls.name} declares {feature.__name__} without {missing}"
    else:
        present = [name for name in members(feature) if hasattr(game, name)]
        assert not present, f"{cls.name} has {present} but does not declare {feature.__name__}"
        with pytest.raises(GameError, match=f"^{cls.name} has no {feature.offers}: the caller "
                                            f"needs {feature.needed_by}$"):
            require(game, feature, "the caller")


def random_decisions(game, seed: int):
    """The decision states of a random game of ``game`` (chance drawn by probability)."""
    rng, state = random.Random(seed), game.new_initial_state()
    for _ in range(PLIES):
        if state.is_terminal():
            return
        if state.is_chance_node():
            state.play(sample_chance(state, rng.random()))
            continue
        yield state
        state.play(rng.choice(state.legal_moves()))


@pytest.mark.parametrize("cls", [c for c in GAME_CLASSES if provides(c, DeckBuilding)],
                         ids=game_ids)
def test_declared_deck_building_names_one_deck_per_player_and_the_cards_played(cls):
    game = cls(seed=2)
    assert len(game.deck_options) == len(game.player_names)
    assert set(game.deck_options) <= {option.name for option in game.rule_options}
    decks = [game.deck_cards(player) for player in range(len(game.player_names))]
    assert all(list(deck) == sorted(deck) and deck for deck in decks)
    assert all(isinstance(game.component_name(card), str) for deck in decks for card in deck)
    assert game.deck_rules(["a", "b"]) == dict(zip(game.deck_options, ["a", "b"]))
    with pytest.raises(GameError, match="once per player"):
        game.deck_rules(["a"])
    played = 0
    for state in random_decisions(game, 2):
        mover = state.current_player()
        for move in state.legal_moves():
            card = game.played_component(state, move)
            if card is not None:
                played += 1
                assert card in decks[mover], state.move_to_str(move)
    assert played, "no move of a random game put a component into play"


@pytest.mark.parametrize("cls", [c for c in GAME_CLASSES if provides(c, GreedyPolicy)],
                         ids=game_ids)
def test_a_declared_greedy_policy_plays_a_legal_move_at_every_decision(cls):
    game = cls(seed=3)
    decisions = 0
    for state in random_decisions(game, 3):
        assert game.greedy_move(state) in state.legal_moves(), state.position()
        decisions += 1
    assert decisions


@pytest.mark.parametrize("cls", GAME_CLASSES, ids=game_ids)
def test_the_mcts_defaults_are_typed_and_generic_unless_tuned(cls):
    defaults = mcts_defaults(cls())
    assert isinstance(defaults, MCTSDefaults)
    if not provides(cls, TunedSearch):
        assert defaults == MCTSDefaults()


LISTED = 5000        # private states listed at most at one state (more: only counted)


@pytest.mark.parametrize("cls", [c for c in GAME_CLASSES if provides(c, Ranges)], ids=game_ids)
def test_declared_ranges_list_the_true_private_state_among_those_the_others_cannot_tell(cls):
    """At every decision of a random game, for every player: the listing is ordered, as long
    as the count says, holds the true private state and tells each apart in words
    (``private_state_text``); a world drawn from another player's
    observation (where it is not rewound to before a secret choice) lists the same: the
    listing reads only what the others see."""
    game = cls(seed=4)
    listed = 0
    for state in random_decisions(game, 4):
        for player in range(len(game.player_names)):
            count = game.private_state_count(state, player)
            if count > LISTED:
                continue
            keys = game.private_states(state, player)
            assert list(keys) == sorted(set(keys)) and len(keys) == count, state.position()
            assert game.private_state(state, player) in keys, state.position()
            texts = {game.private_state_text(key) for key in keys}
            assert len(texts) == len(keys) and all(texts), state.position()    # told apart
            observer = (player + 1) % len(game.player_names)
            world = state.determinization(observer, 7)
            if world.observation_string(observer) != state.observation_string(observer):
                continue
            assert game.private_states(world, player) == keys, state.position()
            assert game.private_state(world, player) in keys, state.position()
            listed += 1
    assert listed, "no state of a random game had few enough private states to list"


@pytest.mark.parametrize("cls", [c for c in GAME_CLASSES if provides(c, Ranges)], ids=game_ids)
def test_declared_ranges_put_back_a_start_every_player_knows(cls):
    """``with_open_start`` of a game begun from a dealt position (as a match's are): the same
    position and the same view for every player, a start that hides no private state, and
    itself again (a range walked from the dealt position would hold the true hand alone)."""
    game = cls(seed=5)
    players = range(len(game.player_names))
    state = list(random_decisions(game, 5))[-1].clone()
    start = state.clone()
    for _ in state.played_moves():
        start.undo()
    assert any(game.private_state_count(start, p) > 1 for p in players)
    opened = game.with_open_start(state)
    assert opened.position() == state.position()
    assert opened.played_moves()[-len(state.played_moves()):] == state.played_moves()
    for p in players:
        assert opened.observation_string(p) == state.observation_string(p)
    first = opened.clone()
    for _ in opened.played_moves():
        first.undo()
    assert all(game.private_state_count(first, p) == 1 for p in players)
    assert game.with_open_start(opened) is opened
