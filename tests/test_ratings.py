"""The rating list (apps/match/ratings.py) on results whose answer is known: the closed form
of two engines, the match summary's LOS, and synthetic pools of engines of known strength,
down to a game or two an engine, whose 95% intervals must contain the truth about 95% of the
time (the measurement behind it: docs/research/rating-intervals.md)."""
import math

import numpy as np
import pytest

from crystalpick.engine import GameError
from crystalpick.apps.match.ratings import Unit, connected_groups, rate
from crystalpick.apps.match.stats import Results, expected_score, logistic_elo


def test_two_engines_the_likelihood_maximum_is_the_matchs_elo():
    """Without virtual draws the most likely difference of two engines is the Elo of their
    score, as stats.py computes it for a match."""
    pairs = [(1, 0.5)] * 7 + [(0, 1)] * 4 + [(1, 1)] * 3 + [(0.5, 0)] * 2
    units = [Unit("a", "b", scores) for scores in pairs]
    results = Results()
    for first, second in pairs:
        results.add_pair(first, second)
    rated = rate(units, virtual_draws=0, samples=500, seed=1)
    by_name = {r.engine: r for r in rated.ratings}
    assert by_name["a"].elo - by_name["b"].elo == pytest.approx(results.elo().mean, abs=1e-6)
    assert by_name["a"].elo == pytest.approx(-by_name["b"].elo)     # the mean is 0
    anchored = {r.engine: r for r in rate(units, anchor="b", virtual_draws=0,
                                          samples=500, seed=1).ratings}
    # the anchor is 0 by definition, so its interval alone has no width
    assert anchored["b"].elo == anchored["b"].low == anchored["b"].high == 0
    assert anchored["a"].elo == pytest.approx(logistic_elo(results.score), abs=1e-6)
    assert (by_name["a"].games, by_name["a"].points, by_name["a"].draws) == \
        (results.games, results.wins + results.draws / 2, results.draws)


def test_two_engines_the_lists_los_is_the_match_summarys():
    """The same games give the same LOS, in the list and in the match summary, an unpaired
    game included; and the list's interval is the Beta posterior's (drawn exactly)."""
    units = [Unit("a", "b", (1, 0))] * 3 + [Unit("a", "b", (0, 0))] + [Unit("a", "b", (1,))]
    results = Results()
    for unit in units:
        for score in unit.scores:
            results.add_game(score)
    rated = rate(units, samples=20_000, seed=3)
    assert rated.los["a"]["b"] == results.los() == pytest.approx(1 - rated.los["b"]["a"])
    # a match of b against a (its scores b's) is the same pairing, with the same prior
    flipped = [Unit("b", "a", tuple(1 - s for s in unit.scores)) for unit in units[:2]]
    assert rate(flipped + units[2:], samples=20_000, seed=3).document() == rated.document()
    # drawn games vary less than won and lost ones: the same points, surer, and so the
    # match summary says too
    drawish = [Unit("a", "b", (0.5, 0.5))] * 6 + [Unit("a", "b", (1, 1))]
    decisive = [Unit("a", "b", (1, 0))] * 6 + [Unit("a", "b", (1, 1))]
    sure, unsure = (rate(pool, samples=20_000, seed=3) for pool in (drawish, decisive))
    assert sure.dispersion < 1 == unsure.dispersion
    assert sure.los["a"]["b"] > unsure.los["a"]["b"]
    assert sure.los["a"]["b"] == Results(wins=2, draws=12).los()
    width = {r.engine: r.high - r.low for r in sure.ratings}
    assert 0 < width["a"] < min(r.high - r.low for r in unsure.ratings)
    a = {r.engine: r for r in rated.ratings}["a"]
    # a - mean = (r_a - r_b) / 2, and r_a - r_b is the log-odds of Beta(4.25, 5.25)
    draws = np.random.default_rng(0).beta(4.25, 5.25, 400_000)
    expected = np.percentile(np.log(draws / (1 - draws)) * 400 / math.log(10) / 2, [2.5, 97.5])
    assert (a.low, a.high) == pytest.approx(tuple(expected), abs=6)


