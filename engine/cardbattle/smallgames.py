"""The small configurations solved exactly (docs/cardbattle.md, "Exact solving"): a tiny card
set, decks and rule settings, all data in ``smallgames/``."""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources

from ..game import RuleError

FOLDER = resources.files(__package__).joinpath("smallgames")


@dataclass(frozen=True)
class SmallGame:
    name: str
    about: str
    rules: dict

    @property
    def tileset(self) -> str:
        """The card set every small configuration draws its decks from."""
        return str(FOLDER.joinpath("cards.toml"))


def small_games() -> dict[str, SmallGame]:
    """Every configuration of ``smallgames/configurations.toml``, by name."""
    data = tomllib.loads(FOLDER.joinpath("configurations.toml").read_text(encoding="utf-8"))
    games = {}
    for entry in data["configuration"]:
        rules = dict(entry["rules"])
        for option in ("deck1", "deck2"):
            rules[option] = str(FOLDER.joinpath("decks", entry[option] + ".toml"))
        games[entry["name"]] = SmallGame(entry["name"], entry["about"], rules)
    return games


def small_game(name: str) -> SmallGame:
    games = small_games()
    if name not in games:
        raise RuleError(f"unknown small configuration {name!r}; expected one of "
                        f"{', '.join(games)}")
    return games[name]
