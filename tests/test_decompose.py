"""Turns in stages (issue 32): Mattock's kernel splits a turn into its dig and its walk, and
df-pn searching the stages proves what it proves searching whole turns, and what alpha-beta
proves."""
import random

import pytest

from crystalpick.engine import GameError, StagedTurns, get_game, provides
from crystalpick.engine.mattock.notation import TILE, format_position, parse_position
from crystalpick.positions import parse_suite, read_text
from crystalpick.search import Limits, analyse, make_engine
from crystalpick.search.decompose import use_decomposition
from crystalpick.search.solve import Solver
from crystalpick.search.solved import exact_value


def random_states(count, seed, size="5"):
    """Positions along seeded random games (every ply, the ends left out)."""
    game, rng, out = get_game("mattock", {"size": size}), random.Random(seed), []
    while len(out) < count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(out) < count:
            out.append(state.clone())
            state.play(rng.choice(state.legal_moves()))
    return out


@pytest.mark.parametrize("size", ["5", "7"])
def test_the_stages_partition_the_legal_moves_by_their_dig(size):
    game = get_game("mattock", {"size": size})
    for state in random_states(60, seed=21, size=size)[::2]:
        kernel = state.search_kernel()
        stages = kernel.turn_stages()
        moves = [move for _, group in stages for move in group]
        assert moves == kernel.legal_moves()                 # the same order, each once
        for stage, group in stages:
            dig = game.stage_notation(state, stage)
            assert group[0] == stage                         # no walk first
            assert all(state.move_to_str(move).split("/")[0] == dig for move in group)
        keys = {kernel.stage_key_of(stage) for stage, _ in stages}
        assert len(keys) == len(stages) and kernel.key not in keys


def test_a_stage_key_is_the_position_after_the_dig_however_it_was_reached():
    """P digging c and P' digging t meet in the same position (P' is P with c dug and t
    rock): their stage keys are equal, while a stage of another position differs."""
    game = get_game("mattock")
    met = 0
    for state in random_states(80, seed=22):
        kernel = state.search_kernel()
        position = parse_position(state.position())
        for stage, _ in kernel.turn_stages():
            for tile in range(len(position.tiles)):
                if position.tiles[tile] != TILE or position.miners[tile] != -1:
                    continue
                other = parse_position(state.position())
                other.tiles[tile], other.tiles[stage] = 0, TILE
                twin = game.parse_position(format_position(other)).search_kernel()
                if tile in dict(twin.turn_stages()):
                    assert twin.stage_key_of(tile) == kernel.stage_key_of(stage)
                    met += 1
                for other_stage, _ in twin.turn_stages():
                    if other_stage != tile:
                        assert twin.stage_key_of(other_stage) != kernel.stage_key_of(stage)
        if met >= 20:
            break
    assert met >= 20


def test_auto_decomposes_where_the_game_declares_stages():
    mattock = get_game("mattock")
    assert provides(mattock, StagedTurns)
    assert use_decomposition("auto", mattock) and use_decomposition("on", mattock)
    assert not use_decomposition("off", mattock)
    cards = get_game("cardbattle")
    assert not use_decomposition("auto", cards)
    with pytest.raises(GameError, match="cardbattle has no turns in stages: decompose=on"):
        use_decomposition("on", cards)
    with pytest.raises(ValueError, match="decompose=often: expected auto|on|off"):
        Solver(mattock, 4, decompose="often")


def endgames(group, count):
    return [case.position for case in parse_suite(read_text("mattock.endgames"))
            if case.id.startswith(f"mattock-end-{group:02d}")][:count]


def solved(position, decompose, nodes):
    game = get_game("mattock")
    state = game.parse_position(position)
    solution = Solver(game, 16, decompose=decompose).solve(state, nodes=nodes)
    return state, solution


@pytest.mark.parametrize("position", endgames(6, 5) + [
    "2-2/oox-1-/--2--1/4-1--/2----2-/1-3-1-/--x-1-x/2---1/4- o",
    "3-1/1-o--1/--x4/6o-/2------1/1-2o3/--1-1-1/1--1--/-3x x"])
def test_dfpn_proves_the_same_values_in_stages_as_in_whole_turns(position):
    """Every value proven both ways is the same, with the same exact length, its main line
    plays out, and alpha-beta agrees wherever it proves the position too."""
    _, whole = solved(position, "off", 4_000_000)
    state, staged = solved(position, "on", 4_000_000)
    assert staged.score is not None
    if whole.score is not None:
        assert (staged.score, staged.exact) == (whole.score, whole.exact)
    walker = state.clone()
    for move in staged.line:
        assert move in walker.legal_moves()
        walker.play(move)
    assert walker.is_terminal()
    alphabeta = exact_value(state, 3_000_000)
    if alphabeta is not None:
        assert alphabeta.result == staged.score.result
        if staged.exact:
            assert alphabeta == staged.score


def test_the_root_moves_say_the_same_in_stages():
    """The first moves' verdicts come from the positions' entries, keyed alike in both
    searches: a move settled by both has the same verdict (lengths are those of the proofs
    found, which may differ)."""
    position = endgames(6, 1)[0]
    _, whole = solved(position, "off", 4_000_000)
    _, staged = solved(position, "on", 4_000_000)
    settled = {row.move: row.status for row in whole.root_moves
               if row.status != "unknown"}
    both = [row for row in staged.root_moves if row.move in settled and row.status != "unknown"]
    assert both
    assert all(settled[row.move] == row.status for row in both)


def test_the_dfpn_engine_takes_the_decompose_option():
    state = get_game("mattock").parse_position(endgames(6, 1)[0])
    results = [analyse(state, make_engine("dfpn", decompose=choice), Limits(nodes=3_000_000))
               for choice in ("on", "off")]
    assert results[0].score == results[1].score
    assert results[0].nodes != results[1].nodes          # two different searches