def test_a_perfect_score_leaves_its_end_open_and_the_prior_keeps_the_rating_finite():
    units = [Unit("strong", "weak", (1, 1))] * 5
    with pytest.raises(GameError, match="unbounded"):
        rate(units, virtual_draws=0)
    cycle = units + [Unit("weak", "third", (1, 0.5)), Unit("third", "strong", (0.5, 0))]
    assert rate(cycle, virtual_draws=0, samples=500).ratings[0].engine == "strong"
    rated = {r.engine: r for r in rate(units, samples=500, seed=1).ratings}
    # 10 wins and half a virtual draw: 10.25 of 10.5
    assert rated["strong"].elo - rated["weak"].elo == \
        pytest.approx(logistic_elo(10.25 / 10.5), abs=1e-6)
    assert rated["strong"].high == math.inf and math.isfinite(rated["strong"].low)
    assert rated["weak"].low == -math.inf and math.isfinite(rated["weak"].high)
    document = rate(units, samples=500, seed=1).document()["ratings"]
    assert document[0]["high"] is None and document[0]["unbounded_high"] is True
    assert "unbounded_low" not in document[0] and document[1]["unbounded_low"] is True


def test_tiny_pools_never_get_a_zero_width_interval():
    """One game, one pair, all draws: every interval has width, and the one lost game of
    three engines opens only what the games leave open."""
    for units in ([Unit("a", "b", (1,))], [Unit("a", "b", (0.5, 0.5))],
                  [Unit("a", "b", (0.5,)), Unit("b", "c", (0.5,)), Unit("a", "c", (0.5,))],
                  [Unit("a", "b", (1, 0))] + [Unit("b", "c", (1, 0.5))]):
        for r in rate(units, samples=2000, seed=1).ratings:
            assert r.high - r.low > 50, (units, r)
    drawn = {r.engine: r for r in rate([Unit("a", "b", (0.5, 0.5))], samples=2000).ratings}
    assert all(map(math.isfinite, (drawn["a"].low, drawn["a"].high)))
    chain = {r.engine: r for r in rate([Unit("a", "b", (1, 0)), Unit("b", "c", (1, 1))],
                                       anchor="b", samples=2000).ratings}
    assert (chain["a"].low, chain["a"].high) != (-math.inf, math.inf)   # a met b evenly
    assert chain["c"].low == -math.inf and math.isfinite(chain["c"].high)


def synthetic_units(strengths: dict[str, float], games: int, seed: int | np.random.Generator,
                    draw_share: float = 0.6, gauntlet: bool = False) -> list[Unit]:
    """A round-robin (or the first engine against each other) of ``games`` games a pairing,
    in pairs, between engines of known Elo: each game a win, draw or loss whose expected
    score is the logistic model's, draws ``draw_share`` of twice the weaker side's share."""
    rng = np.random.default_rng(seed)
    names = list(strengths)
    units = []
    for i, first in enumerate(names):
        for second in names[i + 1:]:
            if gauntlet and i:
                continue
            p = expected_score(strengths[first] - strengths[second])
            draw = draw_share * 2 * min(p, 1 - p)
            scores = rng.choice([1.0, 0.5, 0.0], games, p=[p - draw / 2, draw,
                                                           1 - p - draw / 2])
            units += [Unit(first, second, tuple(scores[k:k + 2])) for k in range(0, games, 2)]
    return units


def test_known_strengths_are_recovered_within_their_intervals():
    """Five synthetic round-robins (600 games an engine each): the order is right and the
    intervals are narrow."""
    strengths = {"a": 300.0, "b": 100.0, "c": -50.0, "d": -350.0}
    covered = 0
    for seed in range(5):
        rated = rate(synthetic_units(strengths, 200, seed, draw_share=0.3), samples=4000,
                     seed=seed)
        assert [r.engine for r in rated.ratings] == ["a", "b", "c", "d"]
        covered += sum(r.low < strengths[r.engine] < r.high for r in rated.ratings)
        assert all(r.high - r.low < 120 for r in rated.ratings)
        assert rated.los["a"]["d"] == 1 and rated.los["b"]["c"] > 0.9
        for a in rated.los:
            for b in rated.los[a]:
                assert rated.los[a][b] + rated.los[b][a] == pytest.approx(1)
    assert covered >= 17, f"{covered} of 20 true ratings inside their 95% intervals"


