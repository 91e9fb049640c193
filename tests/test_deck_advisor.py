"""The deck advisor (``crystalpick deck``): the interval formula, the per-card bookkeeping on
hand-built outcomes, the card battle's deck rules behind the contract, and end-to-end runs
on a small card set whose test deck holds a card that loses every comparison."""
from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from crystalpick.cli.main import cli
from interrupt_cases import COMMAND
from crystalpick.engine import GAMES, DeckBuilding, GameError, get_game, provides, require
from crystalpick.engine.cardbattle.moves import M_BOOST, M_CALL, M_PLAY, PASS, encode
from crystalpick.search import executors
from crystalpick.apps.decks.measurement import (DeckGame, DeckTask, Measurement, PlaySettings,
                                            card_usage, paired_difference, play_deck_game)
from crystalpick.apps.match.stats import (Z95, Results, mean_interval, sample_interval)

DATA = Path(__file__).parent / "data" / "cardbattle"
SMALL = ["--cardset", str(DATA / "small-cards.toml"), "--rule", "hand=3",
         "--rule", "deck-minimum=6", "--rule", "target=3"]
DUD = 11                                 # the card of dud.toml that loses every comparison


def run(*args):
    return CliRunner().invoke(cli, ["deck", "cardbattle", *map(str, args)],
                              catch_exceptions=False)


def small_run(*args):
    """On the small card set, greedy in both seats (whatever the default engine is)."""
    return run(*SMALL, "--deck", DATA / "dud.toml", "--against", DATA / "rival.toml",
               "--engine", "greedy", *args)


# -- the interval ------------------------------------------------------------------------------

def test_mean_interval_is_the_normal_interval_on_a_mean():
    interval = mean_interval(25, 0.6, 0.16)          # sd 0.4 over 25 units: 0.08 per mean
    assert interval.mean == 0.6
    assert interval.low == pytest.approx(0.6 - Z95 * 0.08)
    assert interval.high == pytest.approx(0.6 + Z95 * 0.08)
    assert interval.error == pytest.approx(Z95 * 0.08)


def test_sample_interval_uses_the_population_variance():
    interval = sample_interval([0.0, 0.5, 1.0, 0.5])   # mean 1/2, variance 1/8
    assert interval.mean == 0.5
    assert interval.high - interval.mean == pytest.approx(Z95 * math.sqrt(1 / 8 / 4))


def test_score_interval_per_pair_per_game_and_clamped():
    results = Results()
    for pair in [(1, 1), (1, 0), (0, 0), (1, 0.5)]:  # pair means 1, 1/2, 0, 3/4
        results.add_pair(*pair)
    mean = (1 + 0.5 + 0 + 0.75) / 4
    variance = sum((x - mean) ** 2 for x in (1, 0.5, 0, 0.75)) / 4
    by_pair = results.score_interval()
    assert by_pair.mean == pytest.approx(mean)
    assert by_pair.high - by_pair.mean == pytest.approx(Z95 * math.sqrt(variance / 4))
    by_game = results.score_interval(pentanomial=False)   # 4.5 of 8 games
    per_game = sum((x - 4.5 / 8) ** 2 for x in (1, 1, 1, 0, 0, 0, 1, 0.5)) / 8
    assert by_game.low == pytest.approx(4.5 / 8 - Z95 * math.sqrt(per_game / 8))
    sweep = Results()
    sweep.add_pair(1, 1)
    sweep.add_pair(1, 0.5)
    assert sweep.score_interval().high == 1.0          # never above a perfect score
    both = results + sweep
    assert (both.wins, both.draws, both.games, sum(both.pairs)) == (7, 2, 12, 6)


# -- bookkeeping on hand-built outcomes ------------------------------------------------------------

def outcome(measurement, opponent, pair, seat, score, *played):
    task = DeckTask(measurement, 1, "deck", opponent, pair, seat)
    return DeckGame(task, score, frozenset(played))


