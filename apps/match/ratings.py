"""A rating list of several engines from all their games (a tournament's, or every match of a
results database), as Ordo and BayesElo make one.

The model is the logistic Elo model with draws as half points (Ordo's, and the one
:func:`.stats.logistic_elo` inverts): engine ``i`` scores against ``j`` with expectation
``p = 1 / (1 + 10 ** ((r_j - r_i) / 400))``, a game scoring ``s`` has likelihood
``p ** s * (1 - p) ** (1 - s)``, so only each pairing's points and games matter. The ratings
maximise that likelihood (scipy.optimize, with the gradient), and are then anchored: the mean
at 0, or one engine at 0. Every pairing that was played also counts ``virtual_draws`` drawn
games (BayesElo's prior), so an engine that won or lost every game still has a finite rating;
with 0 it is the plain maximum-likelihood estimate, which for two engines is the match's Elo.

The 95% intervals and the likelihood of superiority come from a bootstrap over units: a
colour-swapped pair of games (a lone game of an unfinished pair is a unit of its own),
resampled within its pairing, so the schedule (which pairings played how often) is kept and
the two games of a pair, which share their opening and their luck, stay together.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import minimize
from scipy.sparse.csgraph import connected_components

from crystalpick.engine import GameError

SCALE = math.log(10) / 400          # Elo points -> natural log-odds
BOOTSTRAP = 1000                    # resamples by default
VIRTUAL_DRAWS = 1.0                 # drawn games added to every pairing played
MODEL = "logistic Elo, draws as half points"


@dataclass(frozen=True)
class Unit:
    """Games of ``first`` against ``second`` that belong together (a colour-swapped pair):
    ``scores`` are ``first``'s, one a game."""

    first: str
    second: str
    scores: tuple[float, ...]


@dataclass
class Rating:
    engine: str
    elo: float
    low: float
    high: float
    games: int
    points: float
    draws: int

    @property
    def score(self) -> float:
        return self.points / self.games if self.games else 0.5


@dataclass
class RatingList:
    """Ratings best first, with ``los[a][b]``: the share of resamples rating ``a`` above
    ``b``."""

    ratings: list[Rating]
    los: dict[str, dict[str, float]]
    anchor: str | None                  # None: the mean is 0
    virtual_draws: float
    bootstrap: int
    seed: int
    games: int
    model: str = field(default=MODEL)

    def document(self) -> dict:
        return {"model": self.model, "anchor": self.anchor or "mean",
                "virtual_draws": self.virtual_draws, "bootstrap": self.bootstrap,
                "seed": self.seed, "games": self.games,
                "ratings": [{"engine": r.engine, "elo": round(r.elo, 1),
                             "low": round(r.low, 1), "high": round(r.high, 1),
                             "games": r.games, "points": r.points, "draws": r.draws,
                             "score": round(r.score, 4)} for r in self.ratings],
                "los": {a: {b: round(p, 4) for b, p in row.items()}
                        for a, row in self.los.items()}}


def connected_groups(units: list[Unit]) -> list[list[Unit]]:
    """``units`` split into groups of engines connected by games: engines that never met,
    directly or through others, cannot be rated against each other."""
    parent: dict[str, str] = {}

    def root(name: str) -> str:
        while parent.setdefault(name, name) != name:
            name = parent[name]
        return name

    for unit in units:
        parent[root(unit.first)] = root(unit.second)
    groups: dict[str, list[Unit]] = {}
    for unit in units:
        groups.setdefault(root(unit.first), []).append(unit)
    return list(groups.values())


