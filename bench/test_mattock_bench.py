"""Mattock move generation speed: perft (fast and reference on the same positions, in the
same run), legal-move generation, make/unmake. Each case also checks its count, so running
the suite with --benchmark-disable (as CI does) is a correctness check."""
import random

import pytest

from engine import get_game
from positions import perft_suite

SUITE = {case.id: case for case in perft_suite("mattock")}
PERFT_CASES = [("start-5", 4, "fast"), ("start-5", 3, "reference"),
               ("start-7", 3, "fast"), ("start-7", 2, "reference"),
               ("random-5-blocking-mid", 3, "fast"), ("random-5-blocking-mid", 2, "reference")]


@pytest.mark.parametrize("case_id,depth,impl", PERFT_CASES)
def test_perft(benchmark, record_rate, case_id, depth, impl):
    case = SUITE[case_id]
    state = get_game("mattock", impl=impl).parse_position(case.position)
    nodes = benchmark.pedantic(state.perft, args=(depth,), rounds=3 if impl == "fast" else 1)
    assert nodes == case.counts[depth]
    record_rate(nodes)


def sample_positions(count=200, seed=1):
    game = get_game("mattock")
    rng = random.Random(seed)
    s, out = game.new_initial_state(), []
    while len(out) < count:
        if s.is_terminal():
            s = game.new_initial_state()
        out.append(s.position())
        s.play(rng.choice(s.legal_moves()))
    return out


@pytest.mark.parametrize("impl", ["fast", "reference"])
def test_legal_move_generation(benchmark, record_rate, impl):
    game = get_game("mattock", impl=impl)
    states = [game.parse_position(p) for p in sample_positions()]

    def generate():
        return sum(len(s.legal_moves()) for s in states)

    moves = benchmark(generate)
    assert moves == sum(len(get_game("mattock").parse_position(p).legal_moves())
                        for p in sample_positions())
    record_rate(len(states), "positions")


@pytest.mark.parametrize("impl", ["fast", "reference"])
def test_make_unmake(benchmark, record_rate, impl):
    state = get_game("mattock", impl=impl).parse_position(SUITE["random-5-blocking-mid"].position)
    moves = state.legal_moves()
    before = state.position()

    def make_unmake():
        for move in moves:
            state.play(move)
            state.undo()

    benchmark(make_unmake)
    assert state.position() == before
    record_rate(len(moves), "make_unmake")
