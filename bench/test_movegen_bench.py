"""Move generation speed for every game: perft (fast and reference on the same positions, in
the same run), legal-move generation, make/unmake, and Maatatahay's combat resolution.

Each case also checks its count, so running the suite with --benchmark-disable (as the normal
test run does) is a correctness check. Measure with: pytest bench --benchmark-enable
"""
import random

import pytest

from crystalpick.engine import get_game
from crystalpick.positions import perft_suite

# (game, perft-table entry, depth): the fast and the reference run each case.
PERFT_CASES = [("mattock", "start-5", 3), ("mattock", "start-7", 2),
               ("mattock", "random-5-blocking-mid", 2),
               ("maatatahay", "start-diagonal", 4), ("maatatahay", "order-pending", 5),
               ("maatatahay", "multi-fight-placement", 4)]
# Deeper counts the reference would take minutes for: fast only.
FAST_ONLY_CASES = [("mattock", "start-5", 4), ("maatatahay", "start-diagonal", 5)]
MAKE_UNMAKE_CASES = {"mattock": "random-5-blocking-mid", "maatatahay": "elder-and-convert"}


def entry(game, case_id):
    return next(c for c in perft_suite(game) if c.id == case_id)


def run_perft(benchmark, record_rate, game, case_id, depth, impl):
    case = entry(game, case_id)
    state = get_game(game, impl=impl).parse_position(case.position)
    nodes = benchmark.pedantic(state.perft, args=(depth,), rounds=3 if impl == "fast" else 1)
    assert nodes == case.counts[depth]
    record_rate(nodes)


@pytest.mark.parametrize("impl", ["fast", "reference"])
@pytest.mark.parametrize("game,case_id,depth", PERFT_CASES)
def test_perft(benchmark, record_rate, game, case_id, depth, impl):
    run_perft(benchmark, record_rate, game, case_id, depth, impl)


@pytest.mark.parametrize("game,case_id,depth", FAST_ONLY_CASES)
def test_perft_deep(benchmark, record_rate, game, case_id, depth):
    run_perft(benchmark, record_rate, game, case_id, depth, "fast")


def decision_positions(game_name, count=200, seed=1):
    """Positions from seeded random games (chance nodes skipped), as position strings."""
    game = get_game(game_name, seed=seed)
    rng = random.Random(seed)
    state, out = game.new_initial_state(), []
    while len(out) < count:
        if state.is_terminal():
            state = game.new_initial_state()
        if not state.is_chance_node():
            out.append(state.position())
        state.play(rng.choice(state.legal_moves()))
    return out


@pytest.mark.parametrize("impl", ["fast", "reference"])
@pytest.mark.parametrize("game", ["mattock", "maatatahay"])
def test_legal_move_generation(benchmark, record_rate, game, impl):
    positions = decision_positions(game)
    states = [get_game(game, impl=impl).parse_position(p) for p in positions]
    moves = benchmark(lambda: sum(len(s.legal_moves()) for s in states))
    assert moves == sum(len(get_game(game).parse_position(p).legal_moves()) for p in positions)
    record_rate(len(states), "positions")


@pytest.mark.parametrize("impl", ["fast", "reference"])
@pytest.mark.parametrize("game", ["mattock", "maatatahay"])
def test_make_unmake(benchmark, record_rate, game, impl):
    state = get_game(game, impl=impl).parse_position(entry(game, MAKE_UNMAKE_CASES[game]).position)
    moves = state.legal_moves()
    before = state.position()

    def make_unmake():
        for move in moves:
            state.play(move)
            state.undo()

    benchmark(make_unmake)
    assert state.position() == before
    record_rate(len(moves), "make_unmake")


def whole_turns(state):
    """For each placement: the placement, then the placer's first choice at each step of the
    turn (crystals to load, fight order) until the fights are resolved."""
    turns = []
    for placement in state.legal_moves():
        moves = [placement]
        state.play(placement)
        placer = state.current_player()
        while state.current_player() == placer and not state.is_terminal():
            moves.append(state.legal_moves()[0])
            state.play(moves[-1])
        for _ in moves:
            state.undo()
        turns.append(moves)
    return turns


@pytest.mark.parametrize("impl", ["fast", "reference"])
def test_maatatahay_combat_resolution(benchmark, record_rate, impl):
    """Every placement of a position where one placement closes several warriors in at once,
    played through loading to the end of its fights."""
    state = get_game("maatatahay", impl=impl).parse_position(
        entry("maatatahay", "multi-fight-placement").position)
    turns = whole_turns(state)

    def resolve_all():
        for moves in turns:
            for move in moves:
                state.play(move)
            for _ in moves:
                state.undo()

    benchmark(resolve_all)
    deaths = 0
    for moves in turns:
        for move in moves:
            state.play(move)
        after = state.to_position()
        deaths += sum(1 for c, tile in enumerate(after.tile) if tile != -1 and not after.alive[c])
        for _ in moves:
            state.undo()
    assert deaths > 0                      # the turns really resolve fights
    record_rate(len(turns), "turns")
