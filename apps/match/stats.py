"""Match statistics as fastchess and cutechess report them.

Scores are from the first engine's point of view (win 1, draw 1/2, loss 0). With games played
in colour-swapped pairs, the pentanomial model counts pairs by their total (0, 1/2, 1, 3/2,
2) and gives honest error bars, because the two games of a pair share an opening (and in
Maatatahay the chance sequence) and are correlated; the trinomial model treats every game as
independent. Elo intervals are 95% normal intervals on the mean score, mapped to Elo. An
interval needs a spread to estimate: with fewer than two units (pairs or games), or with every
unit scoring the same, it is not computed (NaN ends and a reason in ``Interval.missing``)
rather than shown as a zero width that would claim certainty. The Wilson interval
(:func:`wilson_interval`) needs no spread: it bounds a unit's variance by its mean's.

The SPRT is the generalised SPRT (Van den Bergh). With logistic Elo bounds its LLR is exact:
the log ratio of the data's likelihood under the most likely outcome distributions whose mean
scores are s0 and s1 (the scores the hypotheses predict). With normalised bounds it is the
normal approximation, as in fastchess: ``LLR = N (s1 - s0) (2 mean - s0 - s1) / (2 var)``.
Either way N, mean and var are taken per game (trinomial) or per pair (pentanomial), and an
outcome not seen yet counts EMPTY_COUNT times: without that, a first won pair has variance 0
and the approximation would accept H1 at once (the exact ratio needs every bin present).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

Z95 = 1.959963984540054
NELO_SCALE = 800 / math.log(10)          # normalized Elo per unit of t-value
PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)  # LL, LD, WL or DD, WD, WW as a mean per game
PAIR_NAMES = ("LL", "LD", "WL+DD", "WD", "WW")
EMPTY_COUNT = 1e-3     # an outcome never seen counts this much in the SPRT (as in fishtest)
VIRTUAL_DRAWS = 0.5    # the rating model's prior: drawn games added to every pairing
DRAW_DOUBT = 10        # decisive games assumed beside the draws seen (dispersion)


def logistic_elo(score: float) -> float:
    """Elo difference that predicts an expected score of ``score`` (infinite at 0 and 1)."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def dispersion(draws: int, games: float, variance: float) -> float:
    """How much less the scores vary than the half-point model says (1: as it says): a draw
    scores exactly the 1/2 the model spreads over a win and a loss, so the scores' variance
    is the model's ``variance`` (its p (1 - p) summed over the games) less a quarter a draw.
    The draws are counted as if DRAW_DOUBT more games had been decisive, so a few draws (or
    nothing but draws) never make an interval collapse. The likelihood is then raised to the
    power 1 / dispersion (quasi-likelihood); without draws it is exactly 1."""
    if not games:
        return 1.0
    weight = games / (games + DRAW_DOUBT)
    return max(1 - weight * draws / 4 / variance, 1 - weight)


def two_engine_los(points: float, games: int, draws: int = 0,
                   virtual_draws: float = VIRTUAL_DRAWS) -> float:
    """P(the first engine is the stronger) after scoring ``points`` in ``games`` (``draws``
    of them drawn) against the second: the posterior of its expected score is Beta(points / d
    + v/2, (games - points) / d + v/2) (v virtual draws, d the :func:`dispersion`; a flat
    prior on the Elo difference), and this is its mass above 1/2. With no games and no prior
    nothing is known: 0.5."""
    score = (points + virtual_draws / 2) / (games + virtual_draws) if games else 0.5
    spread = dispersion(draws, games, games * score * (1 - score))
    a, b = points / spread + virtual_draws / 2, (games - points) / spread + virtual_draws / 2
    if a <= 0 or b <= 0:
        return 0.5 if a == b else float(a > b)
    from scipy.special import betainc   # (late: scipy takes ~1 s to import on a busy machine)
    return float(betainc(b, a, 0.5))    # the Beta(a, b) mass above 1/2


def expected_score(elo: float) -> float:
    return 1 / (1 + 10 ** (-elo / 400))


@dataclass
class Interval:
    low: float
    mean: float
    high: float
    missing: str | None = None     # why there are no ends (NaN): too few units, no spread

    @property
    def error(self) -> float:
        """Half width, for the usual 'Elo ± error' display (NaN when ``missing``)."""
        return (self.high - self.low) / 2

    def ends(self, digits: int) -> dict:
        """``low`` and ``high`` rounded for a JSON document; when ``missing``, None and
        ``no_interval`` saying why (JSON has no NaN)."""
        if self.missing:
            return {"low": None, "high": None, "no_interval": self.missing}
        return {"low": round(self.low, digits), "high": round(self.high, digits)}

    def mapped(self, function) -> "Interval":
        """The interval through a monotone ``function`` (a score to Elo, say)."""
        return Interval(function(self.low), function(self.mean), function(self.high),
                        self.missing)


