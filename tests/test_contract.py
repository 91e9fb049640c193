"""The game contract (engine/game.py), checked the same way for every registered game and for
Chance Nim, in each of a game's implementations: registering a game is enough to cover it.

Everything goes through the contract's public methods; nothing here knows a game's rules.
"""
from __future__ import annotations

import json
import random

import pytest

from crystalpick.engine import CHANCE, GAMES, TERMINAL, GameError, sample_chance
from crystalpick.engine.testing.chance_nim import ChanceNim

from game_helpers import tileset_copy

GAME_CLASSES = sorted(GAMES.values(), key=lambda cls: cls.name) + [ChanceNim]
SEEDS = range(3)              # random games per game and implementation
# parse_move regenerates the legal moves, which a reference implementation does slowly in
# Python: there a sample of each position's moves is parsed back, elsewhere all of them.
PARSED_PER_POSITION = {"reference": 4}
TRANSPOSITION_TRIES = 1000    # move orders tried per game for a transposition


def game_ids(cls) -> str:
    return cls.name


def with_impl():
    return [pytest.param(cls, impl, id=f"{cls.name}-{impl}")
            for cls in GAME_CLASSES for impl in cls.implementations]


def snapshot(state) -> tuple[str, int]:
    return state.position(), state.hash_key()


def choose(state, rng: random.Random) -> int:
    """A random legal move, or a chance outcome drawn by its probability."""
    if state.is_chance_node():
        return sample_chance(state, rng.random())
    return rng.choice(state.legal_moves())


# -- what must hold in every position --------------------------------------------------------

def check_moves(state, rng: random.Random) -> list[int]:
    moves = state.legal_moves()
    assert all(isinstance(m, int) and m >= 0 for m in moves), moves
    assert len(set(moves)) == len(moves), "legal moves repeat"
    sample = PARSED_PER_POSITION.get(state.game.impl, len(moves))
    for move in rng.sample(moves, min(sample, len(moves))):
        assert state.parse_move(state.move_to_str(move)) == move, state.move_to_str(move)
    return moves


def check_chance(state, moves: list[int]) -> None:
    assert state.game.capabilities.chance, "a CHANCE node in a game without chance"
    outcomes = state.chance_outcomes()
    assert [m for m, _ in outcomes] == moves, "chance outcomes are not the legal moves"
    probabilities = [p for _, p in outcomes]
    assert all(p > 0 for p in probabilities), probabilities
    assert abs(sum(probabilities) - 1.0) <= 1e-12, sum(probabilities)


def check_position_round_trip(state, moves: list[int]) -> None:
    text = state.position()
    twin = state.game.parse_position(text)
    assert twin.position() == text
    assert twin.hash_key() == state.hash_key(), text
    assert twin.current_player() == state.current_player(), text
    assert twin.legal_moves() == moves, text


def check_returns(state) -> None:
    returns = state.returns()
    assert len(returns) == state.game.capabilities.players
    if not state.is_terminal():
        assert returns == (0.0, 0.0) and state.winner() is None
        return
    assert all(r in (-1.0, 0.0, 1.0) for r in returns) and sum(returns) == 0, returns
    winner = state.winner()
    if returns[0] == returns[1]:
        assert winner is None
    else:
        assert returns[winner] > returns[1 - winner]


def check_end_reason(state) -> None:
    """A finished game says why in a short line; an unfinished one has no end reason."""
    if not state.is_terminal():
        with pytest.raises(GameError):
            state.end_reason()
        return
    reason = state.end_reason()
    assert isinstance(reason, str) and reason.strip() == reason and 0 < len(reason) <= 80
    assert "\n" not in reason


def check_observations(state) -> None:
    """Each player's observation is JSON data and one line of notation; with perfect
    information it is the whole position."""
    for player in range(state.game.capabilities.players):
        data = state.observation(player)
        assert json.loads(json.dumps(data)) == data
        text = state.observation_string(player)
        assert isinstance(text, str) and "\n" not in text
        if state.game.capabilities.perfect_information:
            assert text == state.position()


def check_mover_knows_its_moves(state, seen: dict) -> None:
    """What a player may do must follow from what that player knows: equal observations of
    the mover never come with different legal moves (a searcher over information sets relies
    on it)."""
    mover = state.current_player()
    if mover < 0:
        return
    moves = state.legal_moves()
    assert seen.setdefault((mover, state.observation_string(mover)), moves) == moves


INFORMATION_EVERY = 7     # plies between information-state checks (a default replays the game)


