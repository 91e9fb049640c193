"""Match statistics against published figures (fastchess's SPRT tests and a pentanomial
Elo calculator's worked examples), so the formulas are checked, not just re-run."""
import json
import math

import numpy as np
import pytest

from crystalpick.apps.match.report import format_summary, pairing_line, progress_text, summary
from crystalpick.apps.match.stats import (SPRT, Results, logistic_elo, mean_interval,
                                          wilson_interval)


def pentanomial(ll, ld, wl_or_dd, wd, ww):
    results = Results()
    results.pairs = [ll, ld, wl_or_dd, wd, ww]
    return results


PENTA_ELO = [  # (LL, LD, WL+DD, WD, WW) -> logistic (low, mean, high), normalized (low, mean, high)
    ((485, 1923, 2942, 1937, 594), (1.21, 5.11, 9.02), (1.68, 7.10, 12.53)),
    ((261, 739, 2683, 737, 253), (-5.00, -0.67, 3.66), (-8.13, -1.09, 5.96)),
    ((63, 252, 385, 250, 74), (-7.38, 3.39, 14.17), (-10.31, 4.74, 19.79)),
    ((527, 1007, 1932, 933, 511), (-9.16, -3.75, 1.66), (-11.63, -4.76, 2.11)),
    ((175, 305, 694, 291, 157), (-14.57, -5.36, 3.85), (-18.91, -6.96, 5.00)),
]


@pytest.mark.parametrize("counts,logistic,normalized", PENTA_ELO)
def test_pentanomial_elo_intervals(counts, logistic, normalized):
    results = pentanomial(*counts)
    for interval, expected in ((results.elo(True), logistic),
                               (results.normalized_elo(True), normalized)):
        assert (interval.low, interval.mean, interval.high) == pytest.approx(expected, abs=0.01)


TRINOMIAL_SPRT = [  # fastchess: (wins, losses, draws), elo0, elo1, model, LLR
    ((36433, 36027, 68692), 0, 2, "normalized", 0.92),
    ((10871, 10650, 20431), -1.75, 0.25, "normalized", 2.30),
    ((21404, 21184, 40708), 0.5, 2.5, "logistic", -1.57),
    ((57433, 57030, 106593), 0, 2, "logistic", -2.59),
]
PENTANOMIAL_SPRT = [  # fastchess: (LL, LD, WL, DD, WD, WW), elo0, elo1, model, LLR
    ((365, 16618, 36029, 200, 16974, 390), 0, 2, "normalized", 2.25),
    ((127, 4883, 10311, 401, 5150, 104), -1.75, 0.25, "normalized", 3.01),
    ((223, 9863, 20279, 1000, 10037, 246), 0.5, 2.5, "logistic", -3.07),
    ((871, 26175, 55003, 980, 26678, 821), 0, 2, "logistic", -4.98),
]


@pytest.mark.parametrize("wld,elo0,elo1,model,llr", TRINOMIAL_SPRT)
def test_trinomial_sprt_llr(wld, elo0, elo1, model, llr):
    wins, losses, draws = wld
    results = Results(wins=wins, draws=draws, losses=losses)
    sprt = SPRT(elo0, elo1, 0.05, 0.05, model)
    assert sprt.llr(results, pentanomial=False) == pytest.approx(llr, abs=0.01)


@pytest.mark.parametrize("counts,elo0,elo1,model,llr", PENTANOMIAL_SPRT)
def test_pentanomial_sprt_llr(counts, elo0, elo1, model, llr):
    ll, ld, wl, dd, wd, ww = counts
    sprt = SPRT(elo0, elo1, 0.05, 0.05, model)
    assert sprt.llr(pentanomial(ll, ld, wl + dd, wd, ww), pentanomial=True) == \
        pytest.approx(llr, abs=0.01)


def test_sprt_bounds_and_decisions():
    sprt = SPRT(0, 10, 0.05, 0.05)
    assert sprt.lower_bound == pytest.approx(-2.944, abs=1e-3)
    assert sprt.upper_bound == pytest.approx(2.944, abs=1e-3)
    strong = Results()
    for _ in range(300):
        strong.add_pair(1, 0.5)
    assert sprt.decision(strong) == "H1"
    weak = Results()
    for _ in range(300):
        weak.add_pair(0, 0.5)
    assert sprt.decision(weak) == "H0"
    assert sprt.decision(Results(wins=3, losses=2)) is None


