"""The registry: every game module in one tuple, and a broken entry is an error naming it."""
import pytest

from crystalpick.engine import GAMES, Game
from crystalpick.engine.registry import GAME_MODULES, RegistryError, load_games


def test_every_registered_module_gives_its_game():
    assert sorted(GAMES) == sorted(load_games(GAME_MODULES))
    assert all(issubclass(cls, Game) and GAMES[name] is cls for name, cls in GAMES.items())


def test_a_module_that_cannot_be_imported_names_itself():
    with pytest.raises(RegistryError, match="crystalpick.engine.no_such_game"):
        load_games(GAME_MODULES + ("crystalpick.engine.no_such_game",))


def test_a_module_without_a_game_names_itself():
    with pytest.raises(RegistryError, match="crystalpick.engine.zobrist does not export"):
        load_games(("crystalpick.engine.zobrist",))


def test_a_game_registered_twice_is_refused():
    with pytest.raises(RegistryError, match="a second time"):
        load_games(GAME_MODULES + GAME_MODULES[:1])
