"""A tournament: several engines, each pairing a match of its own, all on one executor.

Every pairing is stored as a match (colour-swapped pairs, the same openings and chance
within a pair, every game committed as it finishes) and grouped under a tournament row of
the results database. All pairings share the tournament's seed, so pair ``k`` of every
pairing starts from the same opening (or setup, or deal) with the same chance: the pairings
are compared on the same positions, as fastchess and cutechess-cli do with one opening per
round. A round-robin plays every pairing of the engines; a gauntlet plays the first engine
against each of the others.
"""
from __future__ import annotations

from dataclasses import dataclass, fields, replace
from itertools import combinations

from crystalpick.engine import GameError

from .validation import GAMES

FORMATS = ("round-robin", "gauntlet")


@dataclass
class TournamentSettings:
    engines: list[str]
    format: str = "round-robin"
    games_per_pair: int = 2       # games of every pairing per round (colour-swapped pairs)
    rounds: int = 1

    @property
    def games(self) -> int:
        """Games of each pairing."""
        return self.games_per_pair * self.rounds

    def pairings(self) -> list[tuple[str, str]]:
        """Who plays whom: (engine 1, engine 2) of each pairing's match."""
        if self.format == "gauntlet":
            return [(self.engines[0], other) for other in self.engines[1:]]
        return list(combinations(self.engines, 2))

    def check(self) -> None:
        if self.format not in FORMATS:
            raise GameError(f"--format {self.format!r}: expected {' or '.join(FORMATS)}")
        if not isinstance(self.engines, list) or len(self.engines) < 2 \
                or not all(isinstance(spec, str) for spec in self.engines):
            raise GameError("a tournament needs at least two --engine specs")
        repeated = sorted({spec for spec in self.engines if self.engines.count(spec) > 1})
        if repeated:
            raise GameError(f"--engine {repeated[0]} given twice: a tournament tells its "
                            f"engines apart by their specs (add an option, e.g. seed=2)")
        for name in ("games_per_pair", "rounds"):
            if type(getattr(self, name)) is not int or getattr(self, name) < 1:
                raise GameError(f"--{name.replace('_', '-')} must be a whole number, at "
                                f"least 1")
        if self.games_per_pair % 2:
            raise GameError(f"--games-per-pair {self.games_per_pair}: expected an even "
                            f"number (colour-swapped pairs)")
        if self.games > GAMES.maximum:
            raise GameError(f"--games-per-pair times --rounds is {self.games} games a "
                            f"pairing; at most {GAMES.maximum:g}")

    def matches(self, template):
        """The pairings' match settings: ``template`` (a MatchSettings: game, rules,
        openings, limits, seed) with each pairing's engines and games."""
        return [replace(template, engines=list(pairing), games=self.games, sprt=None)
                for pairing in self.pairings()]


def stored_tournament(db_path, tournament_id: int, raw: dict) -> TournamentSettings:
    """A tournament's settings as the database holds them, checked as if typed again."""
    known = {f.name for f in fields(TournamentSettings)}
    try:
        if set(raw) - known or "engines" not in raw:
            raise GameError(f"fields {', '.join(sorted(set(raw) - known)) or 'none unknown'}"
                            f", engines {'present' if 'engines' in raw else 'missing'}")
        settings = TournamentSettings(**raw)
        settings.check()
    except (GameError, TypeError) as err:
        raise GameError(f"{db_path}: tournament {tournament_id} has damaged settings "
                        f"({err}); left unchanged") from None
    return settings

