"""A rating list of several engines from all their games (a tournament's, or every match of a
results database), as Ordo and BayesElo make one.

The model is the logistic Elo model with draws as half points (Ordo's, and the one
:func:`.stats.logistic_elo` inverts): engine ``i`` scores against ``j`` with expectation
``p = 1 / (1 + 10 ** ((r_j - r_i) / 400))``, a game scoring ``s`` has likelihood
``p ** s * (1 - p) ** (1 - s)``, so only each pairing's points and games matter. The prior
(BayesElo's) is ``virtual_draws`` drawn games added to every pairing played (half a game by
default, the weakest that covered in the measurement below; one would be Jeffreys' prior on
two engines' score); it keeps a perfect score finite. A draw varies less than the model's
half win and half loss, so with draws the likelihood counts for more
(:func:`.stats.dispersion`); without them the model is exactly the one above.

The ratings are the posterior's mode (scipy.optimize, with the gradient), anchored with the
mean at 0 or one engine at 0. The 95% intervals and the likelihood of superiority come from
the posterior itself, so they are as wide as the evidence, however few the games: for two
engines the posterior of the score is a Beta distribution, drawn exactly (and its LOS is
:func:`two_engine_los`, the match summary's); for more, draws from a Student-t around the
mode weighted to the posterior (importance sampling). Where the games alone set no bound (an
engine won or lost every game) the interval's end says so: it is the prior's, not theirs.
Their coverage of the true ratings, measured: docs/research/rating-intervals.md.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from crystalpick.engine import GameError

from .stats import VIRTUAL_DRAWS, dispersion, two_engine_los

SCALE = math.log(10) / 400          # Elo points -> natural log-odds
SAMPLES = 20_000                    # posterior draws by default
TAIL_DF = 4                         # degrees of freedom of the importance sampler's Student-t
BLOCK = 2_000_000                   # draws x pairings whose likelihood is computed at once
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
    low: float                          # -inf: the games set no lower bound
    high: float                         # +inf: the games set no upper bound
    games: int
    points: float
    draws: int
    opponents: float = 0.0              # the mean rating of its opponents, a game each

    @property
    def score(self) -> float:
        return self.points / self.games if self.games else 0.5


@dataclass
class RatingList:
    """Ratings best first, with ``los[a][b]``: the posterior probability that ``a`` is
    stronger than ``b``."""

    ratings: list[Rating]
    los: dict[str, dict[str, float]]
    anchor: str | None                  # None: the mean is 0
    virtual_draws: float
    samples: int
    effective: int                      # the draws' effective number (importance weights)
    seed: int
    games: int
    dispersion: float = 1.0             # the draws' narrowing of the spread (stats.dispersion)
    model: str = field(default=MODEL)

    def document(self) -> dict:
        rows = []
        for rank, r in enumerate(self.ratings):
            following = self.ratings[rank + 1].engine if rank + 1 < len(self.ratings) else None
            rows.append({"engine": r.engine, "elo": round(r.elo, 1) + 0.0, **ends(r),
                         "games": r.games, "points": r.points, "draws": r.draws,
                         "score": round(r.score, 4), "opponents": round(r.opponents, 1) + 0.0,
                         "los_next": round(self.los[r.engine][following], 4)
                         if following else None})
        return {"model": self.model, "anchor": self.anchor or "mean",
                "virtual_draws": self.virtual_draws, "interval": "posterior",
                "samples": self.samples, "effective_samples": self.effective,
                "seed": self.seed, "games": self.games,
                "dispersion": round(self.dispersion, 4), "ratings": rows,
                "los": {a: {b: round(p, 4) for b, p in row.items()}
                        for a, row in self.los.items()}}


def ends(rating: Rating) -> dict:
    """The interval's ends for JSON: an end the games do not bound is null, and flagged."""
    document = {}
    for name, value in (("low", rating.low), ("high", rating.high)):
        document[name] = round(value, 1) if math.isfinite(value) else None
        if not math.isfinite(value):
            document[f"unbounded_{name}"] = True
    return document


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


def log_posterior(ratings: np.ndarray, pairings: np.ndarray, points: np.ndarray,
                  games: np.ndarray) -> np.ndarray:
    """The log posterior (up to a constant) of rating vectors ``ratings[..., engine]`` (Elo):
    ``points`` and ``games`` include the virtual draws, which are the prior."""
    difference = SCALE * (ratings[..., pairings[:, 0]] - ratings[..., pairings[:, 1]])
    # log p = -log(1 + e^-d), log(1 - p) = -log(1 + e^d), both without overflow
    return -np.sum(points * np.logaddexp(0, -difference)
                   + (games - points) * np.logaddexp(0, difference), axis=-1)


