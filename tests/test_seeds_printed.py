"""Issue 46: every command that draws anything at random prints the seed it used, also where
the randomness is in the rules (Mattock's ``--rule setup=random``), and that seed given back
draws the same again."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from crystalpick.apps.protocol import Session
from crystalpick.cli.main import cli

RANDOM_START = ("mattock", "--rule", "setup=random")


def document(*args) -> dict:
    result = CliRunner().invoke(cli, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def seed_and_position(name: str, found: dict) -> tuple[int, str]:
    if name == "analyse":
        return found["input"]["setup_seed"], found["input"]["position"]
    if name == "solve":
        return found["input"]["seed"], found["input"]["position"]
    return found["seed"], found["position"]


@pytest.mark.parametrize("name, extra", [
    ("show", ()), ("moves", ()), ("perft", ("--depth", "1")),
    ("analyse", ("--depth", "1")), ("solve", ("--nodes", "100")),
])
def test_a_random_start_is_printed_with_its_seed_which_draws_it_again(name, extra):
    seed, position = seed_and_position(name, document(name, *RANDOM_START, *extra))
    again = seed_and_position(name, document(name, *RANDOM_START, *extra, "--seed", str(seed)))
    assert again == (seed, position)
    text = CliRunner().invoke(cli, [name, *RANDOM_START, *extra, "--seed", str(seed)])
    assert f"seed: {seed}" in text.output, text.output


class Lines:
    def __init__(self):
        self.lines = []

    def write(self, text):
        self.lines += text.splitlines()

    def flush(self):
        pass


def test_the_engine_protocol_says_the_seed_of_a_random_start():
    out = Lines()
    session = Session("mattock", out=out)
    session.handle("setoption name rule.setup value random")
    session.handle("newgame")
    seeds = [line for line in out.lines if line.startswith("info string seed ")]
    assert len(seeds) == 2 and seeds[0] != seeds[1], out.lines