def test_sprt_parse_and_errors():
    sprt = SPRT.parse("elo0=0,elo1=5,alpha=0.1,beta=0.2")
    assert (sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta) == (0, 5, 0.1, 0.2)
    with pytest.raises(ValueError, match="elo0 < elo1"):
        SPRT.parse("elo0=5,elo1=0")
    with pytest.raises(ValueError, match="expected elo0="):
        SPRT.parse("gamma=1")


def test_trinomial_elo_los_and_draw_ratio():
    results = Results(wins=60, draws=20, losses=20)
    assert results.score == pytest.approx(0.7)
    assert results.elo(False).mean == pytest.approx(-400 * math.log10(1 / 0.7 - 1))
    assert results.draw_ratio == pytest.approx(0.2)
    # LOS: the mass above 1/2 of the score's posterior; without draws Beta(60 + 1/4, 40 +
    # 1/4) with half a virtual draw, integrated here on a grid
    grid = np.linspace(0, 1, 200_001)[1:-1]
    density = grid ** 59.25 * (1 - grid) ** 39.25
    assert Results(wins=60, losses=40).los() == \
        pytest.approx(density[grid > 0.5].sum() / density.sum(), abs=1e-5)
    # draws vary less than a win and a loss: the same 70 points are surer with 20 draws
    assert results.los() > Results(wins=70, losses=30).los() > 0.99
    assert Results(wins=5, losses=5).los() == 0.5 == Results(draws=4).los()
    assert Results(wins=1).los() > 0.8 > Results(wins=1, draws=20).los() > 0.5
    assert logistic_elo(0.5) == 0


def test_pairs_fill_the_pentanomial_buckets():
    results = Results()
    results.add_pair(1, 1)
    results.add_pair(1, 0)
    results.add_pair(0.5, 0.5)
    results.add_pair(0, 0.5)
    assert results.pairs == [0, 1, 2, 0, 1]
    assert (results.wins, results.draws, results.losses) == (3, 3, 2)


@pytest.mark.parametrize("model", ["normalized", "logistic"])
def test_sprt_needs_more_than_a_few_equal_pairs(model):
    """A first won pair has no spread; the SPRT must not take it for certainty (it once
    accepted H1 after one pair), while a long run of wins still decides."""
    sprt = SPRT(0, 10, 0.05, 0.05, model)
    results = Results()
    results.add_pair(1, 1)
    assert 0 < sprt.llr(results) < 1
    assert sprt.decision(results) is None
    drawn = Results(draws=6)
    assert sprt.decision(drawn) is None
    for _ in range(199):
        results.add_pair(1, 1)
    assert sprt.decision(results) == "H1"


def test_logistic_llr_is_the_likelihood_ratio():
    """Against a direct evaluation: the best-fitting distributions of means s0 and s1 over
    win/draw/loss found by a grid over the free parameter."""
    import math
    wins, draws, losses = 30, 50, 20
    results = Results(wins=wins, draws=draws, losses=losses)
    sprt = SPRT(0, 40, 0.05, 0.05, "logistic")

    def best_log_likelihood(s):
        best = -math.inf
        for step in range(1, 100000):   # p_win - p_loss = 2 s - 1 and p_draw fix the rest
            p_draw = step / 100000
            p_win = (2 * s - 1 + 1 - p_draw) / 2
            p_loss = 1 - p_draw - p_win
            if p_win > 0 and p_loss > 0:
                best = max(best, wins * math.log(p_win) + draws * math.log(p_draw)
                           + losses * math.log(p_loss))
        return best

    expected = best_log_likelihood(1 / (1 + 10 ** (-40 / 400))) - best_log_likelihood(0.5)
    assert sprt.llr(results, pentanomial=False) == pytest.approx(expected, abs=1e-3)


# -- intervals that cannot be computed say so ---------------------------------------------------

def one_pair_and_a_lost_game():
    results = Results()
    results.add_pair(1, 0)      # W L: one pair, mean 1/2
    results.add_game(0)         # the first game of an unfinished pair
    return results