def check_information_states(state, recorded: dict, decisions: list) -> None:
    """Each player's information state is a tuple of ``(kind, text)`` events, JSON data, and
    its string joins them. It determines what the player observes now and, for the mover,
    the legal moves; the mover's record at a decision is kept to check perfect recall
    (:func:`check_recall`). Perfect information: the start position, then every move."""
    for player in range(state.game.capabilities.players):
        events = state.information_state(player)
        assert isinstance(events, tuple) and events
        assert all(isinstance(kind, str) and isinstance(text, str) for kind, text in events)
        assert json.loads(json.dumps(events)) == [list(e) for e in events]
        text = state.information_state_string(player)
        assert text == "; ".join(f"{kind} {words}" for kind, words in events)
        known = (state.observation_string(player),
                 state.legal_moves() if state.current_player() == player else None)
        assert recorded.setdefault((player, text), known) == known, text
        if state.game.capabilities.perfect_information:
            assert events[0][0] == "start" and len(events) == 1 + len(state.played_moves())
        if state.current_player() == player:
            decisions.append((player, events))
        beginnings = state.information_state_prefix_keys(player)
        assert len(beginnings) == len(events)
        assert beginnings[-1] == state.information_state_key(player)


def check_beginnings(state, seen: list) -> None:
    """information_state_prefix_keys: a player's key at every state met on the way (as
    ``(player, events, key)`` in ``seen``) is there exactly where the record it keys
    begins the record now, at its length, and nowhere else."""
    for player in range(state.game.capabilities.players):
        now = state.information_state(player)
        beginnings = state.information_state_prefix_keys(player)
        for who, events, key in seen:
            if who == player:
                begins = now[:len(events)] == events
                assert (key in beginnings) == begins, events
                assert not begins or beginnings[len(events) - 1] == key


def check_recall(state, decisions: list) -> None:
    """Perfect recall: a player's record at each of their decisions starts their record at
    the end of the game."""
    for player, events in decisions:
        assert state.information_state(player)[:len(events)] == events


def check_play_undo_clone(state, move: int) -> None:
    before = snapshot(state)
    state.play(move)
    after = snapshot(state)
    state.undo()
    assert snapshot(state) == before, "undo did not restore the position"
    twin = state.clone()
    twin.play(move)
    assert snapshot(twin) == after, "a clone plays differently"
    assert snapshot(state) == before, "playing in a clone changed the original"
    twin.undo()
    assert snapshot(twin) == before
    assert twin.played_moves() == state.played_moves()


# -- random games ----------------------------------------------------------------------------

@pytest.mark.parametrize("cls, impl", with_impl())
def test_random_games_keep_the_contract(cls, impl):
    assert cls.capabilities.players == 2 and len(cls.player_names) == 2
    reached_chance, met = False, []
    for seed in SEEDS:
        rng = random.Random(seed)
        state = cls(impl=impl, seed=seed).new_initial_state()
        trail = []
        seen = {}
        earlier, recorded, decisions, met = (met if seed else []), {}, [], []
        while True:
            if len(trail) % INFORMATION_EVERY == 0 or state.is_terminal():
                check_information_states(state, recorded, decisions)
                met += [(p, state.information_state(p), state.information_state_key(p))
                        for p in range(cls.capabilities.players)]
            player = state.current_player()
            assert player in (0, 1, CHANCE, TERMINAL)
            moves = check_moves(state, rng)
            check_position_round_trip(state, moves)
            check_returns(state)
            check_end_reason(state)
            check_observations(state)
            check_mover_knows_its_moves(state, seen)
            if player == TERMINAL:
                assert moves == []
                check_recall(state, decisions)
                check_beginnings(state, met + earlier)    # another game's: mostly not
                break
            assert moves, "a live position without moves"
            if player == CHANCE:
                reached_chance = True
                check_chance(state, moves)
            move = choose(state, rng)
            check_play_undo_clone(state, move)
            trail.append(snapshot(state))
            state.play(move)
            assert cls.max_game_length is None or len(trail) <= cls.max_game_length, \
                "longer than max_game_length"
        while trail:                        # undo all the way back to the start
            state.undo()
            assert snapshot(state) == trail.pop()
    assert reached_chance == cls.capabilities.chance, "capabilities.chance is not what it does"


def rule_variants():
    """Each game with two implementations: its default rules (several games), then each
    other value of each rule option on its own (one game)."""
    for cls in GAME_CLASSES:
        if len(cls.implementations) < 2:
            continue
        yield pytest.param(cls, {}, SEEDS, id=f"{cls.name}-default")
        for option in cls.rule_options:
            for choice in option.choices:
                if choice != option.default:
                    yield pytest.param(cls, {option.name: choice}, range(1),
                                       id=f"{cls.name}-{option.name}={choice}")


