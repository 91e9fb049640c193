"""The stop flag: shared across threads and forked processes, read inside both searchers'
C loops, and what a stopped search reports."""
import os
import pickle
import threading

import pytest

from crystalpick.engine import get_game
from crystalpick.search import Limits, analyse, make_engine
from crystalpick.search.multipv import stopped_lines
from crystalpick.search.stop import StopFlag

ENGINES = [("alphabeta", {}), ("mcts", {"seed": 1}), ("mcts", {"seed": 1, "workers": 2})]
UNREACHED = Limits(nodes=3_000_000)   # a stopped search ends far below it


@pytest.fixture(params=["mattock", "maatatahay"])
def start(request):
    return get_game(request.param).new_initial_state()


def assert_legal(state, result):
    assert result.best_move in state.legal_moves()


def test_flag_is_one_word_shared_with_forked_processes():
    flag = StopFlag()
    assert not flag.is_set()
    pid = os.fork()
    if pid == 0:                       # the child sets it; the parent must see it
        flag.set()
        os._exit(0)
    os.waitpid(pid, 0)
    assert flag.is_set() and flag.wait(0)
    flag.clear()
    assert not flag.is_set() and not flag.wait(0)
    with pytest.raises(TypeError, match="fork"):
        pickle.dumps(flag)


@pytest.mark.parametrize("name,options", ENGINES)
def test_a_set_flag_ends_the_search_at_once(start, name, options):
    flag = StopFlag()
    flag.set()
    result = analyse(start, make_engine(name, **options), UNREACHED, stop=flag)
    assert_legal(start, result)
    assert result.nodes < 10**5
    if result.simulations is not None:
        assert result.simulations < 1024 * options.get("workers", 1)


@pytest.mark.parametrize("name,options", ENGINES)
def test_infinite_search_runs_until_another_thread_stops_it(start, name, options):
    flag = StopFlag()
    timer = threading.Timer(0.3, flag.set)
    timer.start()
    result = analyse(start, make_engine(name, **options), Limits(infinite=True), stop=flag)
    timer.join()
    assert_legal(start, result)
    assert result.nodes > 0


def test_an_unset_flag_changes_nothing():
    state = get_game("mattock").new_initial_state()
    plain = analyse(state, make_engine("alphabeta"), Limits(depth=4))
    flagged = analyse(state, make_engine("alphabeta"), Limits(depth=4), stop=StopFlag())
    assert (flagged.nodes, flagged.pv, flagged.score) == (plain.nodes, plain.pv, plain.score)


def test_a_kept_engine_forgets_the_flag_of_its_last_search():
    state = get_game("mattock").new_initial_state()
    engine = make_engine("alphabeta")
    flag = StopFlag()
    flag.set()
    analyse(state, engine, UNREACHED, stop=flag)
    assert analyse(state, engine, Limits(depth=3)).depth == 3


def test_infinite_takes_no_other_limit_and_needs_a_flag():
    state = get_game("mattock").new_initial_state()
    with pytest.raises(ValueError, match="no other limit"):
        Limits(infinite=True, depth=3)
    with pytest.raises(ValueError, match="stop flag"):
        analyse(state, "alphabeta", Limits(infinite=True))


def test_a_stopped_search_lists_complete_deeper_lines_first_each_at_its_depth():
    finished = (3, [(10.0, (1, 7)), (5.0, (2, 8)), (4.0, (3,))])
    # depth 4 searched the previous best (move 1) completely, then found move 2 better
    assert stopped_lines(finished, [(20.0, (2, 9)), (8.0, (1,))], 3) == \
        [(20.0, (2, 9), 4), (8.0, (1,), 4), (4.0, (3,), 3)]
    # a deeper line leads even with a lower score: scores of two depths are not ranked
    assert stopped_lines(finished, [(-6.0, (1, 5))], 3) == \
        [(-6.0, (1, 5), 4), (5.0, (2, 8), 3), (4.0, (3,), 3)]
    # no move finished one deeper: the finished iteration stands
    assert stopped_lines(finished, [], 2) == [(10.0, (1, 7), 3), (5.0, (2, 8), 3)]
    # nothing finished: the interrupted iteration's lines, at depth 1, or none
    assert stopped_lines(None, [(4.0, (5,))], 1) == [(4.0, (5,), 1)]
    assert stopped_lines(None, [], 1) == []


def unsymmetric():
    return make_engine("alphabeta", symmetry="off")


@pytest.mark.parametrize("nodes", [150_000, 180_000, 230_000])
def test_stopped_multipv_lines_say_their_depth_and_shallower_ones_keep_their_score(nodes):
    """Node budgets that stop mattock's depth-6 iteration after one, two and three of its
    lines (a node limit stops a fresh search at the same place every time). Without the
    symmetry tables: with them the start's second and third lines are images of the first,
    found in the table as soon as it finishes, so no budget stops between them."""
    start = get_game("mattock").new_initial_state()
    stopped = analyse(start, unsymmetric(), Limits(nodes=nodes), multipv=3)
    depth = stopped.depth
    depths = [line.depth for line in stopped.lines]
    assert set(depths) <= {depth, depth + 1} and depths == sorted(depths, reverse=True)
    assert depth + 1 in depths
    for level in (depth, depth + 1):
        complete = {line.move: line.score for line in analyse(
            start, unsymmetric(), Limits(depth=level), multipv=3).lines}
        scores = [line.win_probability for line in stopped.lines if line.depth == level]
        assert scores == sorted(scores, reverse=True)
        for line in stopped.lines:
            if line.depth == level and line.move in complete:
                assert line.score == complete[line.move]
    assert stopped.score == stopped.lines[0].score