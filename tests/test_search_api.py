"""The analysis API: limits, point of view, multi-PV, progress, seeds, errors."""
import pytest

from crystalpick.engine import get_game
from crystalpick.engine.game import GameError
from crystalpick.search import AlphaBetaEngine, Limits, MCTSEngine, analyse
from crystalpick.engine.testing.chance_nim import ChanceNim


@pytest.fixture
def start():
    return get_game("mattock").new_initial_state()


def test_limits_validate_and_budget_from_clock():
    with pytest.raises(ValueError):
        Limits(depth=0)
    with pytest.raises(ValueError):
        Limits(time=-1)
    assert Limits(time=2.0).budget() == (2.0, 2.0)
    soft, hard = Limits(clock=60.0, increment=1.0).budget()
    assert soft == pytest.approx(60 / 20 + 0.75) and hard == pytest.approx(3 * soft)
    soft, hard = Limits(clock=1.0, increment=10.0).budget()
    assert hard <= 0.5 and soft <= hard                 # never more than half the clock
    assert Limits(time=0.5, clock=600.0).budget() == (0.5, 0.5)
    assert Limits(depth=3).budget() == (None, None)


def test_unbounded_search_and_finished_game_are_refused(start):
    with pytest.raises(ValueError):
        analyse(start, "alphabeta", Limits())
    with pytest.raises(ValueError, match="simulations"):
        analyse(start, "mcts", Limits(depth=3))            # depth never stops MCTS
    with pytest.raises(ValueError, match="depth"):
        analyse(start, "alphabeta", Limits(simulations=10))
    finished = get_game("mattock").new_initial_state()
    while not finished.is_terminal():
        finished.play(finished.legal_moves()[0])
    with pytest.raises(GameError):
        analyse(finished, "alphabeta", Limits(depth=1))


@pytest.mark.parametrize("engine,limits", [("alphabeta", Limits(depth=3)),
                                           ("mcts", Limits(simulations=500))])
def test_point_of_view_is_explicit_and_flips_the_score(start, engine, limits):
    own = analyse(start, MCTSEngine(seed=1) if engine == "mcts" else engine, limits)
    other = analyse(start, MCTSEngine(seed=1) if engine == "mcts" else engine, limits,
                    point_of_view=1)
    assert own.point_of_view == 0 and own.point_of_view_name == "first"
    assert other.point_of_view == 1 and other.point_of_view_name == "second"
    assert other.score.relative == -own.score.relative and other.score.player == 1
    assert other.score.pov(0) == own.score.relative
    assert other.win_probability == pytest.approx(1 - own.win_probability)
    assert own.best_move == other.best_move


@pytest.mark.parametrize("engine,limits", [("alphabeta", Limits(depth=2)),
                                           ("mcts", Limits(simulations=800))])
def test_multipv_lines_are_distinct_legal_and_ordered(start, engine, limits):
    result = analyse(start, engine, limits, multipv=3)
    moves = [line.move for line in result.lines]
    assert len(moves) == 3 and len(set(moves)) == 3
    assert set(moves) <= set(start.legal_moves())
    assert result.best_move == moves[0] and result.pv[0] == moves[0]
    if engine == "alphabeta":
        scores = [line.score.relative for line in result.lines]
        assert scores == sorted(scores, reverse=True)
    else:
        visits = [line.visits for line in result.lines]
        assert visits == sorted(visits, reverse=True)


def test_pv_is_playable_and_reported_in_notation(start):
    result = analyse(start, "alphabeta", Limits(depth=4))
    state = start.clone()
    for move, text in zip(result.pv, result.pv_str):
        assert move in state.legal_moves() and state.move_to_str(move) == text
        state.play(move)
    assert result.depth == 4 and result.nodes > 0 and result.elapsed > 0


def test_progress_reports_each_iteration_and_mcts_chunks(start):
    reports = []
    analyse(start, "alphabeta", Limits(depth=3), progress=reports.append)
    assert [r.depth for r in reports] == [1, 2, 3]
    reports.clear()
    analyse(start, MCTSEngine(seed=2), Limits(simulations=2500), progress=reports.append)
    assert len(reports) >= 2
    assert [r.simulations for r in reports] == sorted(r.simulations for r in reports)


def test_state_is_left_unchanged(start):
    before = start.position()
    analyse(start, "alphabeta", Limits(depth=3))
    analyse(start, "mcts", Limits(simulations=300))
    assert start.position() == before


def test_mcts_reports_the_seed_it_drew_and_memory(start):
    result = analyse(start, "mcts", Limits(simulations=200))
    assert isinstance(result.seed, int)
    assert result.bytes_per_node == 32 and result.tree_nodes > 1
    again = analyse(start, MCTSEngine(seed=result.seed), Limits(simulations=200))
    assert [(l.move, l.visits) for l in again.lines] == [(l.move, l.visits) for l in result.lines]


def test_node_limit_stops_alphabeta_reproducibly(start):
    first = analyse(start, AlphaBetaEngine(), Limits(nodes=5000))
    second = analyse(start, AlphaBetaEngine(), Limits(nodes=5000))
    assert first.nodes == second.nodes <= 5000
    assert first.depth == second.depth and first.pv == second.pv


@pytest.mark.parametrize("engine,limits", [("alphabeta", Limits(depth=6)),
                                           ("mcts", Limits(simulations=500))])
def test_chance_root_gives_expectation_without_a_move(engine, limits):
    state = ChanceNim().parse_position("5/1/1/1/8")
    assert state.is_chance_node()
    results = [analyse(state, MCTSEngine(seed=2) if engine == "mcts" else engine, limits,
                       point_of_view=pov) for pov in (0, 1)]
    assert all(r.best_move is None and r.lines == [] for r in results)
    assert results[1].score.relative == -results[0].score.relative


@pytest.mark.parametrize("engine", ["alphabeta", "mcts"])
def test_a_move_even_when_the_time_is_gone_before_the_search_starts(start, engine):
    result = analyse(start, engine, Limits(time=1e-9))
    assert result.best_move in start.legal_moves()