def test_card_usage_splits_the_games_by_whether_each_card_was_played():
    games = [outcome("m", "a", 0, 0, 1.0, 1, 2), outcome("m", "a", 0, 1, 0.0, 2),
             outcome("m", "a", 1, 0, 0.5, 3), outcome("m", "b", 0, 0, 1.0, 1)]
    usage = card_usage(games, [1, 2, 3, 4])
    assert (usage[1].played.games, usage[1].played.score) == (2, 1.0)
    assert (usage[1].not_played.games, usage[1].not_played.score) == (2, 0.25)
    assert (usage[2].played.games, usage[2].played.score) == (2, 0.5)
    assert (usage[3].played.draws, usage[3].not_played.wins) == (1, 2)
    assert usage[4].played.games == 0 and usage[4].not_played.games == 4


def test_a_measurement_counts_complete_pairs_and_pairs_them_with_another():
    base = Measurement("base", 1, lambda opponent, pair: "deck")
    other = Measurement("other", 1, lambda opponent, pair: "deck")
    for game in [outcome("base", "a", 0, 0, 1.0), outcome("base", "a", 0, 1, 0.0),
                 outcome("base", "a", 1, 0, 0.0), outcome("base", "a", 1, 1, 0.0),
                 outcome("base", "b", 0, 0, 1.0)]:            # b's pair 0 is incomplete
        base.add(game)
    for game in [outcome("other", "a", 0, 0, 1.0), outcome("other", "a", 0, 1, 1.0),
                 outcome("other", "a", 1, 0, 0.5), outcome("other", "a", 1, 1, 0.5)]:
        other.add(game)
    assert base.pair_scores() == {("a", 0): 0.5, ("a", 1): 0.0}
    assert base.results().pairs == [1, 0, 1, 0, 0] and base.results(["b"]).games == 0
    assert [t.pair for t in base.tasks(["a", "b"], 2)] == [0, 1, 1]   # b's missing games
    difference = paired_difference(base, other)        # +1/2 on both pairs: no spread
    assert difference.mean == 0.5 and "same" in difference.missing
    assert math.isnan(difference.low) and math.isnan(difference.high)
    assert paired_difference(base, Measurement("none", 1, lambda o, p: "deck")) is None


# -- the card battle's decks behind the contract ---------------------------------------------------

def small_game(deck="dud.toml"):
    return get_game("cardbattle", {"hand": "3", "deck-minimum": "6", "deck1": str(DATA / deck),
                                   "deck2": str(DATA / "rival.toml")},
                    tileset=str(DATA / "small-cards.toml"))


def test_a_deck_written_out_is_the_same_deck():
    game = small_game()
    assert game.deck_cards(0) == (1, 2, 3, 4, 5, 11)
    value = game.deck_value([11, 5, 4, 3, 2, 1])
    assert value == "1.2.3.4.5.11"
    again = get_game("cardbattle", {**game.explicit_rules, "deck1": value},
                     tileset=game.tileset_path)
    assert again.deck_cards(0) == game.deck_cards(0)
    assert again.component_digest() == game.component_digest()


def test_replacements_keep_the_deck_legal(tmp_path):
    game = small_game()
    assert game.deck_replacements(0, 1) == (6, 7, 8, 9, 10, 12)
    assert game.deck_replacements(1, 12) == (1, 2, 3, 4, 5, 11)
    lone = tmp_path / "lone.toml"                     # one creature and the boost
    lone.write_text("cards = [1, 12]\n")
    game = get_game("cardbattle", {"deck-minimum": "2", "deck1": str(lone),
                                   "deck2": str(DATA / "rival.toml")},
                    tileset=str(DATA / "small-cards.toml"))
    assert 12 not in game.deck_replacements(0, 1)      # the deck would hold no creature
    assert game.deck_replacements(0, 12) == tuple(range(2, 12))


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_with_decks_writes_them_out_and_replaces_cards_legally(name):
    game = get_game(name)
    if not provides(game, DeckBuilding):
        with pytest.raises(GameError, match="has no decks"):
            require(game, DeckBuilding, "the deck advisor")
        return
    for seat, option in enumerate(game.deck_options):
        cards = game.deck_cards(seat)
        written = get_game(name, {option: game.deck_value(cards)})
        assert written.deck_cards(seat) == cards
        card = cards[0]
        for replacement in game.deck_replacements(seat, card)[:20]:
            assert replacement not in cards
            swapped = set(cards) - {card} | {replacement}
            assert get_game(name, {option: game.deck_value(swapped)}).deck_cards(seat) == \
                tuple(sorted(swapped))


