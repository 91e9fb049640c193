"""A match's settings: what is played (game, rules, engines, openings, limits, seed), built
from what a user gives and checked in the parent before any worker starts."""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from crystalpick.engine import GameError, get_game
from crystalpick.search.specs import parse_spec

from .openings import default_openings, load_openings, opening_for, opening_state
from .records import read_text
from .stats import SPRT
from .validation import check_numbers


@dataclass
class MatchSettings:
    game: str
    engines: list[str]
    games: int = 2
    rules: dict = field(default_factory=dict)
    tileset: str | None = None
    openings: list[str] = field(default_factory=list)   # position strings or move lists
    openings_order: str = "sequential"
    seed: int = 0
    tc: tuple[float, float] | None = None                # (seconds per game, increment)
    move_time: float | None = None                       # fixed seconds per move
    tolerance: float = 0.1                               # seconds over the clock before a loss
    max_plies: int | None = None
    sprt: str | None = None
    concurrency: int = 1

    @property
    def pairs(self) -> int:
        return (self.games + 1) // 2

    def for_pair(self, pair: int) -> "MatchSettings":
        """These settings holding only ``pair``'s opening: what a game task needs, so a long
        openings file does not travel with every game."""
        if not self.openings:
            return self
        return replace(self, openings=[opening_for(self, pair)], openings_order="sequential")

    def check(self) -> None:
        """Fail early, in the parent, on anything a worker would fail on."""
        if not isinstance(self.engines, list) or len(self.engines) != 2 \
                or not all(isinstance(spec, str) for spec in self.engines):
            raise GameError("a match needs exactly two --engine specs")
        check_numbers(self)
        for spec in self.engines:
            parse_spec(spec)
        if self.games < 1 or self.concurrency < 1:
            raise GameError("--games and --concurrency must be at least 1")
        if self.openings_order not in ("sequential", "random"):
            raise GameError("--openings-order must be sequential or random")
        if self.sprt:
            try:
                SPRT.parse(self.sprt)
            except ValueError as err:
                raise GameError(f"--sprt: {err}") from None
        game = get_game(self.game, self.rules, tileset=self.tileset)
        for number, opening in enumerate(self.openings, 1):
            try:
                opening_state(game, opening)
            except GameError as err:
                raise GameError(f"opening {number}: {err}") from None


def parse_tc(text: str | None) -> tuple[float, float] | None:
    """A time control ``SECONDS[+INCREMENT]`` (None: untimed)."""
    if text is None:
        return None
    base, _, increment = text.partition("+")
    try:
        parsed = (float(base), float(increment or 0))
    except ValueError:
        raise GameError(f"--tc {text!r}: expected SECONDS[+INCREMENT], e.g. 10+0.1") from None
    if not all(0 <= value < float("inf") for value in parsed) or parsed[0] == 0:
        raise GameError(f"--tc {text!r}: expected a finite time above 0 and a finite "
                        f"increment not below 0")
    return parsed


def new_match_settings(game: str, engines: list[str], games: int, *, rules: dict,
                       seed: int, tileset: str | None = None, openings: str | None = None,
                       openings_order: str = "sequential", tc: str | None = None,
                       move_time: float | None = None, tolerance: float = 0.1,
                       max_plies: int | None = None, sprt: str | None = None,
                       concurrency: int = 1) -> tuple[MatchSettings, str | None]:
    """The settings of a new match (a tournament's template), and what to tell the user
    about its openings: ``openings`` is a file of them; without one, the defaults
    (:func:`.openings.default_openings`)."""
    settings = MatchSettings(
        game=game, engines=list(engines), games=games, rules=rules, tileset=tileset,
        openings_order=openings_order, seed=seed, tc=parse_tc(tc), move_time=move_time,
        tolerance=tolerance, max_plies=max_plies, sprt=sprt, concurrency=concurrency)
    if openings:
        settings.openings = load_openings(read_text(openings), openings)
        return settings, None
    settings.openings, note = default_openings(settings)
    return settings, note
