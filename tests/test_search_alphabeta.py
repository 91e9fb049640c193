"""Alpha-beta: reproducible node counts, exact expectimax at chance nodes, proofs."""
import random

import pytest

from crystalpick.engine import get_game
from crystalpick.search import AlphaBetaEngine, Limits, analyse
from crystalpick.search.alphabeta import PROOF_BOUND_SCORE
from crystalpick.search.score import LOSS, WIN, Proven, Value, from_alphabeta
from crystalpick.engine.testing.chance_nim import ChanceNim

from search_helpers import expectimax

EVAL_BOUND = PROOF_BOUND_SCORE - 1      # search/evaluation.pxd
from crystalpick.engine.game import sample_chance


def test_node_counts_at_fixed_depth_are_reproducible():
    state = get_game("mattock").state(None, "h5 g3")
    runs = [analyse(state, AlphaBetaEngine(), Limits(depth=4)) for _ in range(2)]
    assert runs[0].nodes == runs[1].nodes
    assert runs[0].pv == runs[1].pv and runs[0].score == runs[1].score


def test_pruning_does_not_change_the_fixed_depth_value():
    """LMR aside, PVS, aspiration and the TT must give plain minimax's value."""
    state = get_game("mattock").state(None, "h5 g3")
    plain = analyse(state, AlphaBetaEngine(lmr=False, aspiration=False), Limits(depth=3))
    full = analyse(state, AlphaBetaEngine(lmr=False, aspiration=True), Limits(depth=3))
    assert plain.score == full.score


@pytest.mark.parametrize("position", ["6/0/0/0/6", "7/0/0/0/8", "4/1/0/2/7", "9/0/0/0/6"])
@pytest.mark.parametrize("star2", [False, True])
def test_expectimax_with_star_pruning_is_exact(position, star2):
    state = ChanceNim().parse_position(position)
    exact = expectimax(state.clone())
    exact = exact if state.current_player() == 0 else -exact
    result = analyse(state, AlphaBetaEngine(star2=star2), Limits(depth=12))
    assert_same_score(result.score.relative, from_alphabeta(exact))
    child_values = {}
    for move in state.legal_moves():
        child = state.clone()
        child.play(move)
        child_values[move] = expectimax(child)
    sign = 1 if state.current_player() == 0 else -1
    best = max(sign * v for v in child_values.values())
    assert sign * child_values[result.best_move] == pytest.approx(best, abs=1e-6)


def assert_same_score(got, expected):
    assert type(got) is type(expected)
    if isinstance(expected, Value):
        assert got.units == pytest.approx(expected.units, abs=1e-6)
    else:
        assert got.result == expected.result
        assert got.plies == pytest.approx(expected.plies, abs=1e-6)


def test_star1_prunes_compared_with_full_expectimax():
    state = ChanceNim().parse_position("9/0/0/0/7")
    pruned = analyse(state, AlphaBetaEngine(star2=False), Limits(depth=12))
    # without a window nothing can be pruned: every outcome of every chance node is searched
    full = count_tree(state.clone())
    assert pruned.nodes < full


def count_tree(state) -> int:
    if state.is_terminal():
        return 1
    total = 1
    for move in state.legal_moves():
        state.play(move)
        total += count_tree(state)
        state.undo()
    return total


def test_win_and_loss_are_reported_in_plies():
    state = ChanceNim().parse_position("3/0/0/0/8")
    result = analyse(state, "alphabeta", Limits(depth=4))
    assert result.score.relative == Proven(WIN, 1) and result.lines[0].score.text() == "win in 1 ply"
    assert result.win_probability == 1.0 and result.proven


def test_star2_probing_keeps_the_value_on_maatatahay():
    game, rng = get_game("maatatahay", seed=3), random.Random(5)
    state, checked = game.new_initial_state(), 0
    while not state.is_terminal() and checked < 4:
        if state.is_chance_node():
            state.play(sample_chance(state, rng.random()))
            continue
        if len(state.legal_moves()) > 1:
            values = [analyse(state, AlphaBetaEngine(star2=star2), Limits(depth=4)).score
                      for star2 in (False, True)]
            assert_same_score(values[0].relative, values[1].relative)
            checked += 1
        state.play(rng.choice(state.legal_moves()))
    assert checked == 4


def test_a_run_of_chance_nodes_uses_up_depth():
    """Maatatahay's setup is a chain of draws: searched for free they would never end."""
    setup = ".,.,.,.,./.,.,.,.,./.,.,.,.,./.,.,.,.,./.,.,.,.,. temples=- store=se/se " \
            "bag=13s13e supply=30 relics=- decks=B1,B2,B3,B4,B5,B6,B7,B8,B9,B10,B11,B12/" \
            "W1,W2,W3,W4,W5,W6,W7,W8,W9,W10,W11,W12 pairs=- active=B pending=layout"
    state = get_game("maatatahay").parse_position(setup)
    assert state.is_chance_node()
    result = analyse(state, "alphabeta", Limits(depth=3, nodes=1_000_000))
    assert result.depth == 3 and result.best_move is None


def test_stopped_inside_the_first_iteration_still_reports_a_scored_move():
    state = get_game("mattock").new_initial_state()
    result = analyse(state, "alphabeta", Limits(nodes=10))
    assert result.depth == 0 and result.best_move in state.legal_moves()


def test_a_chance_node_averages_proofs_with_evaluations_only_within_the_bound():
    """Outcome 3 (probability 1/2) is a win in one more ply, outcomes 4 and 5 are not
    settled at depth 2: the value is an evaluation, not half of a proof's MATE - 2."""
    state = ChanceNim().parse_position("3/0/1/1/8")
    assert state.is_chance_node()
    score = analyse(state, "alphabeta", Limits(depth=2)).score.relative
    assert isinstance(score, Value)
    assert 0.5 * PROOF_BOUND_SCORE - 0.5 * EVAL_BOUND <= score.units < PROOF_BOUND_SCORE


def test_a_chance_node_keeps_a_proof_when_every_outcome_is_proven_alike():
    state = ChanceNim().parse_position("1/0/1/1/8")      # 1, 2 or 3 stones: all taken at once
    assert analyse(state, "alphabeta", Limits(depth=2)).score.relative == Proven(WIN, 2)
    assert analyse(state, "alphabeta", Limits(depth=2),
                   point_of_view=1).score.relative == Proven(LOSS, 2)
