"""Sanity matches: with tiny budgets each searcher beats a uniformly random mover in at least
9 of 10 games (colours alternating, everything seeded)."""
import pytest

from crystalpick.engine import get_game
from crystalpick.search import AlphaBetaEngine, Limits, MCTSEngine

from search_helpers import play_match

pytestmark = pytest.mark.slow      # over a second a test: `pytest -m "not slow"` skips it

ENGINES = {
    "alphabeta": (lambda game: AlphaBetaEngine(tt_megabytes=4), Limits(depth=2)),
    "mcts": (lambda game: MCTSEngine(seed=game, max_nodes=200_000), Limits(simulations=150)),
}


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_beats_random_mover_on_mattock(name):
    make, limits = ENGINES[name]
    assert play_match(get_game("mattock"), make, limits, games=10, seed=2026) >= 9


def test_beats_random_mover_on_maatatahay():
    """Alpha-beta gets depth 5: Maatatahay's evaluation is only the score so far."""
    game = get_game("maatatahay", seed=7)     # a fixed setup: the games differ by chance
    make, limits = ENGINES["mcts"]
    assert play_match(game, make, limits, games=10, seed=2026) >= 9
    assert play_match(game, ENGINES["alphabeta"][0], Limits(depth=5), games=10, seed=2026) >= 9
