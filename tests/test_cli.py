"""The command line as scripts use it: output shapes, JSON fields, and exit status 2 on bad input."""
import json

import pytest
from click.testing import CliRunner

from crystalpick.cli.main import cli
from crystalpick.engine import GAMES, get_game

START = "5/3x2/1o5/6o1/9/1x6/5x1/2o3/5 x"


def run(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_games_lists_every_game_with_rule_defaults():
    result = run("games", "--json")
    assert result.exit_code == 0
    listed = {g["name"]: g for g in json.loads(result.output)["games"]}
    assert set(listed) == set(GAMES)
    rules = {r["name"]: r["default"] for r in listed["mattock"]["rules"]}
    assert rules == {"size": "5", "removal": "blocking", "setup": "standard"}
    text = run("games").output
    assert "--rule removal=blocking|literal  (default blocking)" in text


def test_show_prints_board_side_to_move_and_position():
    result = run("show", "mattock", "--moves", "h5/h4-h5")
    assert result.exit_code == 0
    assert "to move: second (o)" in result.output
    assert "position: 5/3-x1/1o5/6o1/9/1x6/5x1/2o3/5 o" in result.output
    assert "\x1b[" not in result.output          # no colour when not a terminal


def test_show_accepts_unquoted_position_words():
    assert "position: " + START in run("show", "mattock", *START.split()).output


def test_moves_json_matches_the_engine():
    result = run("moves", "mattock", START, "--json")
    document = json.loads(result.output)
    state = get_game("mattock").parse_position(START)
    assert document == {"game": "mattock", "position": START, "to_move": "first",
                        "count": 36, "moves": [state.move_to_str(m) for m in state.legal_moves()]}


@pytest.mark.parametrize("impl", ["fast", "reference"])
def test_perft_json_and_divide(impl):
    result = run("perft", "mattock", "--depth", "2", "--divide", "--json", "--impl", impl)
    document = json.loads(result.output)
    assert document["nodes"] == 1314 and document["impl"] == impl and document["depth"] == 2
    assert set(document) == {"game", "position", "depth", "nodes", "seconds", "nps", "impl",
                             "divide"}
    assert sum(document["divide"].values()) == 1314 and len(document["divide"]) == 36


def test_perft_with_rules_and_moves():
    size7 = json.loads(run("perft", "mattock", "-d", "2", "--rule", "size=7", "--json").output)
    assert size7["nodes"] == 3636
    after = json.loads(run("perft", "mattock", "-d", "1", "--moves", "h5", "--json").output)
    assert after["nodes"] == len(get_game("mattock").state(None, "h5").legal_moves())


def test_random_setup_prints_and_reuses_its_seed():
    first = run("show", "mattock", "--rule", "setup=random", "--seed", "17").output
    second = run("show", "mattock", "--rule", "setup=random", "--seed", "17").output
    assert "seed: 17" in first and first == second
    unseeded = run("show", "mattock", "--rule", "setup=random").output
    seed = int(unseeded.split("seed: ")[1])
    assert run("show", "mattock", "--rule", "setup=random", "--seed", str(seed)).output == unseeded


@pytest.mark.parametrize("args,fragment", [
    (["show", "mattock", "--moves", "h5 zz"], "move 2: malformed move 'zz'"),
    (["show", "mattock", "--moves", "e5"], "illegal move 'e5'"),
    (["moves", "mattock", "5/3x2 x"], "expected 9 (size 5) or 13 (size 7)"),
    (["perft", "mattock", "--depth", "1", "--rule", "size=6"], "size='6' is not valid"),
    (["perft", "mattock", "--depth", "1", "--rule", "colour=red"], "unknown rule option"),
    (["perft", "mattock", "--depth", "1", "--rule", "size"], "expected NAME=VALUE"),
    (["show", "mattock", "--tileset", __file__], "--tileset does not apply"),
    (["show", "chess"], "'chess' is not one of"),
    (["perft", "mattock"], "Missing option '--depth'"),
])
def test_bad_input_exits_2_with_one_line(args, fragment):
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2, result.output
    assert fragment in result.output
    assert "Traceback" not in result.output
    if fragment.startswith(("move", "illegal", "expected", "size=", "unknown", "--tileset")):
        assert len(result.output.strip().splitlines()) == 1


def test_moves_at_a_chance_node_lists_outcomes_with_probabilities():
    from crystalpick.positions import perft_suite
    case = next(c for c in perft_suite("maatatahay") if c.id == "refill-pending")
    document = json.loads(run("moves", "maatatahay", case.position, "--json").output)
    assert document["to_move"] == "chance"
    assert len(document["probabilities"]) == len(document["moves"]) == document["count"]
    assert abs(sum(document["probabilities"]) - 1) < 1e-9
    assert "outcomes (outcome, probability)" in run("moves", "maatatahay", case.position).output


def test_games_game_shows_only_that_game():
    listed = json.loads(run("games", "maatatahay", "--json").output)["games"]
    assert [g["name"] for g in listed] == ["maatatahay"]
    text = run("games", "Mattock").output
    assert text.startswith("mattock  (players: first, second)") and "maatatahay" not in text
    assert CliRunner().invoke(cli, ["games", "chess"]).exit_code == 2


def test_show_json_is_the_position_for_programs():
    document = json.loads(run("show", "mattock", "--moves", "h5/h4-h5", "--json").output)
    assert document == {"game": "mattock", "rules": get_game("mattock").rules,
                        "position": "5/3-x1/1o5/6o1/9/1x6/5x1/2o3/5 o", "to_move": "second",
                        "game_over": None}
    seeded = json.loads(run("show", "maatatahay", "--seed", "7", "--json").output)
    assert seeded["seed"] == 7 and seeded["to_move"] is not None


def test_show_json_of_a_finished_game_says_who_won_and_why():
    state, played = get_game("mattock").new_initial_state(), []
    while not state.is_terminal():
        played.append(state.move_to_str(state.legal_moves()[0]))
        state.play(state.legal_moves()[0])
    document = json.loads(run("show", "mattock", "--moves", " ".join(played), "--json").output)
    winner = state.winner()
    assert document["to_move"] is None
    assert document["game_over"] == {
        "winner": None if winner is None else get_game("mattock").player_names[winner],
        "reason": state.end_reason()}


def test_every_option_of_every_command_has_help_and_match_names_every_engine():
    import click

    from crystalpick.cli import matches
    from crystalpick.search.specs import SCHEMAS

    unexplained = [(name, param.opts) for name, command in cli.commands.items()
                   for param in command.params
                   if isinstance(param, click.Option) and not param.help]
    assert unexplained == []
    help_text = run("match", "--help").output
    for engine in SCHEMAS:
        assert f"{engine}[" in matches.ENGINE_HELP or f", {engine}," in matches.ENGINE_HELP
    assert "Set a rule option" in help_text and "Component data file" in help_text
