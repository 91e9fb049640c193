"""The range an analysis shows (search/assumed.py, issue 43 item 5): the other player's hands
as the search's own determinizer drew them, a distribution over hands the observer cannot
rule out, reproducible from the seed, and printed by ``analyse`` unless ``--hands 0``."""
from __future__ import annotations

import json
import os
import signal
import subprocess

import pytest

from crystalpick.engine import get_game
from crystalpick.search import Limits, make_engine

from cli_helpers import refused, run
from test_ismcts_inference import greedy_game, infer, replay
from test_stopped_documents import CRYSTALPICK

MOVES = "keep keep toss:P2 call:forca"          # P1 chooses first: P2 holds no secret choice
EVERY = 10**6                                   # shown: every hand drawn


def analysed(state, seed=3, **options):
    """An ismcts analysis of ``state`` from P1's view, with every hand it assumed."""
    engine = make_engine("ismcts", seed=seed, **options)
    engine.analyse(state, Limits(simulations=200), None, 0, 1)
    return engine, engine.assumed_range(state, 0, EVERY)


def test_a_full_size_range_is_a_distribution_over_the_hands_p1_cannot_rule_out():
    state = get_game("cardbattle", seed=7).state(moves=MOVES)
    _, assumed = analysed(state)
    game = state.game
    assert assumed.player_name == "P2" and assumed.noun == "hand"
    assert sum(share for _, _, share in assumed.hands) == pytest.approx(1.0, abs=1e-12)
    assert assumed.distinct == len(assumed.hands) > 1 and assumed.samples == 4096
    possible = set(game.private_states(state, 1))
    assert assumed.possible == len(possible) == game.private_state_count(state, 1)
    assert game.private_state(state, 1) in possible          # the true hand is possible
    unseen = set(state.observation(0)["seats"][1]["unseen"])
    for key, text, _ in assumed.hands:
        assert key in possible and set(key[0]) <= unseen and key[1] == 0
        assert text == game.private_state_text(key)


def test_a_secret_choice_the_observer_waits_on_is_taken_back_into_the_hand():
    """P2 analyses after P1's secret choice: the search draws P1's hand before it, five
    cards, and the range says so."""
    state = get_game("cardbattle", seed=7).state(moves="keep keep toss:P1 call:forca play:25")
    engine = make_engine("ismcts", seed=3)
    engine.analyse(state, Limits(simulations=100), None, 1, 1)
    assumed = engine.assumed_range(state, 1, EVERY)
    assert "P1's secret choice taken back" in assumed.method
    assert all(len(key[0]) == 5 and key[1] == 0 for key, _, _ in assumed.hands)
    _, plain = analysed(get_game("cardbattle", seed=7).state(moves=MOVES))
    assert "taken back" not in plain.method


def test_a_bare_view_infers_nothing_and_its_draws_spread_over_thousands_of_hands():
    """Only the likeliest draws are read as states, so a view's range stays cheap."""
    full = get_game("cardbattle", seed=7).state(moves=MOVES)
    view = full.game.parse_position(full.observation_string(0))
    assumed = analysed(view)[0].assumed_range(view, 0, 5)
    assert assumed.method == "ismcts's draws" and assumed.distinct > 3000
    assert len(assumed.hands) == 5 and assumed.possible == 15503


def test_the_same_seed_gives_the_same_range_and_another_seed_another():
    state = get_game("cardbattle", seed=7).state(moves=MOVES)
    assert analysed(state)[1] == analysed(state)[1]
    assert analysed(state)[1].hands != analysed(state, seed=4)[1].hands