def test_the_played_component_is_the_card_a_choice_or_boost_puts_down():
    game = small_game()
    state = game.new_initial_state()
    assert game.played_component(state, encode(M_PLAY, 7)) == 7
    assert game.played_component(state, encode(M_BOOST, 12)) == 12
    assert game.played_component(state, PASS) is None
    assert game.played_component(state, encode(M_CALL, 1)) is None


def test_both_games_of_a_pair_meet_the_same_shuffles():
    """A deck against itself with a deterministic engine: the seat-swapped game is the same
    game, so the deck wins exactly one of the two."""
    settings = PlaySettings("cardbattle", "greedy", {"hand": "3", "deck-minimum": "6",
                                                     "target": "3"}, str(DATA / "small-cards.toml"))
    deck = small_game().deck_value(small_game().deck_cards(0))
    for pair in range(6):
        first, second = (play_deck_game(settings, DeckTask("m", 4, deck, deck, pair, seat))
                         for seat in (0, 1))
        assert first.score + second.score == 1.0
        assert first.played and second.played


# -- end to end ----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def improved():
    result = small_run("--games", 40, "--improve", 2, "--seed", 1, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_the_report_holds_every_measure(improved):
    overall = improved["win_rate"]["overall"]
    assert overall["games"] == 40 and overall["low"] <= overall["score"] <= overall["high"]
    assert list(improved["win_rate"]["by_opponent"]) == [str(DATA / "rival.toml")]
    assert [c["card"] for c in improved["cards"]] == [1, 2, 3, 4, 5, DUD]
    for card in improved["cards"]:
        counted = sum(split["games"] for split in (card["played"], card["not_played"]) if split)
        assert counted == 40
        assert card["swapped_out"]["pairs"] == 20
        assert card["swapped_out_win_rate"]["games"] == 40
    assert improved["seed"] == 1 and not improved["interrupted"]
    assert improved["games_played"] > 7 * 40


def test_improve_swaps_the_bad_card_out_and_confirms_it(improved):
    first = improved["improve"]["steps"][0]
    assert first["out"]["card"] == DUD and first["confirmed"]
    confirmation = first["confirmation"]
    assert confirmation["seed"] not in (1, first["screening"]["seed"])
    assert confirmation["change"]["low"] > 0 and confirmation["change"]["pairs"] == 20
    assert confirmation["after"]["overall"]["score"] > confirmation["before"]["overall"]["score"]
    assert DUD not in improved["final_deck"]["cards"]
    assert {"out": DUD, "in": first["in"]["card"]} in improved["final_deck"]["changes"]
    taken = [s for s in improved["improve"]["steps"] if s["confirmed"]]
    assert improved["final_deck"]["win_rate"] == taken[-1]["confirmation"]["after"]
    assert len(improved["improve"]["steps"]) <= 2


def test_the_same_seed_gives_the_same_games_with_workers():
    one, two = (json.loads(small_run("--games", 4, "--seed", 5, "--concurrency", c,
                                     "--json").stdout) for c in (1, 2))
    assert one["win_rate"] == two["win_rate"] and one["cards"] == two["cards"]


def test_text_report_prints_the_tables_and_the_seed():
    result = small_run("--games", 4, "--improve", 1, "--seed", 3)
    assert result.exit_code == 0
    for fragment in ("win rate of", "overall", "11 Boneco de Palha", "swapped out",
                     "improve: up to 1 swaps", "games/s", "seed: 3"):
        assert fragment in result.stdout


@pytest.mark.parametrize("args, message", [
    (["--deck", "nosuch", "--against", "titas"], "deck 'nosuch' (deck1) is neither"),
    (["--deck", "titas", "--against", "titas"], "a deck against itself"),
    (["--deck", "titas", "--against", "arsenal", "--against", "arsenal"], "give each "
                                                                          "opponent deck once"),
    (["--deck", "titas"], "at least one --against"),
    (["--against", "titas"], "--deck DECK"),
    (["--deck", "titas", "--against", "arsenal", "--games", "1"], "--games 1: expected an even"),
    (["--deck", "titas", "--against", "arsenal", "--games", "5"], "--games 5: expected an even"),
    (["--deck", "titas", "--against", "arsenal", "--improve", "-1"],
     "'--improve': '-1': expected an integer in 0..100"),
    (["--deck", "titas", "--against", "arsenal", "--outs", "0"],
     "'--outs': '0': expected an integer in 1..60"),
    (["--deck", "titas", "--against", "arsenal", "--engine", "nosuch"], "unknown engine"),
    (["--deck", "titas", "--against", "arsenal", "--engine", "greedy:x=1"], "no option 'x'"),
    (["--deck", "titas", "--against", "arsenal", "--engine", "alphabeta"],
     "perfect-information games only"),
    (["--deck", "titas", "--against", "arsenal", "--rule", "deck2=mista"], "--rule deck2"),
    (["--deck", "missing.toml", "--against", "arsenal"], "cannot read deck"),
    (["--deck", "1.2.999", "--against", "arsenal"], "card 999 is not in the card set"),
])
def test_bad_input_is_one_line_and_status_2(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.output
    assert len(result.output.strip().splitlines()) == 1 and result.output.startswith("Error: ")


def test_a_game_without_decks_is_refused():
    result = CliRunner().invoke(cli, ["deck", "mattock", "--deck", "a", "--against", "b"])
    assert result.exit_code == 2 and "mattock has no decks" in result.output


def test_a_bad_deck_file_names_the_file_and_field(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("cards = [1, 1, 2]\n")
    result = run("--deck", bad, "--against", "arsenal")
    assert result.exit_code == 2 and "deck bad.toml: card 1" in result.output


def interrupt_after(monkeypatch, games):
    """Ctrl-C once ``games`` games have finished, counted over every phase."""
    completed = executors.LocalPool.completed
    finished = []

    def interrupted(self, stop=None):
        for result in completed(self, stop):
            if len(finished) == games:
                raise KeyboardInterrupt
            finished.append(result)
            yield result
    monkeypatch.setattr(executors.LocalPool, "completed", interrupted)


def test_ctrl_c_during_the_card_measures_reports_what_was_measured(monkeypatch):
    interrupt_after(monkeypatch, 10)                # the baseline's 8 games, then 2 more
    result = small_run("--games", 8, "--seed", 2, "--json")
    assert result.exit_code == 130
    assert "interrupted after 10 games" in result.output
    document = json.loads(result.stdout)
    assert document["interrupted"] and document["games_played"] == 10
    assert document["win_rate"]["overall"]["games"] == 8
    first = document["cards"][0]["swapped_out"]
    assert first["pairs"] == 1 and all(c["swapped_out"] is None for c in document["cards"][1:])


def test_ctrl_c_at_once_still_prints_the_text_report(monkeypatch):
    interrupt_after(monkeypatch, 0)
    result = small_run("--games", 8, "--seed", 2)
    assert result.exit_code == 130
    assert "no complete pair" in result.stdout and "seed: 2" in result.stdout


@pytest.mark.parametrize("concurrency", ["1", "2"])
def test_ctrl_c_from_the_terminal_stops_the_workers_and_reports(concurrency):
    """Ctrl-C as a terminal sends it: to the whole process group, workers included."""
    command = COMMAND + ["deck", "cardbattle", "--deck", "titas", "--against", "arsenal", "--games", "2000",
               "--seed", "1", "--concurrency", concurrency, "--engine", "greedy", "--json"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, start_new_session=True)
    try:
        assert process.stderr.readline().startswith("deck advisor: titas against arsenal")
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=30)     # far below the run's own length
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 130 and "interrupted after" in err
    document = json.loads(out)
    assert document["interrupted"] and document["games_played"] < 2000
    deadline = time.monotonic() + 5
    with pytest.raises(ProcessLookupError):         # no worker outlives the command
        while time.monotonic() < deadline:
            os.killpg(process.pid, 0)
            time.sleep(0.1)