def mean_interval(n: int, mean: float, variance: float, unit: str = "sample") -> Interval:
    """The 95% normal interval on the mean of ``n`` units (``unit``: what one is, for the
    reason) whose (population) variance is ``variance``: the one interval formula of matches
    and the deck advisor. The variance is estimated from the units themselves, so with fewer
    than two, or no spread among them, there is no interval: NaN ends and ``missing`` says
    why."""
    if n < 2:
        return no_interval(mean, f"{n} {unit}{'' if n == 1 else 's'}, an interval needs 2")
    if variance <= 0:
        return no_interval(mean, f"all {n} {unit}s scored the same, no spread to measure")
    half = Z95 * math.sqrt(variance / n)
    return Interval(mean - half, mean, mean + half)


def wilson_interval(n: int, mean: float, unit: str = "sample") -> Interval:
    """The 95% Wilson score interval on the mean of ``n`` units each scoring in [0, 1]: a
    unit's variance is at most mean (1 - mean), the binomial's, so this holds (if anything
    too wide) for pairs' and drawn games' scores too. Unlike :func:`mean_interval` it needs
    no spread in the sample: a clean sweep still bounds the score from below."""
    if n < 1:
        return no_interval(mean, f"0 {unit}s, an interval needs 1")
    z2 = Z95 * Z95 / n
    centre = (mean + z2 / 2) / (1 + z2)
    half = Z95 / (1 + z2) * math.sqrt(mean * (1 - mean) / n + z2 / (4 * n))
    return Interval(max(centre - half, 0.0), mean, min(centre + half, 1.0))


def no_interval(mean: float, reason: str) -> Interval:
    return Interval(math.nan, mean, math.nan, reason)


def sample_interval(values) -> Interval:
    """:func:`mean_interval` of equally weighted observations (e.g. paired differences)."""
    values = list(values)
    return mean_interval(*_moments(values, [1] * len(values)))


def _moments(values, counts) -> tuple[int, float, float]:
    """Units, mean and variance of scores ``values`` observed ``counts`` times each."""
    values = np.asarray(values, dtype=float)
    mean = np.average(values, weights=counts)
    variance = np.average((values - mean) ** 2, weights=counts)
    return int(sum(counts)), float(mean), float(variance)


def _likelihood_ratio(values, counts, s0: float, s1: float) -> float:
    """log L1/L0 where Lj is the likelihood of ``counts`` under the outcome distribution of
    mean score sj that fits them best: p_i = (n_i / N) / (1 + theta (x_i - sj)), with theta
    the root (found by bisection: the sum falls as theta grows) of sum n_i (x_i - sj) /
    (1 + theta (x_i - sj)) = 0. Every count must be positive and each sj inside the range
    of the values."""
    def theta(s: float) -> float:
        low, high = -1 / (max(values) - s), 1 / (s - min(values))
        for _ in range(100):
            middle = (low + high) / 2
            if sum(n * (x - s) / (1 + middle * (x - s)) for x, n in zip(values, counts)) > 0:
                low = middle
            else:
                high = middle
        return (low + high) / 2

    t0, t1 = theta(s0), theta(s1)
    return sum(n * math.log((1 + t0 * (x - s0)) / (1 + t1 * (x - s1)))
               for x, n in zip(values, counts))


