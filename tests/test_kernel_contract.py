"""The kernel contract (engine/kernel.pxd/.pyx): one ply capacity that every game fits, the
Python boundary written once on GameKernel, and searchability declared by the State."""
import random

import pytest

from crystalpick.engine import GAMES, GameError, get_game, sample_chance
from crystalpick.engine.game import State
from crystalpick.engine.kernel import MAX_PLIES
from crystalpick.engine.testing.chance_nim import ChanceNim
from crystalpick.search import Limits, analyse, make_engine

GAME_CLASSES = list(GAMES.values()) + [ChanceNim]


@pytest.mark.parametrize("game", GAME_CLASSES, ids=lambda g: g.name)
def test_every_game_fits_the_ply_capacity(game):
    """A bounded game fits the fixed capacity; an unbounded one (None) grows its history."""
    assert game.max_game_length is None or 0 < game.max_game_length <= MAX_PLIES


def test_an_unbounded_game_grows_its_history_and_undoes_all_of_it():
    """The card battle has no length bound (max_game_length None): its kernel plays on past
    MAX_PLIES plies, clones and undoes all of it, and ISMCTS searches there (its stacks
    count from its root)."""
    game = get_game("cardbattle", {"target": "15", "deck1": "arsenal", "deck2": "arsenal",
                                   "tie-boosts": "yes"})
    assert game.max_game_length is None
    state = game.setup_state()
    rng = random.Random(131)
    keys = []
    while len(keys) < MAX_PLIES + 8 or state.is_chance_node():
        keys.append(state.hash_key())
        state.play(sample_chance(state, rng.random()) if state.is_chance_node()
                   else rng.choice(state.legal_moves()))
    twin = state.clone()
    result = analyse(state, make_engine("ismcts", seed=1), Limits(simulations=200))
    assert result.best_move in state.legal_moves() and result.nodes > 200   # plies searched
    assert twin.kernel.ply == len(keys) > MAX_PLIES
    while keys:
        state.undo()
        assert state.hash_key() == keys.pop()


def test_play_refuses_to_outgrow_the_history_and_undo_an_empty_one():
    kernel = ChanceNim().parse_position("7/0/0/0/8").search_kernel()
    with pytest.raises(IndexError):
        kernel.undo()
    for _ in range(MAX_PLIES):          # taking 0 stones is never legal, but fills the history
        kernel.play(0)
    assert kernel.ply == MAX_PLIES
    with pytest.raises(OverflowError, match=str(MAX_PLIES)):
        kernel.play(0)
    kernel.undo()
    assert kernel.ply == MAX_PLIES - 1


def test_generic_boundary_agrees_with_the_python_walk():
    """Chance Nim has no native perft or chance list of its own: GameKernel's serve it."""
    state = ChanceNim().parse_position("9/0/0/0/8")
    for depth in range(1, 7):
        assert state.perft(depth) == State.perft(state, depth)   # the generic walk
    state.play(state.legal_moves()[0])
    outcomes = state.chance_outcomes()
    assert [move for move, _ in outcomes] == state.legal_moves()
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_clone_is_independent(name):
    state = get_game(name, seed=3).new_initial_state()
    twin = state.clone()
    twin.play(twin.legal_moves()[0])
    assert twin.hash_key() != state.hash_key()
    twin.undo()
    assert twin.position() == state.position() and twin.hash_key() == state.hash_key()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_only_the_fast_implementation_can_be_searched(name):
    reference = get_game(name, impl="reference", seed=3).new_initial_state()
    with pytest.raises(GameError, match="cannot be searched; use the fast one"):
        reference.search_kernel()
    refusal = ("cannot be searched" if GAMES[name].capabilities.perfect_information
               else "cannot play")       # the searchers refuse what they cannot handle first
    with pytest.raises(GameError, match=refusal):
        analyse(reference, "alphabeta", Limits(depth=1))
    if "fast" in GAMES[name].implementations:
        assert get_game(name, seed=3).new_initial_state().search_kernel() is not None


def chance_and_decision_kernels(game, count: int, seed: int):
    """Kernels of the chance and decision states met in random games of ``game``."""
    rng, chance, decisions = random.Random(seed), [], []
    while len(chance) < count and len(decisions) < 20 * count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(chance) < count:
            found = chance if state.is_chance_node() else decisions
            found.append(state.search_kernel().clone())
            state.play(rng.choice(state.legal_moves()))
    return chance, decisions


@pytest.mark.parametrize("game", [get_game(name, seed=5) for name in sorted(GAMES)]
                         + [ChanceNim()], ids=lambda g: g.name)
def test_sampled_outcomes_follow_the_chance_probabilities(game):
    """sample_outcome (native in a game or GameKernel's) draws each outcome of
    chance_outcomes with its probability, and nothing at a decision."""
    chance, decisions = chance_and_decision_kernels(game, 12, 8)
    assert all(kernel.sampled_outcome(1) == -1 for kernel in decisions[:50])
    trials = 4000
    for number, kernel in enumerate(chance):
        expected = dict(kernel.chance_outcomes())
        seen = {}
        for t in range(trials):
            outcome = kernel.sampled_outcome(number * trials + t + 1)
            seen[outcome] = seen.get(outcome, 0) + 1
        assert set(seen) <= set(expected)
        for outcome, p in expected.items():
            spread = 5 * (p * (1 - p) / trials) ** 0.5 + 1e-9
            assert abs(seen.get(outcome, 0) / trials - p) <= spread, (kernel.key, outcome)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_information_state_keys_split_as_the_strings_do(name):
    """information_state_key: equal information states give equal keys, and undo gives
    back the keys of before; with hidden information the key is exact (different
    information states, different keys), with perfect information it is the position's
    (transpositions share it: kernel.pxd)."""
    game = get_game(name, seed=3)
    exact = not game.capabilities.perfect_information
    rng = random.Random(3)
    state = game.new_initial_state()
    key_of, string_of = {}, {}
    for ply in range(60):
        if state.is_terminal():
            break
        if exact or ply % 10 == 0:
            for player in (0, 1):
                text = state.information_state_string(player)
                key = state.information_state_key(player)
                assert key_of.setdefault((player, text), key) == key
                if exact:
                    assert string_of.setdefault((player, key), text) == text
                else:
                    assert key == state.hash_key()
        move = sample_chance(state, rng.random()) if state.is_chance_node() else \
            rng.choice(state.legal_moves())
        before = [state.information_state_key(p) for p in (0, 1)]
        state.play(move)
        state.undo()
        assert [state.information_state_key(p) for p in (0, 1)] == before
        state.play(move)