@pytest.mark.parametrize("cls, rules, seeds", list(rule_variants()))
def test_reference_and_fast_agree(cls, rules, seeds):
    for seed in seeds:
        rng = random.Random(seed)
        states = [cls(rules, impl=impl, seed=seed).new_initial_state()
                  for impl in cls.implementations]
        while True:
            first = states[0]
            for other in states[1:]:
                assert other.position() == first.position()
                assert other.hash_key() == first.hash_key(), first.position()
                assert other.current_player() == first.current_player(), first.position()
                assert other.legal_moves() == first.legal_moves(), first.position()
                if first.is_chance_node():
                    assert other.chance_outcomes() == first.chance_outcomes(), first.position()
                assert other.returns() == first.returns(), first.position()
            if first.is_terminal():
                assert {other.end_reason() for other in states} == {first.end_reason()}
                break
            move = choose(first, rng)
            for state in states:
                state.play(move)


# -- keys ------------------------------------------------------------------------------------

@pytest.mark.parametrize("cls", GAME_CLASSES, ids=game_ids)
def test_equal_positions_by_different_paths_have_equal_keys(cls):
    """Moves a, x, b against b, x, a from positions of a random game: where both orders are
    legal and meet, the keys must meet too; where they do not meet, the keys must differ."""
    rng = random.Random(1)
    game = cls(seed=1)
    state = game.new_initial_state()
    met = 0
    for _ in range(TRANSPOSITION_TRIES):
        if state.is_terminal():
            state = game.new_initial_state()
        moves = state.legal_moves()
        if not state.is_chance_node() and len(moves) >= 2:
            a, b = rng.sample(moves, 2)
            one, two = state.clone(), state.clone()
            one.play(a)
            if not one.is_terminal():
                x = choose(one, rng)
                if play_all(one, [x, b]) and play_all(two, [b, x, a]):
                    if one.position() == two.position():
                        met += 1
                        assert one.hash_key() == two.hash_key(), one.position()
                    else:
                        assert one.hash_key() != two.hash_key(), (one.position(),
                                                                  two.position())
        state.play(choose(state, rng))
    if not met:
        pytest.skip(f"{cls.name}: no two move orders met in {TRANSPOSITION_TRIES} tries")


def play_all(state, moves) -> bool:
    """Play ``moves`` if each is legal in turn (False, part played, if one is not)."""
    for move in moves:
        if move not in state.legal_moves():
            return False
        state.play(move)
    return True


def positions_of_a_random_game(cls, seed: int = 5) -> list[str]:
    rng = random.Random(seed)
    state = cls(seed=seed).new_initial_state()
    positions = [state.position()]
    while not state.is_terminal():
        state.play(choose(state, rng))
        positions.append(state.position())
    return positions


def other_choices(cls) -> list[tuple[str, str]]:
    return [(option.name, choice) for option in cls.rule_options
            for choice in option.choices if choice != option.default]


@pytest.mark.parametrize("cls", GAME_CLASSES, ids=game_ids)
def test_every_rule_option_is_part_of_the_identity(cls):
    assert cls().identity == cls().identity
    identities = {cls().identity} | {cls({name: choice}).identity
                                     for name, choice in other_choices(cls)}
    assert len(identities) == 1 + len(other_choices(cls))


@pytest.mark.parametrize("cls", GAME_CLASSES, ids=game_ids)
def test_rule_options_that_change_play_change_the_keys(cls):
    """The same position text read under another value of a rule option: where that value is
    written into the position (the option changes play; options that only pick the start or
    the board are not), the key must differ too."""
    default = cls()
    positions = positions_of_a_random_game(cls)[::7]
    changing = []
    for name, choice in other_choices(cls):
        changed = cls({name: choice})
        for text in positions:
            try:
                other = changed.parse_position(text)
            except GameError:               # e.g. another board size: not the same board
                continue
            if other.position() != text:
                changing.append(name)
                assert other.hash_key() != default.parse_position(text).hash_key(), \
                    (name, choice, text)
    if not changing:
        pytest.skip(f"{cls.name} has no rule option written into its positions")


@pytest.mark.parametrize("cls", [c for c in GAME_CLASSES if c.uses_tileset], ids=game_ids)
@pytest.mark.parametrize("impl", ["fast", "reference"])
def test_another_tileset_is_another_identity_and_other_keys(cls, impl, tmp_path):
    """Identity and keys follow the component data's content, not the file it came from."""
    if impl not in cls.implementations:
        pytest.skip(f"{cls.name} has no {impl} implementation")
    default = cls(impl=impl)
    copy = cls(impl=impl, tileset=tileset_copy(tmp_path, cls.name, edited=False))
    edited = cls(impl=impl, tileset=tileset_copy(tmp_path, cls.name, edited=True))
    assert copy.identity == default.identity
    assert edited.identity != default.identity
    assert edited.component_digest() != default.component_digest()
    for text in positions_of_a_random_game(cls)[::7]:
        mine, same, theirs = (g.parse_position(text) for g in (edited, copy, default))
        assert mine.position() == same.position() == theirs.position() == text
        assert same.hash_key() == theirs.hash_key(), text
        assert mine.hash_key() != theirs.hash_key(), text
