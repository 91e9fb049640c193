"""Turns in stages (issue 32): Mattock's kernel splits a turn into its dig and its walk, and
df-pn searching the stages proves what it proves searching whole turns, and what alpha-beta
proves."""
import pytest

from crystalpick.engine import GameError, StagedTurns, get_game, provides
from crystalpick.engine.mattock.notation import TILE, format_position, parse_position
from crystalpick.positions import parse_suite, read_text
from crystalpick.search import Limits, analyse, make_engine
from crystalpick.search.decompose import use_decomposition
from crystalpick.search.solve import Solver
from crystalpick.solvers.solved import exact_value

from test_contract import GAME_CLASSES, game_ids
from test_contract_features import random_decisions
from test_symmetry import random_states


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


@pytest.mark.parametrize("cls", [c for c in GAME_CLASSES if not provides(c, StagedTurns)],
                         ids=game_ids)
def test_a_kernel_without_declared_stages_makes_every_move_a_stage(cls):
    """The contract's defaults: one stage per move, keyed as the position the move makes
    (apart from the positions' own keys)."""
    if "fast" not in cls.implementations:
        pytest.skip("no kernel")
    seen = 0
    for state in random_decisions(cls(seed=4, impl="fast"), 4):
        kernel = state.search_kernel().clone()
        stages = kernel.turn_stages()
        assert stages == [(move, [move]) for move in kernel.legal_moves()]
        stage_keys, position_keys = [], []
        for stage, _ in stages:
            stage_keys.append(kernel.stage_key_of(stage))
            kernel.play(stage)
            position_keys.append(kernel.key)
            kernel.undo()
        assert len(set(stage_keys)) == len(set(position_keys))
        assert not set(stage_keys) & (set(position_keys) | {kernel.key})
        seen += 1
        if seen == 20:
            break
    assert seen


def meeting_digs(states):
    """``(kernel, stage, twin kernel, twin's stage)`` where the twin is the position with
    the stage dug and one empty tile of it rock, and digging that tile is legal there: the
    two stages reach the same position."""
    game = get_game("mattock")
    for state in states:
        kernel = state.search_kernel()
        position = parse_position(state.position())
        empty = [cell for cell, tile in enumerate(position.tiles)
                 if tile == TILE and position.miners[cell] == -1]
        for stage, _ in kernel.turn_stages()[:3]:
            for tile in empty:
                other = parse_position(state.position())
                other.tiles[tile], other.tiles[stage] = 0, TILE
                twin = game.parse_position(format_position(other)).search_kernel()
                if tile in dict(twin.turn_stages()):
                    yield kernel, stage, twin, tile
                    break


def test_a_stage_key_is_the_position_after_the_dig_however_it_was_reached():
    """Stages of different positions that reach the same position share their key; the
    twin's other stages do not."""
    met = 0
    for kernel, stage, twin, tile in meeting_digs(random_states(40, seed=22)[10:]):
        assert twin.stage_key_of(tile) == kernel.stage_key_of(stage)
        others = [twin.stage_key_of(other) for other, _ in twin.turn_stages() if other != tile]
        assert kernel.stage_key_of(stage) not in others
        met += 1
        if met == 20:
            break
    assert met == 20


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


def endgames(*games, group=6):
    """The suite's positions ``group`` plies before the end of ``games``."""
    wanted = {f"mattock-end-{group:02d}-{game:02d}" for game in games}
    return [case.position for case in parse_suite(read_text("mattock.endgames"))
            if case.id in wanted]


# Suite positions 6 plies out that both searches prove within 1 M nodes (games 3, 5, 6 and
# 7 need a few million either way, docs/search.md), and two small ones.
PROVEN_BOTH_WAYS = endgames(1, 2, 4, 9) + [
    "2-2/oox-1-/--2--1/4-1--/2----2-/1-3-1-/--x-1-x/2---1/4- o",
    "3-1/1-o--1/--x4/6o-/2------1/1-2o3/--1-1-1/1--1--/-3x x"]


def solved(position, decompose, nodes):
    game = get_game("mattock")
    state = game.parse_position(position)
    solution = Solver(game, 16, decompose=decompose).solve(state, nodes=nodes)
    return state, solution


@pytest.mark.parametrize("position", PROVEN_BOTH_WAYS)
def test_dfpn_proves_the_same_values_in_stages_as_in_whole_turns(position):
    """The value proven both ways is the same (and its length where both made it exact
    within the nodes), its main line plays out, and alpha-beta agrees wherever it proves
    the position too."""
    _, whole = solved(position, "off", 3_000_000)
    state, staged = solved(position, "on", 3_000_000)
    assert staged.score is not None and whole.score is not None
    assert staged.score.result == whole.score.result
    if staged.exact and whole.exact:
        assert staged.score == whole.score
    walker = state.clone()
    for move in staged.line:
        assert move in walker.legal_moves()
        walker.play(move)
    assert walker.is_terminal()
    alphabeta = exact_value(state, 2_000_000)
    if alphabeta is not None:
        assert alphabeta.result == staged.score.result
        if staged.exact:
            assert alphabeta == staged.score


def test_the_root_moves_say_the_same_in_stages():
    """The first moves' verdicts come from the positions' entries, keyed alike in both
    searches: a move settled by both has the same verdict (lengths are those of the proofs
    found, which may differ)."""
    position = endgames(1)[0]
    _, whole = solved(position, "off", 2_000_000)
    _, staged = solved(position, "on", 2_000_000)
    settled = {row.move: row.status for row in whole.root_moves
               if row.status != "unknown"}
    both = [row for row in staged.root_moves if row.move in settled and row.status != "unknown"]
    assert both
    assert all(settled[row.move] == row.status for row in both)


def test_the_dfpn_engine_takes_the_decompose_option():
    state = get_game("mattock").parse_position(endgames(1)[0])
    results = [analyse(state, make_engine("dfpn", decompose=choice), Limits(nodes=3_000_000))
               for choice in ("on", "off")]
    assert results[0].score == results[1].score
    assert results[0].nodes != results[1].nodes          # two different searches
