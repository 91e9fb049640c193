"""Building Mattock positions by cell name, for tests that follow the rules page's examples."""
from crystalpick.engine import get_game
from crystalpick.engine.mattock.board import board
from crystalpick.engine.mattock.notation import EMPTY, ROCK, TILE, Position, format_position

IMPLS = ("fast", "reference")


def position_string(tiles=(), x=(), o=(), to_move="x", size=5, removal="blocking") -> str:
    """A position with ``tiles`` empty tiles and miners on ``x``/``o`` cells (tiles too)."""
    b = board(size)
    position = Position(size, [ROCK] * b.cell_count, [EMPTY] * b.cell_count,
                        "xo".index(to_move), removal)
    for player, cells in ((None, tiles), (0, x), (1, o)):
        for name in cells:
            position.tiles[b.index[name]] = TILE
            if player is not None:
                position.miners[b.index[name]] = player
    return format_position(position)


def state(impl, position, **rules):
    return get_game("mattock", rules, impl=impl).parse_position(position)


def names(state, cells):
    return sorted(state.board.names[c] for c in cells)
