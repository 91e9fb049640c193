"""Name -> game class: the one place a game is registered, so the CLI, the searchers and the
contract tests (tests/test_contract.py) find it by name.

A game is one line in :data:`GAME_MODULES`: a package named after the game that exports its
:class:`Game` subclass as ``GAME``. :data:`GAMES` knows every name up front (for choices and
messages) but imports a game's package, and so its kernel, on first use: importing the
contract costs nothing per game. A module that fails to import is an error naming it, never
a silently missing game (a broken build must not just shrink the game list).
"""
from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Iterable, Iterator

from .game import Game, GameError

GAME_MODULES = (
    "crystalpick.engine.mattock",
    "crystalpick.engine.maatatahay",
    "crystalpick.engine.cardbattle",
)


class RegistryError(ImportError):
    """A registered game module is missing, broken or does not export a Game as ``GAME``."""


def load_game(path: str) -> type[Game]:
    """The Game class that module ``path`` exports as ``GAME``."""
    try:
        module = importlib.import_module(path)
    except ImportError as err:
        raise RegistryError(f"game module {path} cannot be imported: {err}") from err
    cls = getattr(module, "GAME", None)
    if not (isinstance(cls, type) and issubclass(cls, Game)):
        raise RegistryError(f"game module {path} does not export its Game class as GAME")
    if cls.name != game_name(path):
        raise RegistryError(f"game module {path} exports {cls.name!r}; a game's package is "
                            f"named after it")
    return cls


def game_name(path: str) -> str:
    return path.rpartition(".")[2]


def load_games(modules: Iterable[str] = GAME_MODULES) -> dict[str, type[Game]]:
    """Every game of ``modules``, imported now."""
    games: dict[str, type[Game]] = {}
    for path in modules:
        cls = load_game(path)
        if cls.name in games:
            raise RegistryError(f"game module {path} registers {cls.name!r} a second time")
        games[cls.name] = cls
    return games


class Games(Mapping):
    """Game name -> Game class, each imported when it is first looked up."""

    def __init__(self, modules: Iterable[str]):
        self._paths = {game_name(path): path for path in modules}
        self._loaded: dict[str, type[Game]] = {}

    def __getitem__(self, name: str) -> type[Game]:
        if name not in self._loaded:
            self._loaded[name] = load_game(self._paths[name])
        return self._loaded[name]

    def __contains__(self, name) -> bool:
        return name in self._paths          # without importing the game

    def __iter__(self) -> Iterator[str]:
        return iter(self._paths)

    def __len__(self) -> int:
        return len(self._paths)


GAMES = Games(GAME_MODULES)


def get_game(name: str, rules: Mapping[str, str] | None = None, **kwargs) -> Game:
    try:
        cls = GAMES[name.lower()]
    except KeyError:
        raise GameError(f"unknown game {name!r}; expected one of {', '.join(sorted(GAMES))}") from None
    return cls(rules, **kwargs)