def test_one_unit_or_no_spread_gives_no_interval_not_a_zero_width():
    one = mean_interval(1, 0.5, 0.0, "pair")
    assert one.mean == 0.5 and math.isnan(one.low) and math.isnan(one.high)
    assert one.missing == "1 pair, an interval needs 2"
    same = mean_interval(4, 0.5, 0.0, "pair")
    assert math.isnan(same.error) and same.missing.startswith("all 4 pairs scored the same")
    assert mean_interval(4, 0.5, 0.04).missing is None     # 0.5 +/- 1.96 * 0.1
    assert mean_interval(4, 0.5, 0.04).error == pytest.approx(0.196, abs=1e-3)


def test_wilson_interval_has_ends_for_a_clean_sweep():
    # the textbook ends: n / (n + z^2) below a sweep of n, z^2 / (n + z^2) above none of n
    sweep = wilson_interval(20, 1.0, "pair")
    assert sweep.missing is None and sweep.high == 1.0
    assert sweep.low == pytest.approx(20 / (20 + 1.959963984540054 ** 2))
    assert wilson_interval(10, 0.0).high == pytest.approx(0.27753, abs=1e-5)
    half = wilson_interval(100, 0.5)                      # 0.5 +/- 0.0962 (about normal)
    assert (half.low, half.high) == pytest.approx((0.4038, 0.5962), abs=1e-4)
    assert wilson_interval(0, 0.5, "pair").missing == "0 pairs, an interval needs 1"


def test_results_wilson_interval_counts_pairs_when_pairs_are_complete():
    results = Results()
    for _ in range(20):
        results.add_pair(1, 1)
    assert results.score_interval().missing                 # no spread: no normal interval
    assert results.wilson_interval().low == pytest.approx(wilson_interval(20, 1.0).low)
    assert results.wilson_interval(pentanomial=False).low == pytest.approx(
        wilson_interval(40, 1.0).low)


def test_elo_and_nelo_of_one_pair_have_no_interval():
    results = one_pair_and_a_lost_game()
    for interval in (results.score_interval(), results.elo(), results.normalized_elo()):
        assert interval.missing == "1 pair, an interval needs 2"
        assert math.isnan(interval.low) and math.isnan(interval.high)
    assert results.score_interval(pentanomial=False).missing is None   # 3 games: W L L


def test_a_report_after_three_games_says_it_has_no_interval():
    results = one_pair_and_a_lost_game()
    document = summary(results, ["a", "b"])
    json.dumps(document, allow_nan=False)                  # no NaN reaches the JSON
    elo = document["elo"]
    assert (elo["low"], elo["high"], elo["error"]) == (None, None, None)
    assert elo["no_interval"] == "1 pair, an interval needs 2"
    assert (elo["units"], elo["unpaired_games"], elo["value"]) == (1, 1, 0.0)
    text = format_summary(document)
    assert "+/- 0.00" not in text and "-0.00" not in text
    assert ("Elo: 0.00 (no 95% interval: 1 pair, an interval needs 2; pentanomial over 1 pair, "
            "1 unpaired game not counted), nElo: no interval yet") in text
    assert "no 95% interval" in pairing_line(document)
    assert progress_text(results, None) == "W/D/L 1/0/2 Elo +0.0 (no interval yet)"
    # the LOS counts the unpaired game too, and says so: 1 point of 3
    assert document["los"] == round(Results(wins=1, losses=2).los(), 4) < 0.5
    assert f"LOS: {100 * document['los']:.2f} % (all 3 games)," in text


def test_a_report_with_an_interval_keeps_it():
    results = Results()
    for pair in [(1, 1), (1, 0), (0, 0), (1, 0.5)]:
        results.add_pair(*pair)
    document = summary(results, ["a", "b"])
    assert "no_interval" not in document["elo"] and "unpaired_games" not in document["elo"]
    assert document["elo"]["error"] == pytest.approx(338.36, abs=0.01)
    assert "Elo: 43.66 +/- 338.36 (95%, pentanomial over 4 pairs)" in format_summary(document)
    assert "LOS: " in format_summary(document) and "games)" not in format_summary(document)