def fit(pairings: np.ndarray, points: np.ndarray, games: np.ndarray, count: int,
        start: np.ndarray | None = None) -> np.ndarray:
    """Maximum-likelihood ratings (Elo, engine 0 at 0) of ``count`` engines from the points
    ``points[k]`` that ``pairings[k, 0]`` scored in ``games[k]`` games against
    ``pairings[k, 1]``."""
    first, second = pairings[:, 0], pairings[:, 1]

    def expected(free):
        ratings = np.concatenate(([0.0], free))
        difference = SCALE * (ratings[first] - ratings[second])
        return difference, 1 / (1 + np.exp(-difference))

    def negative_log_likelihood(free):
        difference, p = expected(free)
        # log p = -log(1 + e^-d), log(1 - p) = -log(1 + e^d), both without overflow
        value = np.sum(points * np.logaddexp(0, -difference)
                       + (games - points) * np.logaddexp(0, difference))
        residual = SCALE * (points - games * p)
        gradient = np.zeros(count)
        np.add.at(gradient, first, -residual)
        np.add.at(gradient, second, residual)
        return value, gradient[1:]

    def hessian(free):
        _, p = expected(free)
        weight = SCALE ** 2 * games * p * (1 - p)
        matrix = np.zeros((count, count))
        np.add.at(matrix, (first, first), weight)
        np.add.at(matrix, (second, second), weight)
        np.add.at(matrix, (first, second), -weight)
        np.add.at(matrix, (second, first), -weight)
        return matrix[1:, 1:]

    initial = np.zeros(count - 1) if start is None else start[1:] - start[0]
    found = minimize(negative_log_likelihood, initial, jac=True, hess=hessian,
                     method="trust-ncg", options={"gtol": 1e-10})
    return np.concatenate(([0.0], found.x))


def rate(units: list[Unit], anchor: str | None = None, virtual_draws: float = VIRTUAL_DRAWS,
         bootstrap: int = BOOTSTRAP, seed: int = 0) -> RatingList:
    """The rating list of the engines of ``units`` (which must be connected:
    :func:`connected_groups`), anchored at the mean or at ``anchor``."""
    engines = sorted(players(units))
    if len(engines) < 2:
        raise GameError("ratings need games between at least two engines")
    if len(connected_groups(units)) > 1:
        raise GameError("these engines fall into groups that never met: rate each group")
    if anchor is not None and anchor not in engines:
        raise GameError(f"anchor {anchor!r} played none of these games; engines: "
                        f"{', '.join(engines)}")
    index = {name: i for i, name in enumerate(engines)}
    by_pairing: dict[tuple[int, int], list[Unit]] = {}
    for unit in units:
        by_pairing.setdefault((index[unit.first], index[unit.second]), []).append(unit)
    pairings = np.array(list(by_pairing), dtype=int)
    unit_points = [np.array([sum(u.scores) for u in group]) for group in by_pairing.values()]
    unit_games = [np.array([len(u.scores) for u in group]) for group in by_pairing.values()]
    points = np.array([p.sum() for p in unit_points]) + virtual_draws / 2
    games = np.array([g.sum() for g in unit_games]) + virtual_draws
    if not bounded(pairings, points, games, len(engines)):
        raise GameError("some engines scored every point against the others, so their "
                        "maximum-likelihood ratings are unbounded: add virtual draws (a prior)")
    estimate = fit(pairings, points, games, len(engines))
    rng = np.random.default_rng(seed)
    samples = np.empty((bootstrap, len(engines)))
    drawn = [rng.integers(0, len(p), size=(bootstrap, len(p))) for p in unit_points]
    resampled_points = np.stack([p[d].sum(axis=1) for p, d in zip(unit_points, drawn)], 1)
    resampled_games = np.stack([g[d].sum(axis=1) for g, d in zip(unit_games, drawn)], 1)
    for b in range(bootstrap):
        samples[b] = fit(pairings, resampled_points[b] + virtual_draws / 2,
                         resampled_games[b] + virtual_draws, len(engines), estimate)
    offset = (lambda r: r[..., index[anchor]]) if anchor else (lambda r: r.mean(axis=-1))
    estimate = estimate - offset(estimate)
    samples = samples - offset(samples)[:, None]
    low, high = np.percentile(samples, [2.5, 97.5], axis=0) if bootstrap \
        else (estimate, estimate)
    ratings = [Rating(name, float(estimate[i]), float(low[i]), float(high[i]),
                      *played(name, units)) for i, name in enumerate(engines)]
    ratings.sort(key=lambda r: -r.elo)
    los = {a.engine: {b.engine: superiority(samples, index[a.engine], index[b.engine])
                      for b in ratings if b is not a} for a in ratings}
    return RatingList(ratings, los, anchor, virtual_draws, bootstrap, seed,
                      sum(len(u.scores) for u in units))