def information(ratings: np.ndarray, pairings: np.ndarray, games: np.ndarray,
                count: int) -> np.ndarray:
    """The negative log posterior's Hessian (per Elo squared) in the ratings of engines 1..,
    engine 0 held at its rating."""
    first, second = pairings[:, 0], pairings[:, 1]
    p = 1 / (1 + np.exp(-SCALE * (ratings[first] - ratings[second])))
    weight = SCALE ** 2 * games * p * (1 - p)
    matrix = np.zeros((count, count))
    np.add.at(matrix, (first, first), weight)
    np.add.at(matrix, (second, second), weight)
    np.add.at(matrix, (first, second), -weight)
    np.add.at(matrix, (second, first), -weight)
    return matrix[1:, 1:]


def fit(pairings: np.ndarray, points: np.ndarray, games: np.ndarray, count: int) -> np.ndarray:
    """The ratings (Elo, engine 0 at 0) of ``count`` engines that make the points
    ``points[k]`` that ``pairings[k, 0]`` scored in ``games[k]`` games against
    ``pairings[k, 1]`` most likely."""
    first, second = pairings[:, 0], pairings[:, 1]

    def negative(free):
        ratings = np.concatenate(([0.0], free))
        p = 1 / (1 + np.exp(-SCALE * (ratings[first] - ratings[second])))
        residual = SCALE * (points - games * p)
        gradient = np.zeros(count)
        np.add.at(gradient, first, -residual)
        np.add.at(gradient, second, residual)
        return -log_posterior(ratings, pairings, points, games), gradient[1:]

    from scipy.optimize import minimize    # (late: a match's report needs no scipy)
    found = minimize(negative, np.zeros(count - 1), jac=True, method="trust-ncg",
                     hess=lambda free: information(np.concatenate(([0.0], free)), pairings,
                                                   games, count),
                     options={"gtol": 1e-10})
    return np.concatenate(([0.0], found.x))