def test_with_infer_the_hands_greedy_play_rules_out_are_absent():
    """A greedy game's decision where P2's past play rules cards out: every hand of the
    inferring range fits the inferences, while the uniform range (infer off) holds hands
    that do not, so the check can fail."""
    game = greedy_game(3)
    state = next(replay(game, plies) for plies in game[2][len(game[2]) // 3:]
                 if any(kind != "call" for kind, _ in infer(replay(game, plies))[1]))
    policy, _ = infer(state)

    def misfits(assumed):
        return sum(policy.inconsistency_of(world_with(state, key)) > 0
                   for key, _, _ in assumed.hands)
    inferred = analysed(state, infer=True)[1]
    assert "inferred from P2's play" in inferred.method
    assert misfits(inferred) == 0
    assert misfits(analysed(state, infer=False)[1]) > 0


def world_with(state, key):
    """``state``'s position with P2 holding the hand ``key`` (the rest of their unseen
    cards in the deck), as a fresh state: what the inferences are checked against."""
    pos = state.to_position()
    seat = pos.seats[1]
    unseen = sorted(seat.hand + seat.deck)
    seat.hand = list(key[0])
    seat.deck = [card for card in unseen if card not in key[0]]
    return state.game._state(pos)


def test_the_view_search_reports_its_draws_and_the_search_from_the_deal_its_bayes_range():
    state = get_game("cardbattle", seed=7).state(moves=MOVES)
    view = make_engine("mccfr", root="view", horizon=1, seed=2)
    view.analyse(state, Limits(simulations=20), None, 0, 1)
    assumed = view.assumed_range(state, 0, 3)
    assert assumed.method == "mccfr's draws; P1's own hand redrawn for P2 too, by P2's view"
    assert len(assumed.hands) == 3
    small = get_game("cardbattle").small_configuration("hidden-3").new_initial_state()
    whole = make_engine("mccfr", seed=2)
    mover = small.current_player()
    whole.analyse(small, Limits(simulations=20), None, mover, 1)
    exact = whole.assumed_range(small, mover, 3)          # tests/test_searched_range.py
    assert exact.samples is None and exact.method.startswith("Bayes from the deal")
    assert sum(share for _, _, share in exact.hands) == pytest.approx(1.0)


def test_analyse_prints_the_range_after_the_strategy_and_hides_it_with_hands_0():
    args = ["analyse", "cardbattle", "--seed", 7, "--moves", MOVES, "--sims", 200]
    text = run(*args).output
    block = text[text.index("P2's hand as assumed (ismcts's draws, inferred from P2's play: "
                            "4,096 draws, "):]
    assert text.index("win probability for P1") < text.index(block)
    assert len([line for line in block.splitlines() if "% ±" in line]) == 5
    assert "as assumed" not in run(*args, "--hands", 0).output
    document = json.loads(run(*args, "--json", "--hands", 2).output)
    assumed = document["result"]["range"]
    assert assumed["player"] == "P2" and document["point_of_view"] == "P1"
    assert assumed["samples"] == 4096 and len(assumed["hands"]) == 2
    assert "range" not in json.loads(run(*args, "--json", "--hands", 0).output)["result"]


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads /proc")
def test_an_interrupted_analysis_still_shows_the_range_it_assumed(tmp_path):
    """Ctrl-C once the search reports (its first streamed line): the final document has
    the range of the search cut short."""
    process = subprocess.Popen(
        [*CRYSTALPICK, "analyse", "cardbattle", "--seed", "7", "--moves", MOVES, "--time",
         "60", "--json", "--stream"], cwd=tmp_path, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        first = process.stdout.readline()
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        process.kill()
    assert json.loads(first)["final"] is False and process.returncode == 130, err
    document = json.loads(out.strip().splitlines()[-1])
    assert document["interrupted"] is True and document["final"] is True
    assert document["result"]["range"]["player"] == "P2"
    assert len(document["result"]["range"]["hands"]) == 5


@pytest.mark.parametrize("value", ["-1", "1001", "x", "2.5"])
def test_a_bad_hands_count_is_refused(value):
    refused(run("analyse", "cardbattle", "--seed", 7, "--moves", MOVES, "--sims", 10,
                "--hands", value), "--hands")