def bounded(pairings: np.ndarray, points: np.ndarray, games: np.ndarray, count: int) -> bool:
    """Whether the likelihood has a finite maximum: every engine reaches every other by a
    chain of points scored (the graph of "scored against" strongly connected); else some
    group won everything against the rest and could be rated infinitely higher."""
    scored = np.zeros((count, count))
    scored[pairings[:, 0], pairings[:, 1]] += points
    scored[pairings[:, 1], pairings[:, 0]] += games - points
    groups, _ = connected_components(scored > 0, directed=True, connection="strong")
    return groups == 1


def superiority(samples: np.ndarray, a: int, b: int) -> float:
    """The share of resamples rating engine ``a`` above ``b`` (a tie counts half)."""
    if not len(samples):
        return 0.5
    return float(np.mean(samples[:, a] > samples[:, b]) + 0.5 * np.mean(samples[:, a] ==
                                                                        samples[:, b]))


def players(units: list[Unit]) -> set[str]:
    return {name for unit in units for name in (unit.first, unit.second)}


def played(engine: str, units: list[Unit]) -> tuple[int, float, int]:
    """(games, points, draws) of ``engine`` over ``units``."""
    games, points, draws = 0, 0.0, 0
    for unit in units:
        if engine in (unit.first, unit.second):
            mine = unit.scores if engine == unit.first else [1 - s for s in unit.scores]
            games += len(mine)
            points += sum(mine)
            draws += sum(1 for s in mine if s == 0.5)
    return games, points, draws


def format_document(rated: dict) -> str:
    """A rating list (:meth:`RatingList.document`) as text: Ordo's columns, then the
    likelihood-of-superiority matrix."""
    rows = rated["ratings"]
    width = max(len(r["engine"]) for r in rows)
    anchor = f"{rated['anchor']} = 0" if rated["anchor"] != "mean" else "mean 0"
    lines = [f"{'#':>2}  {'engine':<{width}}  {'Elo':>7}  {'95% interval':>18}  {'games':>5}  "
             f"{'points':>7}  {'score':>6}  {'draws':>6}"]
    for rank, r in enumerate(rows, 1):
        lines.append(f"{rank:>2}  {r['engine']:<{width}}  {r['elo']:>+7.1f}  "
                     f"[{r['low']:>+7.1f}, {r['high']:>+7.1f}]  {r['games']:>5}  "
                     f"{r['points']:>7g}  {100 * r['score']:>5.1f}%  "
                     f"{100 * r['draws'] / max(r['games'], 1):>5.1f}%")
    lines.append(f"({rated['model']}; anchor: {anchor}; {rated['virtual_draws']:g} virtual "
                 f"draw(s) a pairing; intervals: {rated['bootstrap']} bootstrap resamples of "
                 f"game pairs, seed {rated['seed']})")
    lines.append("LOS (row rated above column): " + ", ".join(
        f"{rank}={r['engine']}" for rank, r in enumerate(rows, 1)))
    lines.append("   " + "".join(f"{rank:>7}" for rank in range(1, len(rows) + 1)))
    for rank, a in enumerate(rows, 1):
        cells = [f"{'-':>7}" if b is a else f"{rated['los'][a['engine']][b['engine']]:>7.3f}"
                 for b in rows]
        lines.append(f"{rank:>3}" + "".join(cells))
    return "\n".join(lines)