def draw(pairings: np.ndarray, points: np.ndarray, games: np.ndarray, mode: np.ndarray,
         samples: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Posterior draws of the ratings (engine 0 at 0) and their weights. Two engines: the
    Beta posterior of the score, exactly (its log-odds from two Gamma draws, stable however
    small a shape). More: importance sampling from a Student-t (heavy tails, so the weights
    stay bounded), first with the mode's curvature, then again with the weighted draws' own
    mean and covariance, which follow a skewed posterior (few games, a perfect score)."""
    count = len(mode)
    if count == 2:
        def log_gamma(shape):                   # log of a Gamma(shape) draw
            return np.log(rng.gamma(shape + 1, size=samples)) + \
                np.log(rng.random(samples)) / shape

        difference = (log_gamma(points[0]) - log_gamma(games[0] - points[0])) / SCALE
        ratings = np.zeros((samples, 2))
        ratings[:, 1] = -difference                  # the one pairing is (0, 1)
        return ratings, np.ones(samples)
    centre, spread = mode[1:], np.linalg.inv(information(mode, pairings, games, count))
    for _ in range(2):
        lower = np.linalg.cholesky(spread)
        normal = rng.standard_normal((samples, count - 1))
        stretch = np.sqrt(TAIL_DF / rng.chisquare(TAIL_DF, samples))
        ratings = np.zeros((samples, count))
        ratings[:, 1:] = centre + (normal @ lower.T) * stretch[:, None]
        distance = np.sum(normal ** 2, axis=1) * stretch ** 2      # Mahalanobis, squared
        log_proposal = -(TAIL_DF + count - 1) / 2 * np.log1p(distance / TAIL_DF)
        blocks = np.array_split(ratings, max(1, samples * len(pairings) // BLOCK))
        log_weight = np.concatenate([log_posterior(block, pairings, points, games)
                                     for block in blocks]) - log_proposal
        weights = np.exp(log_weight - log_weight.max())
        adapted = np.cov(ratings[:, 1:], rowvar=False, aweights=weights).reshape(
            count - 1, count - 1) * (TAIL_DF - 2) / TAIL_DF   # a t's covariance: df/(df-2)
        if np.all(np.linalg.eigvalsh(adapted) > 1e-9):    # else too few weighty draws
            centre = np.average(ratings[:, 1:], axis=0, weights=weights)
            spread = adapted
    return ratings, weights


def quantiles(values: np.ndarray, weights: np.ndarray, levels) -> np.ndarray:
    """Weighted quantiles ``levels`` of each column of ``values``."""
    order = np.argsort(values, axis=0)
    cumulative = np.cumsum(weights[order], axis=0) / weights.sum()
    return np.array([[values[order[min(np.searchsorted(cumulative[:, k], level),
                                       len(values) - 1), k], k]
                      for k in range(values.shape[1])] for level in levels])


def rate(units: list[Unit], anchor: str | None = None, virtual_draws: float = VIRTUAL_DRAWS,
         samples: int = SAMPLES, seed: int = 0) -> RatingList:
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
    if samples < 100:
        raise GameError(f"{samples} posterior samples: at least 100 are needed")
    index = {name: i for i, name in enumerate(engines)}
    pairings, scored, played_games = pairing_totals(units, index)
    points, games = scored + virtual_draws / 2, played_games + virtual_draws
    if not bounded(pairings, points, games, len(engines)):
        raise GameError("some engines scored every point against the others, so their "
                        "ratings are unbounded without a prior: add virtual draws (--prior)")
    draws = sum(score == 0.5 for unit in units for score in unit.scores)
    mode = fit(pairings, points, games, len(engines))
    expected = 1 / (1 + np.exp(-SCALE * (mode[pairings[:, 0]] - mode[pairings[:, 1]])))
    spread = dispersion(draws, played_games.sum(), np.sum(played_games * expected *
                                                           (1 - expected)))
    if spread < 1:                                  # draws: the games say more
        points = scored / spread + virtual_draws / 2
        games = played_games / spread + virtual_draws
        mode = fit(pairings, points, games, len(engines))
    drawn, weights = draw(pairings, points, games, mode, samples, np.random.default_rng(seed))
    offset = (lambda r: r[..., index[anchor]]) if anchor else (lambda r: r.mean(axis=-1))
    mode = mode - offset(mode)
    drawn = drawn - offset(drawn)[:, None]
    low, high = quantiles(drawn, weights, (0.025, 0.975))
    free = unbounded(pairings, scored, played_games, len(engines), index.get(anchor))
    ratings = []
    for i, name in enumerate(engines):
        games_of, points_of, draws_of = played(name, units)
        opponents = sum(games_of_pair * mode[j if k == i else k] for (k, j), games_of_pair
                        in zip(pairings, played_games) if i in (k, j)) / games_of
        ratings.append(Rating(name, float(mode[i]), -math.inf if free[i, 0] else
                              float(low[i]), math.inf if free[i, 1] else float(high[i]),
                              games_of, points_of, draws_of, float(opponents)))
    ratings.sort(key=lambda r: -r.elo)
    if len(engines) == 2:
        first_wins = two_engine_los(scored[0], played_games[0], draws, virtual_draws)
        los = {engines[0]: {engines[1]: first_wins}, engines[1]: {engines[0]: 1 - first_wins}}
    else:
        los = {a.engine: {b.engine: superiority(drawn, weights, index[a.engine],
                                                index[b.engine])
                          for b in ratings if b is not a} for a in ratings}
    effective = int(weights.sum() ** 2 / np.sum(weights ** 2))
    return RatingList(ratings, los, anchor, virtual_draws, samples, effective, seed,
                      sum(len(u.scores) for u in units), spread)


def pairing_totals(units: list[Unit], index: dict[str, int]
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each pairing (engine numbers, the lower first: a match of b against a is the same
    pairing as one of a against b) with the points its first engine scored and its games."""
    totals: dict[tuple[int, int], list[float]] = {}
    for unit in units:
        first, second = sorted((index[unit.first], index[unit.second]))
        total = totals.setdefault((first, second), [0.0, 0])
        total[0] += sum(unit.scores) if first == index[unit.first] else \
            len(unit.scores) - sum(unit.scores)
        total[1] += len(unit.scores)
    return (np.array(list(totals), dtype=int), np.array([t[0] for t in totals.values()]),
            np.array([t[1] for t in totals.values()], dtype=float))


def unbounded(pairings: np.ndarray, scored: np.ndarray, games: np.ndarray, count: int,
              anchor: int | None) -> np.ndarray:
    """``[engine, (low, high)]``: whether the games alone leave that end of the engine's
    anchored rating open, so that only the prior bounds it. Ratings may move without making
    any game less likely as long as the winner of a pairing won outright stays no lower and
    every other pairing stays level; so an engine can rise without bound, together with
    every engine that must stay at least as high, if the anchor (against the mean: any
    engine) can stay behind. An engine that won every game is open above; against the mean,
    so is every engine of a pool with one that lost every game."""
    above = np.eye(count, dtype=bool)          # above[u, v]: u must stay at least v
    for (i, j), points, played_games in zip(pairings, scored, games):
        above[i, j] |= points > 0
        above[j, i] |= points < played_games
    while True:                                # transitive closure
        wider = above | ((above.astype(int) @ above.astype(int)) > 0)
        if (wider == above).all():
            break
        above = wider
    if anchor is None:
        return np.stack([~above.all(axis=1), ~above.all(axis=0)], axis=1)
    return np.stack([~above[:, anchor], ~above[anchor, :]], axis=1)


def bounded(pairings: np.ndarray, points: np.ndarray, games: np.ndarray, count: int) -> bool:
    """Whether the likelihood has a finite maximum: every engine reaches every other by a
    chain of points scored (the graph of "scored against" strongly connected); else some
    group won everything against the rest and could be rated infinitely higher."""
    scored = np.zeros((count, count))
    scored[pairings[:, 0], pairings[:, 1]] += points
    scored[pairings[:, 1], pairings[:, 0]] += games - points
    from scipy.sparse.csgraph import connected_components
    groups, _ = connected_components(scored > 0, directed=True, connection="strong")
    return groups == 1


def superiority(samples: np.ndarray, weights: np.ndarray, a: int, b: int) -> float:
    """The posterior probability that engine ``a`` is stronger than ``b``."""
    return float(np.sum(weights * (samples[:, a] > samples[:, b])) / weights.sum())


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


def _end(value: float | None) -> str:
    return f"{'open':>7}" if value is None else f"{value:>+7.1f}"


def format_document(rated: dict) -> str:
    """A rating list (:meth:`RatingList.document`) as text: Ordo's columns (the opponents'
    mean rating, the LOS over the engine listed next), then the LOS matrix."""
    rows = rated["ratings"]
    width = max(len(r["engine"]) for r in rows)
    anchor = f"{rated['anchor']} = 0" if rated["anchor"] != "mean" else "mean 0"
    lines = [f"{'#':>2}  {'engine':<{width}}  {'Elo':>7}  {'95% interval':>18}  {'games':>5}  "
             f"{'points':>7}  {'score':>6}  {'draws':>6}  {'opp.':>7}  {'LOS next':>8}"]
    for rank, r in enumerate(rows, 1):
        following = f"{r['los_next']:>8.3f}" if r["los_next"] is not None else f"{'':>8}"
        lines.append(f"{rank:>2}  {r['engine']:<{width}}  {r['elo']:>+7.1f}  "
                     f"[{_end(r['low'])}, {_end(r['high'])}]  {r['games']:>5}  "
                     f"{r['points']:>7g}  {100 * r['score']:>5.1f}%  "
                     f"{100 * r['draws'] / max(r['games'], 1):>5.1f}%  "
                     f"{r['opponents']:>+7.1f}  {following}")
    lines.append(f"({rated['model']}; anchor: {anchor}; prior: {rated['virtual_draws']:g} "
                 f"virtual draw(s) a pairing; Elo: the posterior's mode; intervals: its 2.5% "
                 f"and 97.5% points, {rated['samples']:,} draws, seed {rated['seed']}"
                 + (f"; drawn games: variance x{rated['dispersion']:.2f} of the model's"
                    if rated["dispersion"] < 1 else "")
                 + ("; open: the games set no bound there, only the prior does"
                    if any(r["low"] is None or r["high"] is None for r in rows) else "") + ")")
    lines.append("LOS (row stronger than column): " + ", ".join(
        f"{rank}={r['engine']}" for rank, r in enumerate(rows, 1)))
    lines.append("   " + "".join(f"{rank:>7}" for rank in range(1, len(rows) + 1)))
    for rank, a in enumerate(rows, 1):
        cells = [f"{'-':>7}" if b is a else f"{rated['los'][a['engine']][b['engine']]:>7.3f}"
                 for b in rows]
        lines.append(f"{rank:>3}" + "".join(cells))
    return "\n".join(line.rstrip() for line in lines)
