"""The Mattock hook: bounded, side-to-move relative, the same end-of-game test as the
kernel, and a sampler that draws exactly the legal turns, uniformly."""
import random
from collections import Counter

import pytest

from engine import get_game
from search.evaluation import Evaluator
from search.evaluators import evaluator_for
from search.mattock_eval import MattockEvaluator


def random_positions(count, seed):
    game, rng, out = get_game("mattock"), random.Random(seed), []
    while len(out) < count:
        state = game.new_initial_state()
        while not state.is_terminal():
            out.append(state.clone())
            state.play(rng.choice(state.legal_moves()))
        out.append(state)
    return out


POSITIONS = random_positions(300, seed=9)


def test_bounded_and_game_over_agrees_with_the_kernel():
    hook = MattockEvaluator()
    for state in POSITIONS:
        assert hook.leaf_player(state) == state.current_player()
        if not state.is_terminal():
            assert -1000 <= hook.score(state) <= 1000


def test_start_favours_neither_side_beyond_the_tempo_term():
    """The start maps onto itself with colours swapped (rules section 2)."""
    start = get_game("mattock").new_initial_state()
    assert MattockEvaluator().score(start) == 10


def test_scores_are_relative_to_the_side_to_move():
    """Same board, other side to move: the terms flip sign, the tempo bonus stays."""
    game, hook, checked = get_game("mattock"), MattockEvaluator(), 0
    for state in POSITIONS[::7]:
        board, side = state.position().rsplit(" ", 1)
        other = game.parse_position(f"{board} {'o' if side == 'x' else 'x'}")
        if state.is_terminal() or other.is_terminal():
            continue
        a, b = hook.score(state), hook.score(other)
        if max(abs(a), abs(b)) < 1000:
            assert a + b == pytest.approx(20)
            checked += 1
    assert checked > 10


@pytest.mark.parametrize("index", [5, 40, 120, 250])
def test_sampler_draws_legal_turns_uniformly(index):
    state = POSITIONS[index]
    if state.is_terminal():
        assert MattockEvaluator().sample(state, 1) == -2
        return
    legal = state.legal_moves()
    draws = Counter(MattockEvaluator().sample(state, seed) for seed in range(40 * len(legal)))
    assert set(draws) <= set(legal)
    # chi-square against uniform, 40 expected per turn; generous bound so it fails only on bias
    chi2 = sum((draws[m] - 40) ** 2 / 40 for m in legal)
    assert chi2 < len(legal) + 6 * (2 * len(legal)) ** 0.5


def test_sampler_is_absent_by_default():
    assert Evaluator().sample(get_game("mattock").new_initial_state(), 1) == -3


def test_maatatahay_evaluation_is_its_documented_terms_for_the_mover():
    game, rng = get_game("maatatahay", seed=4), random.Random(4)
    hook, checked = evaluator_for(game), 0
    state = game.new_initial_state()
    while not state.is_terminal():
        player = state.current_player()
        if player < 0:
            outcomes = state.chance_outcomes()
            state.play(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
            continue
        points, position = state.kernel.scores(), state.kernel.to_position()
        stored = [position.storage_spirit[p] + position.storage_energy[p] for p in (0, 1)]
        other = 1 - player
        expected = 40 * (points[player] - points[other]) + 4 * (stored[player] - stored[other])
        assert hook.score(state) == max(-1000, min(1000, expected))
        checked += expected != 0
        state.play(rng.choice(state.legal_moves()))
    assert checked > 10