# (true Elo, games a pairing, draw share, gauntlet): tiny pools first, where perfect scores
# are common, then drawish ones
POOLS = [([200, 0], 2, 0.0, False), ([400, 0], 4, 0.0, False),
         ([300, 0, -300], 2, 0.0, False), ([300, 100, -50, -350], 2, 0.0, False),
         ([200, 100, 0, -100, -200], 2, 0.0, True), ([0, 200, 400, 600, 800, 1000], 4, 0.0,
                                                      False),
         ([300, 100, -50, -350], 20, 0.3, False), ([100, 0, -100], 4, 0.6, False),
         ([50, 0, -50], 20, 0.6, False)]


@pytest.mark.slow
def test_the_95_percent_intervals_cover_the_truth_about_95_percent_of_the_time():
    """60 simulated pools of each kind; against the mean, each engine's true rating is
    inside its interval in 92-98% of all cases (the binomial spread of ~1,700 intervals is
    0.5%), in at least 85% of each kind's and in at most 99% of those with 60% draws (which
    all covered before draws narrowed them), and no interval has zero width."""
    rng = np.random.default_rng(45)
    covered = total = 0
    drawish = [0, 0]                # covered, intervals: the pools with 60% draws
    for strengths, games, draws, gauntlet in POOLS:
        truth = np.array(strengths) - np.mean(strengths)
        named = {f"e{i}": float(elo) for i, elo in enumerate(strengths)}
        inside = count = 0
        for pool in range(60):
            rated = rate(synthetic_units(named, games, rng, draws, gauntlet), samples=2000,
                         seed=pool)
            for r in rated.ratings:
                assert r.high - r.low > 0
                inside += r.low <= truth[int(r.engine[1:])] <= r.high
                count += 1
        assert inside / count >= 0.85, (strengths, games, inside / count)
        covered, total = covered + inside, total + count
        if draws > 0.5:
            drawish = [drawish[0] + inside, drawish[1] + count]
    assert 0.92 <= covered / total <= 0.98, covered / total
    # draws vary less than the half-point model says: uncorrected, all would be covered
    assert drawish[0] / drawish[1] <= 0.99, drawish


def test_the_posterior_draws_are_reproducible_by_their_seed():
    units = synthetic_units({"x": 50.0, "y": 0.0, "z": -50.0}, 40, seed=1)
    first = rate(units, samples=1000, seed=7)
    assert rate(units, samples=1000, seed=7).document() == first.document()
    other = rate(units, samples=1000, seed=8).document()
    assert other["ratings"] != first.document()["ratings"]
    assert [r["elo"] for r in other["ratings"]] == \
        [r["elo"] for r in first.document()["ratings"]]          # the estimates need no seed
    assert first.effective > 500                                # the weights are sound


def test_ordos_columns_the_opponents_mean_and_the_los_over_the_next():
    units = synthetic_units({"x": 100.0, "y": 0.0, "z": -100.0}, 20, seed=2)
    rated = rate(units, samples=1000, seed=1)
    rows = rated.document()["ratings"]
    elo = {r["engine"]: r["elo"] for r in rows}
    for row, following in zip(rows, rows[1:] + [None]):
        others = [e for e in elo if e != row["engine"]]            # a round-robin: even
        assert row["opponents"] == pytest.approx(sum(elo[e] for e in others) / 2, abs=0.15)
        assert row["los_next"] == (None if following is None else
                                   round(rated.los[row["engine"]][following["engine"]], 4))


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
    assert math.isclose(rate(even, samples=500).ratings[0].elo, 0, abs_tol=1e-6)
