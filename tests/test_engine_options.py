"""Engine option schemas: one parser for specs, setoption and 'crystalpick engines'."""
import io
import json

import pytest
from click.testing import CliRunner

from crystalpick.cli.main import cli
from crystalpick.apps.protocol import Session
from crystalpick.search.engines import AlphaBetaEngine, MCTSEngine
from crystalpick.search.options import Option, OptionError
from crystalpick.search.specs import SCHEMAS, parse_spec


@pytest.mark.parametrize("text,value", [
    ("mcts:c=0", {"c": 0.0}), ("mcts:c=1.5,playout=heuristic", {"c": 1.5, "playout": "heuristic"}),
    ("alphabeta:lmr=off,star2=yes", {"lmr": False, "star2": True}),
    ("alphabeta:tt_megabytes=65536", {"tt_megabytes": 65536}), ("random:seed=4", {"seed": 4}),
    ("ismcts:epsilon=0.1,model=1,play=best", {"epsilon": 0.1, "model": 1.0, "play": "best"}),
])
def test_good_specs_parse_to_typed_values(text, value):
    assert parse_spec(text).options == value


@pytest.mark.parametrize("text,fragment", [
    ("alphabeta:c=1.4", "alphabeta has no option 'c'; valid: depth, nodes, time, tt_megabytes"),
    ("mcts:tt_megabytes=8", "mcts has no option 'tt_megabytes'; valid: sims"),
    ("greedy:depth=3", "greedy takes no options"),
    ("mcts:c=nan", "c=nan: expected a finite number >= 0; valid: sims, nodes, time, c,"),
    ("mcts:c=inf", "c=inf"), ("mcts:c=-0.1", "c=-0.1"),
    ("alphabeta:tt_megabytes=0", "expected an integer in 1..65536"),
    ("alphabeta:tt_megabytes=1.5", "tt_megabytes=1.5"),
    ("mcts:workers=0", "workers=0"), ("mcts:playout=smart", "expected random|heuristic"),
    ("alphabeta:lmr=maybe", "expected true or false"),
    ("alphabeta:time=0", "time=0: expected a finite number > 0"),
    ("mcts:sims=10,c", "expected KEY=VALUE"),
    ("mcts:sims=\uff11\uff10", "sims=\uff11\uff10"),   # full-width digits: not ASCII
    ("ismcts:epsilon=1.5", "epsilon=1.5: expected a finite number in 0..1"),
    ("ismcts:model=-0.1", "model=-0.1: expected a finite number in 0..1"),
    ("ismcts:play=mixed", "play=mixed: expected auto|best"),
])
def test_bad_specs_are_refused_when_parsed(text, fragment):
    with pytest.raises(OptionError) as caught:
        parse_spec(text)
    assert fragment in str(caught.value) and "\n" not in str(caught.value)


def test_limits_and_options_are_kept_apart():
    spec = parse_spec("mcts:sims=300,time=2,nodes=9,seed=1")
    assert spec.limits == {"simulations": 300, "time": 2.0, "nodes": 9}
    assert spec.options == {"seed": 1}


def test_engines_refuse_options_they_do_not_have_from_python_too():
    with pytest.raises(OptionError):
        AlphaBetaEngine(c=1.0)
    with pytest.raises(OptionError):
        MCTSEngine(workers=0)
    with pytest.raises(OptionError):
        MCTSEngine(c=-1.0)
    assert MCTSEngine(c=0.7, seed=3).options["c"] == 0.7


def test_defaults_are_valid_values_of_their_option():
    for schema in SCHEMAS.values():
        for option in schema.limits + schema.options:
            assert option.check(option.default) == option.default


def test_option_type_must_be_known():
    with pytest.raises(ValueError):
        Option("x", "complex", 0, "")


def test_engines_command_lists_every_option_with_its_range():
    result = CliRunner().invoke(cli, ["engines", "--json"])
    engines = {e["name"]: e for e in json.loads(result.output)["engines"]}
    assert set(engines) == set(SCHEMAS)
    mcts = {o["name"]: o for o in engines["mcts"]["options"]}
    assert mcts["c"]["min"] == 0 and mcts["playout"]["choices"] == ["random", "heuristic", "prior"]
    assert {o["name"] for o in engines["alphabeta"]["limits"]} == {"depth", "nodes", "time"}
    text = CliRunner().invoke(cli, ["engines"]).output
    assert "tt_megabytes=an integer in 1..65536" in text


def session():
    out = io.StringIO()
    return Session("mattock", out), out


def test_protocol_handshake_lists_the_schema_options():
    s, out = session()
    s.handle("protocol")
    lines = out.getvalue().splitlines()
    for name, schema in SCHEMAS.items():
        if name in ("alphabeta", "mcts"):
            for option in schema.options:
                assert option.protocol_line(name) in lines


@pytest.mark.parametrize("commands,fragment", [
    (["setoption name c value 1.2"], "alphabeta has no option 'c'"),
    (["setoption name engine value mcts", "setoption name c value -1"], "c=-1"),
    (["setoption name engine value mcts", "setoption name sims value 5"], "search limit"),
    (["setoption name engine value alphabeta:c=1"], "alphabeta has no option 'c'"),
    (["setoption name multipv value 0"], "multipv=0"),
])
def test_setoption_uses_the_same_validation(commands, fragment):
    s, out = session()
    for command in commands:
        s.handle(command)
    assert fragment in out.getvalue()


def test_setoption_takes_a_whole_spec_for_the_engine():
    s, out = session()
    s.handle("setoption name engine value mcts:c=1.1,workers=2")
    s.handle("setoption name seed value 9")
    assert out.getvalue() == ""
    assert s.engine_name == "mcts" and s.engine_options == {"c": 1.1, "workers": 2, "seed": 9}
