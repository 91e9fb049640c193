"""Name -> game class: the one place a game is registered, so the CLI, the searchers and the
contract tests (tests/test_contract.py) find it by name.

A game is one line in :data:`GAME_MODULES`: a module that exports its :class:`Game` subclass
as ``GAME``. A module that fails to import is an error naming it, never a silently missing
game (a broken build must not just shrink the game list).
"""
from __future__ import annotations

import importlib
from typing import Iterable, Mapping

from .game import Game, GameError

GAME_MODULES = (
    "crystalpick.engine.mattock",
    "crystalpick.engine.maatatahay",
    "crystalpick.engine.cardbattle",
)


class RegistryError(ImportError):
    """A registered game module is missing, broken or does not export a Game as ``GAME``."""


def load_games(modules: Iterable[str] = GAME_MODULES) -> dict[str, type[Game]]:
    games: dict[str, type[Game]] = {}
    for path in modules:
        try:
            module = importlib.import_module(path)
        except ImportError as err:
            raise RegistryError(f"game module {path} cannot be imported: {err}") from err
        cls = getattr(module, "GAME", None)
        if not (isinstance(cls, type) and issubclass(cls, Game)):
            raise RegistryError(f"game module {path} does not export its Game class as GAME")
        if cls.name in games:
            raise RegistryError(f"game module {path} registers {cls.name!r} a second time")
        games[cls.name] = cls
    return games


GAMES = load_games()


def get_game(name: str, rules: Mapping[str, str] | None = None, **kwargs) -> Game:
    try:
        cls = GAMES[name.lower()]
    except KeyError:
        raise GameError(f"unknown game {name!r}; expected one of {', '.join(sorted(GAMES))}") from None
    return cls(rules, **kwargs)
