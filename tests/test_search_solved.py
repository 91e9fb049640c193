"""Solved Mattock positions (positions/mattock.solved, proven by exhaustive search): both
searchers find a winning move within a stated budget; alpha-beta reports the exact length."""
import pytest

from engine import get_game
from search import AlphaBetaEngine, Limits, MCTSEngine, analyse
from search.solved import load_solved, solve

CASES = load_solved("mattock")
ALPHABETA_BUDGET = 2_000_000       # nodes; the searches need far fewer
MCTS_BUDGET = 20_000               # simulations


def test_the_suite_has_short_and_longer_wins():
    assert len(CASES) >= 4
    assert {case.wins for case in CASES} >= {3, 5}


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_alphabeta_proves_the_shortest_win(case):
    state = get_game("mattock").parse_position(case.position)
    result = analyse(state, AlphaBetaEngine(), Limits(depth=case.wins + 2,
                                                      nodes=ALPHABETA_BUDGET))
    assert result.lines[0].proof_plies == case.wins
    assert result.score_text == f"win in {case.wins} plies"
    assert result.best_move_str in case.winning


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_mcts_finds_a_winning_move(case):
    state = get_game("mattock").parse_position(case.position)
    result = analyse(state, MCTSEngine(seed=1), Limits(simulations=MCTS_BUDGET))
    assert result.best_move_str in case.winning


def test_the_first_entry_re_solves_to_the_same_answer():
    case = CASES[0]
    wins, winning = solve(get_game("mattock").parse_position(case.position))
    assert wins == case.wins and sorted(winning) == sorted(case.winning)
