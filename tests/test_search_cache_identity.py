"""An engine kept between analyses reuses its TT or tree only within one game identity:
another rule option or tileset on the same board is a fresh start, exactly as if the engine
were new (same seed, same node counts)."""
import pytest

from crystalpick.engine import get_game
from crystalpick.search import AlphaBetaEngine, Limits, MCTSEngine, analyse

from game_helpers import tileset_copy


def same_board_in_two_games(which, tmp_path):
    """(first, second): one position under two identities of the same game."""
    if which == "rule":
        first = get_game("mattock").state(None, "h5 g3")
        second = get_game("mattock", {"removal": "literal"}).parse_position(first.position())
    else:
        first = get_game("maatatahay", seed=4).new_initial_state()
        edited = tileset_copy(tmp_path, "maatatahay", edited=True)
        second = get_game("maatatahay", tileset=edited).parse_position(first.position())
    assert first.game.identity != second.game.identity
    return first, second


def fingerprint(analysis):
    return analysis.nodes, analysis.pv, analysis.score, analysis.tree_kept


@pytest.mark.parametrize("which", ["rule", "tileset"])
@pytest.mark.parametrize("engine, limits", [
    (lambda: AlphaBetaEngine(tt_megabytes=1), Limits(depth=3)),
    (lambda: MCTSEngine(seed=5), Limits(simulations=300)),
], ids=["alphabeta", "mcts"])
def test_another_identity_gets_a_fresh_cache(which, engine, limits, tmp_path):
    first, second = same_board_in_two_games(which, tmp_path)
    kept = engine()
    analyse(first, kept, limits)
    again = analyse(first, kept, limits)          # same identity: the cache is reused ...
    fresh_first = analyse(first, engine(), limits)
    assert fingerprint(again) != fingerprint(fresh_first)
    switched = analyse(second, kept, limits)      # ... another identity: a fresh one
    assert fingerprint(switched) == fingerprint(analyse(second, engine(), limits))
    assert switched.tree_kept in (None, 0)
