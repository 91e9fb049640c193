"""The small configurations solved exactly (docs/cardbattle.md, "Exact solving"): a tiny card
set, decks and rule settings, all data in ``smallgames/``; and which of the rarer rules
(tie-break, reshuffle) a game of them meets, what some of them are built for."""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources

from ..game import RuleError, sample_chance
from .position import Position

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


def ply_events(before: Position, after: Position) -> set[str]:
    """Which of the rarer rules a ply from ``before`` to ``after`` ran, the ones the
    configurations ties-3 and reshuffle-2 are built to reach: ``tie-break`` when the round
    is in a tie-break after it (§4.6), ``reshuffle`` when a discard pile shrank, which only
    §4.9's reshuffle into an empty deck does."""
    events = set()
    if after.tiebreak:
        events.add("tie-break")
    if any(len(a.discard) < len(b.discard) for b, a in zip(before.seats, after.seats)):
        events.add("reshuffle")
    return events


def random_game_events(game, rng) -> set[str]:
    """The :func:`ply_events` of one game from the setup, every move uniform among the
    legal ones and chance by its probabilities (``rng``: a ``random.Random``)."""
    state = game.setup_state()
    events, before = set(), state.to_position()
    while not state.is_terminal():
        state.play(sample_chance(state, rng.random()) if state.is_chance_node()
                   else rng.choice(state.legal_moves()))
        after = state.to_position()
        events |= ply_events(before, after)
        before = after
    return events
