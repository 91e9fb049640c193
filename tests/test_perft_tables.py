"""Every game's perft table in positions/ must hold for both implementations."""
import pytest

from crystalpick.engine import GAMES, get_game
from crystalpick.positions import perft_suite

# The reference implementations are slow by design; check them where the tree is small.
REFERENCE_NODE_LIMIT = 100_000


def suites():
    found = {}
    for name in sorted(GAMES):
        try:
            found[name] = perft_suite(name)
        except FileNotFoundError:
            pass
    return found


def cases():
    for name, suite in suites().items():
        for case in suite:
            yield pytest.param(name, case, id=f"{name}-{case.id}")


def test_every_game_has_a_perft_table():
    assert sorted(suites()) == sorted(GAMES)


@pytest.mark.parametrize("game,case", list(cases()))
def test_fast_perft_matches_table(game, case):
    state = get_game(game).parse_position(case.position)
    for depth, expected in case.counts.items():
        assert state.perft(depth) == expected, f"perft {depth}"
    assert state.position() == case.position


@pytest.mark.parametrize("game,case", list(cases()))
def test_reference_perft_matches_table(game, case):
    state = get_game(game, impl="reference").parse_position(case.position)
    checked = 0
    for depth, expected in sorted(case.counts.items()):
        if expected <= REFERENCE_NODE_LIMIT:
            assert state.perft(depth) == expected, f"perft {depth}"
            checked += 1
    assert checked, "every entry needs a depth small enough for the reference"
