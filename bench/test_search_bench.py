"""Search speed on the start positions, one core (pytest-benchmark).

    python -m pytest bench/test_search_bench.py --benchmark-enable

``extra_info`` holds the work done per round and the rate (simulations or nodes per second);
the issue's targets are >= 20,000 simulations/s (MCTS, random playouts) and >= 500,000
nodes/s (alpha-beta). Nothing is asserted about speed; each case checks what its search
returned (the budget spent, the depth reached, a legal principal variation, the same answer
every round), so the normal (benchmark-disabled) run is a correctness check.
"""
import pytest

from crystalpick.engine import get_game
from crystalpick.search import AlphaBetaEngine, Limits, MCTSEngine, analyse


@pytest.fixture(scope="module")
def start():
    return get_game("mattock").new_initial_state()


@pytest.fixture(scope="module")
def maatatahay_start():
    return get_game("maatatahay", seed=1).new_initial_state()     # its setup is drawn


def check(state, results, **expected):
    """What every round returned: the budget asked for (``expected``, e.g. simulations=3000),
    a best move and a principal variation that are legal from ``state``, and the same answer
    (best move, nodes) every round, since each round is a fresh engine with the same seed."""
    last = results[-1]
    for field, value in expected.items():
        assert getattr(last, field) == value, f"{field}: {getattr(last, field)} != {value}"
    assert last.nodes > 0 and last.elapsed > 0
    assert last.best_move in state.legal_moves()
    walker = state.clone()
    for move in last.pv:
        assert move in walker.legal_moves(), f"illegal move in the PV {last.pv_str}"
        walker.play(move)
    assert {(r.best_move, r.nodes) for r in results} == {(last.best_move, last.nodes)}


def rounds(benchmark, state, new_engine, limits) -> list:
    """Three benchmarked searches of ``state``, each by a fresh ``new_engine()``."""
    results = []
    benchmark.pedantic(lambda: results.append(analyse(state, new_engine(), limits)),
                       rounds=3, iterations=1)
    return results


def record(benchmark, results, work: str):
    """Store the work of the last round and the rate over all rounds (search time only)."""
    elapsed = sum(r.elapsed for r in results)
    for unit in {work, "nodes"}:
        benchmark.extra_info[unit] = getattr(results[-1], unit)
        benchmark.extra_info[f"{unit}_per_second"] = round(
            sum(getattr(r, unit) for r in results) / elapsed)


@pytest.mark.parametrize("playout,depth", [("random", 0), ("random", 1), ("heuristic", 0)],
                         ids=["random-to-end", "random-cut-at-1", "heuristic-to-end"])
def test_mcts_simulations_per_second(benchmark, start, playout, depth):
    """random-to-end is the issue's measure; random-cut-at-1 is Mattock's default."""
    results = rounds(benchmark, start,
                     lambda: MCTSEngine(seed=1, playout=playout, playout_depth=depth),
                     Limits(simulations=3000))
    check(start, results, simulations=3000)
    record(benchmark, results, "simulations")
    benchmark.extra_info["bytes_per_node"] = results[-1].bytes_per_node


def test_alphabeta_nodes_per_second(benchmark, start):
    results = rounds(benchmark, start, AlphaBetaEngine, Limits(depth=5))
    check(start, results, depth=5)
    record(benchmark, results, "nodes")
    benchmark.extra_info["depth"] = results[-1].depth


def test_maatatahay_mcts_simulations_per_second(benchmark, maatatahay_start):
    results = rounds(benchmark, maatatahay_start, lambda: MCTSEngine(seed=1),
                     Limits(simulations=3000))
    check(maatatahay_start, results, simulations=3000)
    record(benchmark, results, "simulations")


def test_maatatahay_alphabeta_nodes_per_second(benchmark, maatatahay_start):
    results = rounds(benchmark, maatatahay_start, AlphaBetaEngine, Limits(depth=8))
    check(maatatahay_start, results, depth=8)
    record(benchmark, results, "nodes")
