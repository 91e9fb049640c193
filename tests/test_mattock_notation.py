"""Mattock notation: exact round trips, and clear errors (never a crash) on any bad input."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crystalpick.engine import GameError, IllegalMoveError, NotationError, get_game
from crystalpick.engine.mattock.board import board
from crystalpick.engine.mattock.notation import (EMPTY, ROCK, TILE, Position, format_position,
                                     parse_position)

START = "5/3x2/1o5/6o1/9/1x6/5x1/2o3/5 x"


@st.composite
def positions(draw):
    """Any position the notation can hold: tiles that touch at most 3 tiles, up to the
    number of miners each side owns."""
    size = draw(st.sampled_from([5, 7]))
    b = board(size)
    tiles = [ROCK] * b.cell_count
    for cell in draw(st.permutations(range(b.cell_count)))[: draw(st.integers(0, b.cell_count))]:
        tiles[cell] = TILE
        if any(sum(tiles[m] for m in b.neighbours[n]) > 3 for n in (cell, *b.neighbours[cell])
               if tiles[n] == TILE):
            tiles[cell] = ROCK
    miners = [EMPTY] * b.cell_count
    tile_cells = [c for c in range(b.cell_count) if tiles[c] == TILE]
    chosen = draw(st.permutations(tile_cells))
    xs = draw(st.integers(0, min(b.miners_per_player, len(chosen))))
    os_ = draw(st.integers(0, min(b.miners_per_player, len(chosen) - xs)))
    for cell in chosen[:xs]:
        miners[cell] = 0
    for cell in chosen[xs:xs + os_]:
        miners[cell] = 1
    return Position(size, tiles, miners, draw(st.integers(0, 1)),
                    draw(st.sampled_from(["blocking", "literal"])))


@settings(max_examples=300, deadline=None)
@given(positions())
def test_position_round_trips_exactly(position):
    text = format_position(position)
    for impl in ("fast", "reference"):
        parsed = get_game("mattock", impl=impl).parse_position(text)
        assert parsed.position() == text
        again = parsed.to_position()
        assert (again.tiles, again.miners, again.to_move, again.removal) == \
            (position.tiles, position.miners, position.to_move, position.removal)


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="0123456789-xo/ =abcdefghiklmnoprstuvz\t", max_size=60))
def test_position_parser_never_crashes(text):
    try:
        parse_position(text)
    except NotationError as err:
        assert str(err)


@settings(max_examples=300, deadline=None)
@given(positions(), st.data())
def test_corrupted_position_is_rejected_or_reparsed(position, data):
    text = format_position(position)
    index = data.draw(st.integers(0, len(text) - 1))
    corrupted = text[:index] + data.draw(st.sampled_from("x-o/9 z0")) + text[index + 1:]
    try:
        parsed = parse_position(corrupted)
    except NotationError as err:
        assert str(err)
    else:   # whatever is accepted must be canonical or reach a fixed point in one step
        canonical = format_position(parsed)
        assert format_position(parse_position(canonical)) == canonical


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="abcdefghijklmnz0123456789/- ", max_size=14))
def test_move_parser_never_crashes(text):
    state = get_game("mattock").parse_position(START)
    try:
        move = state.parse_move(text)
    except GameError as err:
        assert str(err)
    else:
        assert move in state.legal_moves()


@pytest.mark.parametrize("text,fragment", [
    ("", "at least two fields"),
    ("5/3x2/1o5/6o1/9/1x6/5x1/2o3 x", "8 rows"),
    ("5/3x2/1o5/6o1/9/1x6/5x1/2o3/6 x", "row a ('6') describes 6 cells"),
    ("5/3q2/1o5/6o1/9/1x6/5x1/2o3/5 x", "unexpected 'q'"),
    ("5/3x2/1o5/6o1/9/1x6/5x1/2o3/5 w", "side to move 'w'"),
    ("5/3x2/1o5/6o1/9/1x6/5x1/2o3/5 x size=7", "option field 'size=7'"),
    ("5/3x2/1o5/6o1/9/1x6/5x1/2o3/5 x removal=maybe", "removal must be one of"),
    ("5/3x2/1o5/6o1/9/1x6/5x1/xxx3/5 x", "6 'x' miners"),
    ("5/3x2/1o5/6o1/9/1x6/5x1/2o3/05 x", "leading zeros"),
    ("o4/6/7/4-3/3---3/4-3/7/6/x4 x", "tile e5 touches 4 tiles"),
])
def test_malformed_positions_name_the_bad_part(text, fragment):
    with pytest.raises(NotationError) as err:
        get_game("mattock").parse_position(text)
    assert fragment in str(err.value)


def test_position_and_rule_conflict_is_an_error():
    with pytest.raises(NotationError, match="--rule removal=blocking"):
        get_game("mattock", {"removal": "blocking"}).parse_position(START + " removal=literal")
    with pytest.raises(NotationError, match="size-5 board"):
        get_game("mattock", {"size": "7"}).parse_position(START)


def test_rule_from_game_applies_when_position_is_silent():
    assert get_game("mattock", {"removal": "literal"}).parse_position(START).position() == \
        START + " removal=literal"


@pytest.mark.parametrize("text,fragment", [
    ("h9", "no cell 'h9'"),
    ("h5/h4", "malformed move"),
    ("e5", "does not touch a tile connected"),
    ("h4", "already a tile"),
    ("h5/c6-h5", "no miner of yours can go c6-h5"),
])
def test_bad_moves_say_why(text, fragment):
    state = get_game("mattock").parse_position(START)
    with pytest.raises(GameError) as err:
        state.parse_move(text)
    assert fragment in str(err.value)


def test_moves_format_like_abstract_play():
    state = get_game("mattock").parse_position(START)
    assert state.move_to_str(state.parse_move("h5/h4-h5")) == "h5/h4-h5"
    assert state.move_to_str(state.parse_move("H5")) == "h5"
    with pytest.raises(IllegalMoveError):
        state.parse_move("e5")


@pytest.mark.parametrize("size", ["5", "7"])
def test_the_text_board_numbers_every_rows_cells(size):
    """Each row is followed by its cells' numbers, each under its cell, so every cell (not
    only row a's) can be read off the diagram: the glyph above the number k of row r is
    the content of cell rk."""
    state = get_game("mattock", {"size": size}).new_initial_state()
    position = state.to_position()
    lines = state.render().splitlines()
    b = position.board
    letters = b.row_letters()
    for number, row in enumerate(b.rows):
        at = 2 * (len(b.rows) - 1 - number)
        cells, numbers = lines[at], lines[at + 1]
        assert cells.split()[0] == letters[number]
        columns = [i for i, char in enumerate(numbers) if char != " "]
        assert [numbers[i] for i in columns] == [str(k)[-1] for k in range(1, len(row) + 1)]
        for column, cell in zip(columns, row):
            owner = position.miners[cell]
            assert cells[column] == ("xo"[owner] if owner != EMPTY else "·"), b.names[cell]
    assert "(row a numbers)" not in state.render()
