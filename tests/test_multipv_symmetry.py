"""Multi-PV lines are distinct choices (issue 45): where alpha-beta shares the entries of
symmetric positions it ranks one move of each first-move class, every line with its own PV;
where it does not (symmetry=off, mcts) a line symmetric to an earlier one names it."""
import json
from pathlib import Path

import jsonschema
from click.testing import CliRunner

from crystalpick.cli.main import cli
from crystalpick.engine import get_game
from crystalpick.search import Limits, analyse, make_engine
from crystalpick.search.symmetry import first_move_classes

SCHEMA = json.loads((Path(__file__).parent.parent / "docs" / "analysis.schema.json").read_text())


def start():
    return get_game("mattock").new_initial_state()


def class_of(state):
    """Each first move's class (its index in first_move_classes)."""
    return {move: k for k, moves in enumerate(first_move_classes(state)) for move in moves}


def test_the_lines_from_the_start_are_of_different_classes_each_with_its_pv():
    state = start()
    classes = class_of(state)
    for limits in (Limits(depth=4), Limits(nodes=50_000)):     # finished, and cut short
        result = analyse(state, "alphabeta", limits, multipv=4)
        assert len({classes[line.move] for line in result.lines}) == len(result.lines) == 4
        assert all(len(line.pv) >= 2 and line.symmetric_to is None for line in result.lines)
        assert result.move_classes == 12


def test_more_lines_than_classes_gives_one_line_a_class():
    result = analyse(start(), "alphabeta", Limits(depth=2), multipv=20)
    assert len(result.lines) == 12 and len({line.move for line in result.lines}) == 12


def test_ranking_one_move_a_class_keeps_the_scores_of_an_exact_search():
    """Without reductions a fixed depth is exact minimax: each class's line has the score
    every move of the class gets when all 36 are searched without shared entries."""
    state = start()
    classes = class_of(state)
    shared = analyse(state, make_engine("alphabeta", lmr=False), Limits(depth=3), multipv=12)
    plain = analyse(state, make_engine("alphabeta", lmr=False, symmetry="off"),
                    Limits(depth=3), multipv=36)
    by_class = {}
    for line in plain.lines:
        by_class.setdefault(classes[line.move], set()).add(line.score)
    assert all(len(scores) == 1 for scores in by_class.values())
    assert {classes[line.move]: {line.score} for line in shared.lines} == by_class


def twins_named(state, lines) -> int:
    """Check that each line names the earlier line of its class, if any; count the twins."""
    classes, seen = class_of(state), {}
    for line in lines:
        first = seen.setdefault(classes[line.move], line.move_str)
        assert line.symmetric_to == (None if first == line.move_str else first)
    return sum(line.symmetric_to is not None for line in lines)


def test_without_shared_entries_a_twin_names_the_earlier_line_of_its_class():
    state = start()
    result = analyse(state, make_engine("alphabeta", symmetry="off"), Limits(depth=2),
                     multipv=36)
    assert result.move_classes is None
    assert twins_named(state, result.lines) == 24
    mcts = analyse(state, make_engine("mcts", seed=2), Limits(simulations=1000), multipv=36)
    assert twins_named(state, mcts.lines) == 24


def test_the_table_and_the_json_say_which_line_a_twin_repeats():
    runner = CliRunner()
    text = runner.invoke(cli, ["analyse", "mattock", "--engine", "alphabeta:symmetry=off",
                               "--depth", "2", "--multipv", "36"]).output
    twins = [row for row in text.splitlines() if "by symmetry)" in row]
    assert len(twins) == 24 and all(row.endswith(")") and "(= " in row for row in twins)
    output = runner.invoke(cli, ["analyse", "mattock", "--engine", "alphabeta:symmetry=off",
                                 "--depth", "2", "--multipv", "36", "--json"]).output
    document = json.loads(output)
    jsonschema.validate(document, SCHEMA)
    lines = document["result"]["lines"]
    earlier = set()
    for line in lines:
        assert line.get("symmetric_to", line["move"]) in earlier | {line["move"]}
        earlier.add(line["move"])
    assert sum("symmetric_to" in line for line in lines) == 24
    table = runner.invoke(cli, ["analyse", "mattock", "--depth", "2", "--multipv", "3"]).output
    assert "fall into 12 symmetry classes" in table and "by symmetry)" not in table
    shared = json.loads(runner.invoke(cli, ["analyse", "mattock", "--depth", "2",
                                            "--multipv", "3", "--json"]).output)
    jsonschema.validate(shared, SCHEMA)
    assert shared["result"]["move_classes"] == 12
    assert all("symmetric_to" not in line for line in shared["result"]["lines"])
