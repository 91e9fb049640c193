"""The rating list (apps/match/ratings.py) on results whose answer is known: the closed form
of two engines, and synthetic tournaments between engines of known strength."""
import math

import numpy as np
import pytest

from crystalpick.engine import GameError
from crystalpick.apps.match.ratings import Unit, connected_groups, rate
from crystalpick.apps.match.stats import Results, expected_score, logistic_elo


def test_two_engines_the_likelihood_maximum_is_the_matchs_elo():
    """Without virtual draws the maximum-likelihood difference of two engines is the Elo of
    their score, as stats.py computes it for a match."""
    pairs = [(1, 0.5)] * 7 + [(0, 1)] * 4 + [(1, 1)] * 3 + [(0.5, 0)] * 2
    units = [Unit("a", "b", scores) for scores in pairs]
    results = Results()
    for first, second in pairs:
        results.add_pair(first, second)
    rated = rate(units, virtual_draws=0, bootstrap=50, seed=1)
    by_name = {r.engine: r for r in rated.ratings}
    assert by_name["a"].elo - by_name["b"].elo == pytest.approx(results.elo().mean, abs=1e-6)
    assert by_name["a"].elo == pytest.approx(-by_name["b"].elo)     # the mean is 0
    anchored = {r.engine: r for r in rate(units, anchor="b", virtual_draws=0,
                                          bootstrap=50, seed=1).ratings}
    assert anchored["b"].elo == anchored["b"].low == anchored["b"].high == 0
    assert anchored["a"].elo == pytest.approx(logistic_elo(results.score), abs=1e-6)
    assert (by_name["a"].games, by_name["a"].points, by_name["a"].draws) == \
        (results.games, results.wins + results.draws / 2, results.draws)


def test_virtual_draws_keep_a_perfect_score_finite():
    units = [Unit("strong", "weak", (1, 1))] * 5
    with pytest.raises(GameError, match="unbounded"):
        rate(units, virtual_draws=0)
    cycle = units + [Unit("weak", "third", (1, 0.5)), Unit("third", "strong", (0.5, 0))]
    assert rate(cycle, virtual_draws=0, bootstrap=0).ratings[0].engine == "strong"
    rated = {r.engine: r for r in rate(units, bootstrap=20, seed=1).ratings}
    # 10 wins and one virtual draw: 10.5 of 11
    assert rated["strong"].elo - rated["weak"].elo == \
        pytest.approx(logistic_elo(10.5 / 11), abs=1e-6)


def synthetic_units(strengths: dict[str, float], pairs: int, seed: int) -> list[Unit]:
    """A round-robin of colour-swapped pairs between engines of known Elo: each game a win,
    draw or loss whose expected score is the logistic model's (draws up to 60% of the
    weaker side's share)."""
    rng = np.random.default_rng(seed)
    names = list(strengths)
    units = []
    for i, first in enumerate(names):
        for second in names[i + 1:]:
            p = expected_score(strengths[first] - strengths[second])
            draw = 0.6 * min(p, 1 - p)
            outcomes = [1.0, 0.5, 0.0]
            chances = [p - draw / 2, draw, 1 - p - draw / 2]
            for _ in range(pairs):
                units.append(Unit(first, second, tuple(rng.choice(outcomes, 2, p=chances))))
    return units


def test_known_strengths_are_recovered_within_their_intervals():
    """Five synthetic round-robins (1,200 games an engine each): the true ratings (the mean
    at 0) lie within their 95% intervals about 95% of the time; the order is right."""
    strengths = {"a": 300.0, "b": 100.0, "c": -50.0, "d": -350.0}
    covered = 0
    for seed in range(5):
        rated = rate(synthetic_units(strengths, pairs=150, seed=seed), virtual_draws=0,
                     bootstrap=200, seed=seed)
        assert [r.engine for r in rated.ratings] == ["a", "b", "c", "d"]
        covered += sum(r.low < strengths[r.engine] < r.high for r in rated.ratings)
        assert all(r.high - r.low < 120 for r in rated.ratings)
        assert rated.los["a"]["d"] == 1 and rated.los["b"]["c"] > 0.9
        for a in rated.los:
            for b in rated.los[a]:
                assert rated.los[a][b] + rated.los[b][a] == pytest.approx(1)
    assert covered >= 17, f"{covered} of 20 true ratings inside their 95% intervals"


def test_the_bootstrap_is_reproducible_by_its_seed():
    units = synthetic_units({"x": 50.0, "y": 0.0, "z": -50.0}, pairs=20, seed=1)
    first = rate(units, bootstrap=100, seed=7)
    assert rate(units, bootstrap=100, seed=7).document() == first.document()
    other = rate(units, bootstrap=100, seed=8).document()
    assert other["ratings"] != first.document()["ratings"]
    assert [r["elo"] for r in other["ratings"]] == \
        [r["elo"] for r in first.document()["ratings"]]          # the estimates need no seed


def test_engines_that_never_met_are_rated_in_separate_groups():
    units = [Unit("a", "b", (1, 0))] * 2 + [Unit("c", "d", (0.5, 0.5))] * 2 + \
        [Unit("d", "e", (1, 1))]
    groups = connected_groups(units)
    assert sorted(sorted({u.first for u in g} | {u.second for u in g}) for g in groups) == \
        [["a", "b"], ["c", "d", "e"]]
    with pytest.raises(GameError, match="never met"):
        rate(units)
    with pytest.raises(GameError, match="anchor 'q'"):
        rate(units[:2], anchor="q")
    even, = [group for group in groups if group[0].first == "a"]
    assert math.isclose(rate(even, bootstrap=10).ratings[0].elo, 0, abs_tol=1e-6)
