"""Solved positions (positions/<game>.solved, proven by exhaustive search): both searchers
find a winning move within a stated budget; alpha-beta reports the exact length."""
import pytest

from crystalpick.engine import get_game
from crystalpick.search import AlphaBetaEngine, Limits, MCTSEngine, analyse
from crystalpick.search.score import WIN, Proven
from crystalpick.solvers.solved import load_solved, solve

GAMES = ("mattock", "maatatahay")
CASES = [(game, case) for game in GAMES for case in load_solved(game)]
IDS = [case.id for _, case in CASES]
ALPHABETA_BUDGET = 2_000_000       # nodes; the searches need far fewer
MCTS_BUDGET = 20_000               # simulations


@pytest.mark.parametrize("game", GAMES)
def test_each_suite_has_short_and_longer_wins(game):
    cases = load_solved(game)
    assert len(cases) >= 4
    assert {case.wins for case in cases} >= {3, 5}


@pytest.mark.parametrize("game,case", CASES, ids=IDS)
def test_alphabeta_proves_the_shortest_win(game, case):
    state = get_game(game).parse_position(case.position)
    result = analyse(state, AlphaBetaEngine(), Limits(depth=case.wins + 2,
                                                      nodes=ALPHABETA_BUDGET))
    assert result.lines[0].score.relative == Proven(WIN, case.wins)
    assert result.score.text() == f"win in {case.wins} plies"
    assert result.best_move_str in case.winning


@pytest.mark.parametrize("game,case", CASES, ids=IDS)
def test_mcts_finds_a_winning_move(game, case):
    state = get_game(game).parse_position(case.position)
    result = analyse(state, MCTSEngine(seed=1), Limits(simulations=MCTS_BUDGET))
    assert result.best_move_str in case.winning


@pytest.mark.parametrize("game", GAMES)
def test_the_first_entry_re_solves_to_the_same_answer(game):
    case = load_solved(game)[0]
    wins, winning = solve(get_game(game).parse_position(case.position))
    assert wins == case.wins and sorted(winning) == sorted(case.winning)
