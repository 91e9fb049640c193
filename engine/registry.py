"""Name -> game class, so the CLI and searchers can be handed a game by name."""
from __future__ import annotations

from typing import Mapping

from .game import Game, GameError


def _games() -> dict[str, type[Game]]:
    from .mattock import Mattock
    games = {Mattock.name: Mattock}
    try:
        from .maatatahay import Maatatahay
    except ImportError:  # pragma: no cover - until the Maatatahay engine lands
        pass
    else:
        games[Maatatahay.name] = Maatatahay
    return games


GAMES = _games()


def get_game(name: str, rules: Mapping[str, str] | None = None, **kwargs) -> Game:
    try:
        cls = GAMES[name.lower()]
    except KeyError:
        raise GameError(f"unknown game {name!r}; expected one of {', '.join(sorted(GAMES))}") from None
    return cls(rules, **kwargs)
