"""The rules page's reference figures, worked examples and invariants, on both implementations."""
import random

import pytest

from crystalpick.engine import TERMINAL, get_game
from crystalpick.engine.mattock.board import board
from crystalpick.engine.mattock.notation import decode_move, format_position
from mattock_helpers import IMPLS, names, position_string, state


@pytest.mark.parametrize("impl", IMPLS)
def test_start_position_figures(impl):
    start = get_game("mattock", impl=impl).new_initial_state()
    assert len(start.mine_cells()) == 18
    b = start.board
    own = [b.index[c] for c in ("h4", "c6", "d2")]
    assert set(start.mine_cells()) == {n for c in own for n in b.neighbours[c]}
    assert len(start.legal_moves()) == 36
    assert start.perft(2) == 1314


@pytest.mark.parametrize("impl", IMPLS)
def test_size_seven_start_figures(impl):
    start = get_game("mattock", {"size": "7"}, impl=impl).new_initial_state()
    assert len(start.legal_moves()) == 60
    assert start.perft(2) == 3636


def test_no_removal_in_first_three_plies():
    game = get_game("mattock")
    root = game.new_initial_state()
    checked = 0
    for first in root.legal_moves():
        root.play(first)
        for second in root.legal_moves():
            root.play(second)
            for third in root.legal_moves():
                root.play(third)
                position = root.to_position()
                assert position.off_board(0) == 0 and position.off_board(1) == 0
                checked += 1
                root.undo()
            root.undo()
        root.undo()
    assert checked == 77_400


@pytest.mark.parametrize("impl", IMPLS)
def test_collapse_example(impl):
    # Tiles e4, e5, e6 in a row (e5 touches 2): mining d5 is legal ...
    before = state(impl, position_string(tiles=["e5", "e6"], x=["e4"], o=["a1"]))
    assert "d5" in names(before, before.mine_cells())
    # ... after which e5 touches 3, so no cell touching e5 may be mined.
    after = state(impl, position_string(tiles=["e5", "e6", "d5"], x=["e4"], o=["a1"]))
    b = after.board
    around_e5 = {b.names[n] for n in b.neighbours[b.index["e5"]]}
    assert not around_e5 & set(names(after, after.mine_cells()))


@pytest.mark.parametrize("impl", IMPLS)
def test_removal_example_first_player_removes(impl):
    position = position_string(tiles=["e5"], x=["e4", "d5"], o=["f5"])
    s = state(impl, position)
    for move in s.legal_moves():
        mine, source, target = decode_move(move)
        if source >= 0:
            continue
        s.play(move)
        assert s.to_position().miners[s.board.index["f5"]] == -1, s.move_to_str(move)
        assert s.to_position().off_board(1) == 3
        s.undo()


@pytest.mark.parametrize("impl", IMPLS)
def test_removal_example_second_player_cannot_remove(impl):
    position = position_string(tiles=["e5"], x=["e4", "d5"], o=["f5"], to_move="o")
    s = state(impl, position)
    e5 = s.board.index["e5"]
    kept = 0
    for move in s.legal_moves():
        _, _, target = decode_move(move)
        if target == e5:
            continue
        s.play(move)
        miners = s.to_position().miners
        assert miners[s.board.index["e4"]] == 0 and miners[s.board.index["d5"]] == 0
        kept += 1
        s.undo()
    assert kept > 0


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("removal,removed", [("blocking", False), ("literal", True)])
def test_removal_option_difference(impl, removal, removed):
    # Tiles e5, e6, e7; o on e5, x on e6 and e7; x mines e8 (its third miner enters there).
    s = state(impl, position_string(x=["e6", "e7"], o=["e5"], removal=removal))
    s.play(s.parse_move("e8"))
    assert (s.to_position().miners[s.board.index["e5"]] == -1) == removed


@pytest.mark.parametrize("impl", IMPLS)
def test_player_without_miners_loses(impl):
    s = state(impl, position_string(tiles=["e5"], x=["a1"], to_move="o"))
    assert s.current_player() == TERMINAL
    assert s.returns() == (1.0, -1.0) and s.winner() == 0


def random_positions(count, seed, size="5"):
    game = get_game("mattock", {"size": size})
    rng = random.Random(seed)
    s = game.new_initial_state()
    for _ in range(count):
        if s.is_terminal():
            s = game.new_initial_state()
        yield s
        s.play(rng.choice(s.legal_moves()))


def test_tiles_never_touch_more_than_three_and_grow_by_one_per_ply():
    previous = None
    for s in random_positions(3000, seed=11):
        position = s.to_position()
        b = position.board
        for cell in range(b.cell_count):
            if position.tiles[cell]:
                assert sum(position.tiles[n] for n in b.neighbours[cell]) <= 3
        tiles = sum(position.tiles)
        if previous is not None and tiles > 6:
            assert tiles == previous + 1
        previous = tiles


@pytest.mark.parametrize("size", ["5", "7"])
def test_rules_unchanged_under_the_twelve_symmetries(size):
    b = board(int(size))
    symmetries = b.symmetries()
    assert len(symmetries) == 12 and len(set(symmetries)) == 12
    for s in random_positions(60, seed=5, size=size):
        position = s.to_position()
        counts = set()
        for perm in symmetries:
            image = s.to_position()
            for cell in range(b.cell_count):
                image.tiles[perm[cell]] = position.tiles[cell]
                image.miners[perm[cell]] = position.miners[cell]
            mapped = get_game("mattock", {"size": size}).parse_position(format_position(image))
            counts.add(len(mapped.legal_moves()))
            assert sorted(mapped.mine_cells()) == sorted(perm[c] for c in s.mine_cells())
        assert len(counts) == 1