@dataclass
class Results:
    """Win/draw/loss counts for the first engine, plus pentanomial counts over pairs."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    pairs: list[int] = field(default_factory=lambda: [0] * 5)   # indexed like PAIR_SCORES

    def add_game(self, score: float) -> None:
        if score == 1:
            self.wins += 1
        elif score == 0:
            self.losses += 1
        else:
            self.draws += 1

    def add_pair(self, first: float, second: float) -> None:
        """Both games of a colour-swapped pair, each from the first engine's view."""
        self.add_game(first)
        self.add_game(second)
        self.pairs[round((first + second) * 2)] += 1

    def __add__(self, other: "Results") -> "Results":
        """Both sets of games together (``sum(results, Results())``)."""
        return Results(self.wins + other.wins, self.draws + other.draws,
                       self.losses + other.losses, [a + b for a, b in zip(self.pairs,
                                                                           other.pairs)])

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return (self.wins + self.draws / 2) / self.games if self.games else 0.5

    @property
    def draw_ratio(self) -> float:
        return self.draws / self.games if self.games else 0.0

    def _outcomes(self, pentanomial: bool, regularized: bool = False):
        """(scores, counts) per pair or per game; ``regularized``: an outcome not seen yet
        counts EMPTY_COUNT times."""
        values, counts = (PAIR_SCORES, self.pairs) if pentanomial else (
            (1.0, 0.5, 0.0), (self.wins, self.draws, self.losses))
        return values, [c or EMPTY_COUNT for c in counts] if regularized else list(counts)

    @staticmethod
    def unit_name(pentanomial: bool) -> str:
        return "pair" if pentanomial else "game"

    def _unit(self, pentanomial: bool, regularized: bool = False
              ) -> tuple[int, float, float]:
        """(units, mean score, variance of one unit's mean score): per pair or per game."""
        _, counts = self._outcomes(pentanomial)
        _, mean, variance = _moments(*self._outcomes(pentanomial, regularized))
        return sum(counts), mean, variance

    def use_pentanomial(self) -> bool:
        return sum(self.pairs) > 0

    def score_interval(self, pentanomial: bool | None = None) -> Interval:
        """The mean score with its 95% interval (within [0, 1]), per pair when pairs are
        complete (pentanomial), else per game."""
        pentanomial = self.use_pentanomial() if pentanomial is None else pentanomial
        score = mean_interval(*self._unit(pentanomial), self.unit_name(pentanomial))
        if score.missing:
            return score
        return Interval(max(score.low, 0.0), score.mean, min(score.high, 1.0))

    def wilson_interval(self, pentanomial: bool | None = None) -> Interval:
        """The mean score with its 95% :func:`wilson_interval`, per pair or per game as
        :meth:`score_interval`: defined for a clean sweep too."""
        pentanomial = self.use_pentanomial() if pentanomial is None else pentanomial
        n, mean, _ = self._unit(pentanomial)
        return wilson_interval(n, mean, self.unit_name(pentanomial))

    def elo(self, pentanomial: bool | None = None) -> Interval:
        return self.score_interval(pentanomial).mapped(logistic_elo)

    def normalized_elo(self, pentanomial: bool | None = None) -> Interval:
        """Elo scaled by the result's own spread (nElo): comparable across draw rates."""
        pentanomial = self.use_pentanomial() if pentanomial is None else pentanomial
        n, mean, variance = self._unit(pentanomial)
        score = mean_interval(n, mean, variance, self.unit_name(pentanomial))
        if variance == 0:      # every unit scored the same: no spread to normalise by
            return no_interval(math.nan, score.missing)
        per_game_sd = math.sqrt(variance * (2 if pentanomial else 1))
        return score.mapped(lambda s: (s - 0.5) / per_game_sd * NELO_SCALE)

    def los(self) -> float:
        """Likelihood of superiority: P(the first engine is the stronger) over every game,
        in the rating list's model (:func:`two_engine_los`), so a match and the rating list
        of its two engines give the same."""
        return two_engine_los(self.wins + self.draws / 2, self.games, self.draws)


@dataclass(frozen=True)
class SPRT:
    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "normalized"      # or "logistic": what elo0/elo1 are measured in

    def __post_init__(self):
        if not (0 < self.alpha < 1 and 0 < self.beta < 1):
            raise ValueError("SPRT alpha and beta must lie strictly between 0 and 1")
        if self.elo0 >= self.elo1:
            raise ValueError("SPRT needs elo0 < elo1")
        if self.model not in ("normalized", "logistic"):
            raise ValueError("SPRT model must be 'normalized' or 'logistic'")

    @property
    def lower_bound(self) -> float:
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper_bound(self) -> float:
        return math.log((1 - self.beta) / self.alpha)

    def llr(self, results: Results, pentanomial: bool | None = None) -> float:
        pentanomial = results.use_pentanomial() if pentanomial is None else pentanomial
        if (sum(results.pairs) if pentanomial else results.games) == 0:
            return 0.0
        if self.model == "logistic":
            values, counts = results._outcomes(pentanomial, regularized=True)
            s0, s1 = expected_score(self.elo0), expected_score(self.elo1)
            return _likelihood_ratio(values, counts, s0, s1)
        n, mean, variance = results._unit(pentanomial, regularized=True)
        sd = math.sqrt(variance * (2 if pentanomial else 1))
        s0 = 0.5 + self.elo0 / NELO_SCALE * sd
        s1 = 0.5 + self.elo1 / NELO_SCALE * sd
        return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)

    def decision(self, results: Results) -> str | None:
        """'H1' (accept elo1), 'H0' (accept elo0) or None (keep playing)."""
        llr = self.llr(results)
        if llr >= self.upper_bound:
            return "H1"
        if llr <= self.lower_bound:
            return "H0"
        return None

    @classmethod
    def parse(cls, text: str) -> "SPRT":
        """From the CLI form ``elo0=0,elo1=10,alpha=0.05,beta=0.05[,model=logistic]``."""
        fields = {}
        for item in filter(None, text.split(",")):
            key, sep, value = item.partition("=")
            if not sep or key not in ("elo0", "elo1", "alpha", "beta", "model"):
                raise ValueError(f"SPRT setting {item!r}: expected elo0=, elo1=, alpha=, "
                                 f"beta= or model=")
            try:
                fields[key] = value if key == "model" else float(value)
            except ValueError:
                raise ValueError(f"SPRT setting {item!r}: {value!r} is not a number") from None
            if key != "model" and not (math.isfinite(fields[key]) and abs(fields[key]) <= 1000):
                raise ValueError(f"SPRT setting {item!r}: expected a finite number in "
                                 f"-1000..1000")
        return cls(**fields)
