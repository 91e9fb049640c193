"""The information-set searcher from the command line: analyse a card battle view or a
generated game's seat (text and JSON against the schema), ismcts the default engine there,
refusals, and annotate of card battle records judged from each mover's view."""
import pytest
import json
from pathlib import Path

import jsonschema
from click.testing import CliRunner

from crystalpick.cli.main import cli
from crystalpick.engine import get_game

SCHEMA = json.loads((Path(__file__).parent.parent / "docs" / "analysis.schema.json").read_text())
MOVES = "keep keep toss:P2 call:forca"


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_analyse_a_generated_seat_prints_a_mixed_strategy_and_the_seed():
    result = run("analyse", "cardbattle", "--seed", 7, "--moves", MOVES, "--seat", "first",
                 "--sims", 2000, "--engine", "ismcts:play=auto")      # a secret choice: drawn
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "a mixed strategy for P1" in text and "play %" in text
    assert "drawn from the mixed strategy with seed 7" in text
    assert "win probability for P1" in text
    state = get_game("cardbattle", seed=7).state(None, MOVES)
    hidden = state.to_position().seats[1].hand
    assert "P1's view: " + state.observation_string(0) in text
    assert f"hand={'.'.join(map(str, hidden))}" not in text      # P2's hand is not printed
    shown = [line.split()[1] for line in text.splitlines() if line[:1].isdigit()
             and line.split()[1].startswith("play:")]
    assert sorted(shown) == sorted(state.move_to_str(m) for m in state.legal_moves())


def test_analyse_json_of_a_view_follows_the_schema():
    state = get_game("cardbattle", seed=7).state(None, MOVES + " play:25")
    view = state.observation_string(1)
    result = run("analyse", "cardbattle", view, "--sims", 1500, "--seed", 3, "--json",
                 "--engine", "ismcts:play=auto")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    jsonschema.validate(document, SCHEMA)
    assert document["input"]["engine"] == "ismcts" and document["input"]["position"] == view
    assert document["input"]["options"] == {"play": "auto"}
    assert document["point_of_view"] == "P2" and document["input"]["seat"] == "P2"
    outcome = document["result"]
    assert outcome["mixed"] and outcome["seed"] == 3 and outcome["play"] == "drawn"
    assert abs(sum(line["probability"] for line in outcome["lines"]) - 1) < 1e-3
    assert outcome["play_move"] in {line["move"] for line in outcome["lines"]}
    assert {line["move"] for line in outcome["lines"]} == \
        {state.move_to_str(m) for m in state.legal_moves()}


def test_redraw_reports_the_simulations_that_held_the_real_hand():
    state = get_game("cardbattle", seed=7).state(None, MOVES + " play:25")
    view = state.observation_string(1)
    result = run("analyse", "cardbattle", view, "--engine", "ismcts:sims=1500,redraw=0.5",
                 "--seed", 3, "--json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    jsonschema.validate(document, SCHEMA)
    outcome = document["result"]
    # about half keep the real hand (a redrawn five-card hand is almost never it again)
    assert 600 < outcome["real_simulations"] < 900 and outcome["simulations"] == 1500
    text = run("analyse", "cardbattle", view, "--engine", "ismcts:sims=1500,redraw=0.5",
               "--seed", 3).stdout
    assert f"{outcome['real_simulations']:,} with the real hand" in text


def test_a_call_and_a_boost_list_every_option():
    game = get_game("cardbattle", seed=7)
    call = run("analyse", "cardbattle", "--seed", 7, "--moves", "keep keep toss:P1",
               "--sims", 1000, "--json")
    options = {line["move"] for line in json.loads(call.stdout)["result"]["lines"]}
    assert options == {f"call:{a}" for a in game.cardset.attributes}


def test_a_view_names_its_seat_and_bad_views_are_one_line():
    state = get_game("cardbattle", seed=7).state(None, MOVES)
    view = state.observation_string(0)
    wrong = run("analyse", "cardbattle", view, "--seat", "second", "--sims", 10)
    assert wrong.exit_code == 2 and "P1's view" in wrong.output
    broken = run("analyse", "cardbattle", view.replace("hand=?5", "hand=?6"), "--sims", 10)
    assert broken.exit_code == 2 and "unseen" in broken.output
    assert "Traceback" not in broken.output and len(broken.output.strip().splitlines()) == 1
    refused = run("analyse", "cardbattle", "--seed", 7, "--moves", MOVES, "--engine", "mcts")
    assert refused.exit_code == 2 and "use ismcts" in refused.output
    other = run("analyse", "mattock", "--engine", "ismcts", "--sims", 10)
    assert other.exit_code == 2 and "use mcts or alphabeta" in other.output


@pytest.mark.slow
def test_annotate_card_battle_records_from_each_movers_view(tmp_path):
    records, out = tmp_path / "games.rec", tmp_path / "annotated.rec"
    played = run("match", "cardbattle", "--engine", "greedy", "--engine", "random", "--games",
                 2, "--seed", 4, "--db", tmp_path / "m.sqlite", "--records", records)
    assert played.exit_code == 0, played.output
    result = run("annotate", "cardbattle", records, "--sims", 200, "--seed", 1, "-o", out,
                 "--json")
    assert result.exit_code == 0, result.output
    report = json.JSONDecoder().raw_decode(result.stdout[result.stdout.index("{"):])[0]
    assert report["engine"] == "ismcts" and report["complete"]
    for game in report["games"]:
        assert game["judged"] == game["decisions"] > 0
        for move in game["moves"]:
            assert move["point_of_view"] == move["player"]
            assert 0 <= move["wp_loss"] <= 1
    assert "ismcts" in out.read_text()
    replay = run("replay", out, "--annotations")
    assert replay.exit_code == 0 and "annotated by ismcts" in replay.output


def test_a_call_is_played_pure_and_says_so():
    """The others see a call: play=auto (the default) plays it pure instead of drawing it."""
    text = run("analyse", "cardbattle", "--seed", 7, "--moves", "keep keep toss:P1",
               "--sims", 1000).stdout
    assert "played pure, not drawn" in text and "drawn from the mixed strategy" not in text
    document = json.loads(run("analyse", "cardbattle", "--seed", 7, "--moves",
                              "keep keep toss:P1", "--sims", 1000, "--json").stdout)
    jsonschema.validate(document, SCHEMA)
    assert document["result"]["play"] == "pure"
