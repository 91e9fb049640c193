"""The registry: every game module in one tuple, and a broken entry is an error naming it;
a game's package (and its kernel) is imported on first use only."""
import subprocess
import sys

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


def imported_after(code: str) -> set[str]:
    """The crystalpick modules a fresh interpreter has imported after running ``code``."""
    shown = ("import sys; print(' '.join(m for m in sys.modules "
             "if m.startswith('crystalpick.')))")
    out = subprocess.run([sys.executable, "-c", f"{code}; {shown}"], capture_output=True,
                         text=True, check=True).stdout
    return set(out.split())


def game_modules(imported: set[str], name: str) -> set[str]:
    return {m for m in imported if m.startswith(f"crystalpick.engine.{name}")}


def test_importing_the_contract_imports_no_game():
    imported = imported_after("import crystalpick.engine; from crystalpick.engine import GAMES; "
                              "sorted(GAMES); 'mattock' in GAMES")
    assert "crystalpick.engine.registry" in imported
    assert not any(game_modules(imported, name) for name in GAMES)


def test_a_game_is_imported_on_first_use_and_alone():
    imported = imported_after("from crystalpick.engine import get_game; "
                              "get_game('mattock').new_initial_state()")
    assert "crystalpick.engine.mattock._fast" in imported
    assert not any(game_modules(imported, name) for name in GAMES if name != "mattock")


def test_a_game_package_is_named_after_its_game(tmp_path, monkeypatch):
    (tmp_path / "misnamed.py").write_text("from crystalpick.engine.mattock import GAME\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(RegistryError, match="misnamed exports 'mattock'"):
        load_games(("misnamed",))
