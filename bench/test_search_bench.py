"""Search speed on the start positions, one core (pytest-benchmark).

    python -m pytest bench/test_search_bench.py --benchmark-enable

``extra_info`` holds the work done per round and the rate (simulations or nodes per second);
the issue's targets are >= 20,000 simulations/s (MCTS, random playouts) and >= 500,000
nodes/s (alpha-beta). Nothing is asserted about speed.
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
    results = []

    def run():
        results.append(analyse(start, MCTSEngine(seed=1, playout=playout, playout_depth=depth),
                               Limits(simulations=3000)))
    benchmark.pedantic(run, rounds=3, iterations=1)
    record(benchmark, results, "simulations")
    benchmark.extra_info["bytes_per_node"] = results[-1].bytes_per_node


def test_alphabeta_nodes_per_second(benchmark, start):
    results = []

    def run():
        results.append(analyse(start, AlphaBetaEngine(), Limits(depth=5)))
    benchmark.pedantic(run, rounds=3, iterations=1)
    record(benchmark, results, "nodes")
    benchmark.extra_info["depth"] = results[-1].depth


def test_maatatahay_mcts_simulations_per_second(benchmark, maatatahay_start):
    results = []

    def run():
        results.append(analyse(maatatahay_start, MCTSEngine(seed=1), Limits(simulations=3000)))
    benchmark.pedantic(run, rounds=3, iterations=1)
    record(benchmark, results, "simulations")


def test_maatatahay_alphabeta_nodes_per_second(benchmark, maatatahay_start):
    results = []

    def run():
        results.append(analyse(maatatahay_start, AlphaBetaEngine(), Limits(depth=8)))
    benchmark.pedantic(run, rounds=3, iterations=1)
    record(benchmark, results, "nodes")
