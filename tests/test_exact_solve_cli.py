"""``crystalpick solve`` on a game with hidden information: routed to the exact solver by the
game's capabilities, a JSON document that follows docs/exact_solve.schema.json, and every bad
input (a game too large, an unknown configuration, options of the other solver) refused in
one line with status 2 before any work."""
from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from crystalpick.cli.main import cli

SCHEMA = json.loads((Path(__file__).parent.parent / "docs" / "exact_solve.schema.json")
                    .read_text(encoding="utf-8"))
PENNIES = Path(__file__).parent / "data" / "pennies"
PENNIES_POSITION = (
    "cardbattle phase=choose actor=P1 caller=P1 attr=a round=1 ply=20 tiebreak=0 result=- | "
    "P1 won=1 tokens=0 hand=1.2 deck=- discard=- table=- chosen=- tie=- value=0 left=0 "
    "flags=ck | P2 won=0 tokens=0 hand=3.4 deck=- discard=- table=- chosen=- tie=- value=0 "
    "left=0 flags=ck")


def solve(*args):
    return CliRunner().invoke(cli, ["solve", "cardbattle", *args])


@pytest.mark.slow
def test_a_named_configuration_is_solved_exactly_with_a_schema():
    result = solve("--config", "open-3", "--json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    jsonschema.validate(document, SCHEMA)
    solved = document["result"]
    assert solved["value"] == pytest.approx(0.5, abs=1e-9)
    assert solved["lower"] == pytest.approx(solved["upper"], abs=1e-9)
    assert solved["exploitability"] <= 1e-9 and solved["method"].startswith("sequence-form")
    first = solved["first_decisions"][0]
    assert first["player"] == "P1" and "phase=mulligan" in first["observation"]
    assert sum(m["probability"] for m in first["strategy"]) == pytest.approx(1.0)


def test_a_position_with_the_rules_and_decks_given_prints_the_mixed_equilibrium():
    """The matching-pennies card position: worth 1/2, each card played 1/2."""
    result = solve(PENNIES_POSITION, "--cardset", str(PENNIES / "cards.toml"),
                   "--deck", str(PENNIES / "p1.toml"), "--deck", str(PENNIES / "p2.toml"),
                   "--rule", "deck-minimum=2", "--rule", "target=2", "--rule", "refill=none")
    assert result.exit_code == 0, result.output
    assert "value: 0.500000" in result.stdout and "method: sequence-form LP" in result.stdout
    assert "play:1 0.5000 play:2 0.5000" in result.stdout


@pytest.mark.parametrize("args, message", [
    ((), "about .* histories .*choose a smaller configuration"),
    (("--config", "nope"), "unknown small configuration 'nope'; expected one of open-3"),
    (("--config", "open-3", "--rule", "target=2"), "--config names the rules"),
    (("--config", "open-3", "--time", "5"), "--time and --resume are for proof-number"),
    (("--config", "open-3", "--cluster", "tcp://127.0.0.1:1"), "--cluster and --job-nodes"),
])
def test_bad_input_is_one_line_and_status_2(args, message):
    result = solve(*args)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and re.search(message, lines[0]), result.output


def test_a_perfect_information_game_refuses_a_configuration():
    result = CliRunner().invoke(cli, ["solve", "mattock", "--config", "open-3"])
    assert result.exit_code == 2 and "proof-number search" in result.output
