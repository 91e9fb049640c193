"""Card battle speed: round resolution (perft through the choose, boost and tie-break steps,
fast and reference on the same positions) and random playouts to the end with two sample
decks (the kernel's native loop against the reference driven from Python), with the
fast/reference ratio in each fast case's extra_info.

Each case also checks its result, so the normal (benchmark-disabled) run is a correctness
check. Measure with: pytest bench/test_cardbattle_bench.py --benchmark-enable
"""
from __future__ import annotations

import random
import time

import pytest

from crystalpick.engine.cardbattle import CardBattle
from crystalpick.positions import perft_suite

ROUND_CASES = [("choose", 6), ("boost", 5), ("tie-break", 4)]
DECKS = {"deck1": "titas", "deck2": "arsenal"}
PLAYOUTS = {"fast": 20_000, "reference": 20}


def entry(case_id):
    return next(c for c in perft_suite("cardbattle") if c.id == case_id)


def reference_playouts(state, games: int, seed: int) -> int:
    rng = random.Random(seed)
    plies = 0
    for _ in range(games):
        walker = state.clone()
        while not walker.is_terminal():
            moves = walker.legal_moves()
            walker.play(moves[rng.randrange(len(moves))])
            plies += 1
    return plies


def rate(function, *args) -> float:
    started = time.perf_counter()
    function(*args)
    return time.perf_counter() - started


@pytest.mark.parametrize("case_id,depth", ROUND_CASES)
def test_round_resolution(benchmark, record_rate, case_id, depth):
    case = entry(case_id)
    fast = CardBattle().parse_position(case.position)
    nodes = benchmark.pedantic(fast.perft, args=(depth,), rounds=3)
    assert nodes == case.counts[depth]
    record_rate(nodes)
    if benchmark.stats is not None:
        reference = CardBattle(impl="reference").parse_position(case.position)
        benchmark.extra_info["fast_over_reference"] = round(
            rate(reference.perft, depth) / benchmark.stats.stats.mean, 1)


def test_random_playouts(benchmark, record_rate):
    state = CardBattle(DECKS).setup_state()
    games = PLAYOUTS["fast"]
    plies, results = benchmark.pedantic(state.kernel.random_playouts, args=(games, 1),
                                        rounds=3)
    assert sum(results) == games and plies > games * 30
    record_rate(games, "games")
    if benchmark.stats is not None:
        reference = CardBattle(DECKS, impl="reference").setup_state()
        per_game = rate(reference_playouts, reference, PLAYOUTS["reference"], 1) \
            / PLAYOUTS["reference"]
        benchmark.extra_info["fast_over_reference"] = round(
            per_game / (benchmark.stats.stats.mean / games), 1)
