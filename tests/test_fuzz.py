"""Fuzzing what a user can type: random command lines drawn from every command's options
(valid, boundary and garbage values), random protocol sessions and random bytes as files.

Whatever comes in, a command exits with 0 or 2 (never a traceback), within a time bound
(never a hang), and leaves no child process behind. Valid values are drawn from cheap ranges
(a search gets a time limit of hundredths of a second, a match two games), so the suite
stays bounded; garbage values are the ones that used to crash or hang: NaN, infinities,
1e400, integers past 64 bits, negative and zero counts, text, empty strings.
"""
import faulthandler
import io
import os
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings, strategies as st

from crystalpick.cli.main import cli
from crystalpick.cli.protocol import Session
from crystalpick.engine import GAMES, get_game
from crystalpick.search.specs import SCHEMAS

STUB = Path(__file__).with_name("stub_engine.py")
CASE_SECONDS = 30          # a case that takes longer counts as a hang
HANG_GUARD = 120           # a case stuck in native code: dump the stacks and fail the run
FUZZ = settings(deadline=None, derandomize=False, print_blob=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])

GARBAGE = st.sampled_from([
    "nan", "NaN", "inf", "-inf", "1e400", "-1e400", "-1", "0", "-0", "", " ", "abc", "1.5",
    "2.7", "0x10", "9223372036854775808", "-9223372036854775809", "99999999999999999999999",
    "1e-400", "--", "-", "=", ",", "é", "\x7f", "1,2", "+5", "1_0"])
GAME_NAMES = sorted(GAMES)


def ints(low, high):
    return st.integers(low, high).map(str)


def floats(low, high):
    return st.floats(low, high, allow_nan=False, allow_infinity=False).map(repr)


def either(valid):
    """Mostly valid values, sometimes garbage."""
    return st.one_of(valid, valid, GARBAGE)


def children() -> list[str]:
    """The processes this test process has started and not reaped (Linux /proc)."""
    pids = []
    for task in Path(f"/proc/{os.getpid()}/task").glob("*/children"):
        pids += task.read_text().split()
    return pids


def no_children_left() -> list[str]:
    deadline = time.monotonic() + 3
    while children() and time.monotonic() < deadline:
        time.sleep(0.05)
    return children()


def invoke(args, stdin=None):
    """Run one command line in this process, as a user would; check the three promises."""
    faulthandler.dump_traceback_later(HANG_GUARD, exit=True)
    started = time.monotonic()
    try:
        result = CliRunner().invoke(cli, args, input=stdin)
    finally:
        faulthandler.cancel_dump_traceback_later()
    seconds = time.monotonic() - started
    shown = f"crystalpick {' '.join(map(repr, args))}\n{result.output[-2000:]}"
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"traceback ({type(result.exception).__name__}: "
                             f"{result.exception}) from {shown}") from result.exception
    assert result.exit_code in (0, 2), shown
    assert "Traceback" not in result.output, shown
    assert seconds < CASE_SECONDS, f"{seconds:.1f} s: {shown}"
    assert not no_children_left(), f"child processes left by {shown}"
    return result


# -- the pieces of a command line ---------------------------------------------------------

@st.composite
def rule_options(draw, game):
    """--rule NAME=VALUE items: the game's options with their values, or garbage."""
    items = []
    options = get_game(game).rule_options if game in GAMES else []
    for _ in range(draw(st.integers(0, 2))):
        if options and draw(st.booleans()):
            option = draw(st.sampled_from(options))
            value = draw(st.one_of(st.sampled_from(option.choices), GARBAGE))
            items += ["--rule", f"{option.name}={value}"]
        else:
            items += ["--rule", draw(st.one_of(GARBAGE, st.text(max_size=12)))]
    return items


def printed_positions(game):
    """Positions as the tool prints them (Mattock's may start with '-')."""
    state = get_game(game, seed=1).new_initial_state()
    positions = [state.position()]
    for _ in range(40):
        if state.is_terminal():
            break
        moves = state.chance_outcomes() if state.is_chance_node() else state.legal_moves()
        move = moves[len(positions) % len(moves)]
        state.play(move[0] if isinstance(move, tuple) else move)
        positions.append(state.position())
    return positions


POSITIONS = {game: printed_positions(game) for game in GAME_NAMES}


@st.composite
def game_and_state(draw):
    """GAME [POSITION] [--moves ...] [--rule ...] [--seed ...] [--deck ...]."""
    game = draw(st.sampled_from(GAME_NAMES + ["MATTOCK", "bogus"]))
    args = [game]
    known = game.lower() in GAMES
    if known and draw(st.booleans()):
        position = draw(st.sampled_from(POSITIONS[game.lower()]))
        if draw(st.integers(0, 4)) == 0:       # a damaged position
            cut = draw(st.integers(0, len(position)))
            position = position[:cut] + draw(st.text(max_size=4)) + position[cut + 1:]
        args += position.split()
    elif draw(st.integers(0, 3)) == 0:
        args += [draw(st.text(min_size=1, max_size=30).filter(lambda t: not t.startswith("-")))]
    if draw(st.integers(0, 3)) == 0:
        args += ["--moves", draw(st.one_of(st.text(max_size=20), GARBAGE))]
    args += draw(rule_options(game.lower()))
    if draw(st.booleans()):
        args += ["--seed", draw(either(ints(0, 2**63 - 1)))]
    if game.lower() == "cardbattle" and draw(st.booleans()):
        decks = st.one_of(st.sampled_from(["mista", "titas", "arsenal", "alianca"]), GARBAGE)
        args += ["--deck", draw(decks), "--deck", draw(decks)]
    return args


@st.composite
def engine_spec(draw, cheap_limit=True):
    """ENGINE[:KEY=VALUE,...] from the engines' schemas, with a cheap limit (so a valid
    spec searches for hundredths of a second), or garbage."""
    name = draw(st.sampled_from(["alphabeta", "mcts", "greedy", "random", "bogus", ""]))
    items = []
    schema = SCHEMAS.get(name)
    cheap = {"tt_megabytes": ints(1, 16), "workers": ints(1, 2), "max_nodes": ints(1024, 5000),
             "seed": ints(0, 2**63 - 1), "c": floats(0, 3), "playout_depth": ints(0, 30),
             "depth": ints(1, 2), "nodes": ints(1, 300), "sims": ints(1, 100),
             "time": floats(0.001, 0.02)}
    if schema is not None:
        for option in draw(st.lists(st.sampled_from(schema.options + schema.limits),
                                    max_size=3, unique_by=lambda o: o.name)):
            if option.kind in ("bool", "choice"):
                values = st.sampled_from(list(option.choices) or ["true", "false", "yes"])
            else:
                values = cheap.get(option.name, ints(0, 5))
            items.append(f"{option.name}={draw(either(values))}")
        if cheap_limit and schema.limits:
            items.append(f"{schema.limits[-1].name}={draw(floats(0.001, 0.02))}"
                         if schema.limits[-1].name == "time" else "nodes=200")
    if draw(st.integers(0, 5)) == 0:
        items.append(draw(st.one_of(GARBAGE, st.text(max_size=8))))
    return name + (":" + ",".join(items) if items else "")


def flag(draw, name, values):
    return [name, draw(values)] if draw(st.booleans()) else []


# -- command lines ------------------------------------------------------------------------

@st.composite
def show_moves_perft(draw):
    command = draw(st.sampled_from(["show", "moves", "perft"]))
    args = [command] + draw(game_and_state())
    args += flag(draw, "--impl", st.sampled_from(["fast", "reference", "bogus"]))
    if command == "perft":
        args += ["--depth", draw(either(ints(0, 3)))]
        if draw(st.booleans()):
            args.append("--divide")
    if command != "show" and draw(st.booleans()):
        args.append("--json")
    return args


@st.composite
def analyse(draw):
    args = ["analyse"] + draw(game_and_state())
    args += ["--engine", draw(engine_spec())]
    args += ["--time", draw(either(floats(0.005, 0.03)))]      # always bounded
    args += flag(draw, "--depth", either(ints(1, 120)))
    args += flag(draw, "--nodes", either(ints(1, 2**62)))
    args += flag(draw, "--sims", either(ints(1, 2**62)))
    args += flag(draw, "--multipv", either(ints(1, 64)))
    args += draw(st.sampled_from([[], ["--json"], ["--json", "--stream"]]))
    return args


@st.composite
def play(draw):
    args = ["play"] + draw(game_and_state())
    args += ["--engine", draw(engine_spec()), "--human", draw(st.sampled_from(
        ["none", "none", "first", "both", "bogus"]))]
    return args


@st.composite
def match(draw, tmp):
    game = draw(st.sampled_from(GAME_NAMES + ["bogus"]))
    args = ["match", game, "--db", str(tmp / "fuzz.sqlite")]
    for _ in range(draw(st.sampled_from([2, 2, 2, 1, 3]))):
        args += ["--engine", draw(engine_spec())]
    args += ["--games", draw(either(ints(1, 2)))]
    args += flag(draw, "--concurrency", either(ints(1, 2)))
    args += flag(draw, "--st", either(floats(0.001, 0.02)))
    args += flag(draw, "--tc", st.one_of(GARBAGE, st.builds(
        lambda base, inc: f"{base}+{inc}", floats(0.5, 2), floats(0, 0.01))))
    args += flag(draw, "--tolerance", either(floats(0, 1)))
    args += flag(draw, "--max-plies", either(ints(1, 40)))
    args += flag(draw, "--sprt", st.one_of(GARBAGE, st.just("elo0=0,elo1=5"),
                                           st.builds(lambda a: f"elo0={a}", GARBAGE)))
    args += flag(draw, "--seed", either(ints(0, 2**63 - 1)))
    args += flag(draw, "--rule", st.one_of(GARBAGE, st.just("size=7")))
    if draw(st.integers(0, 4)) == 0:
        args += ["--resume"] + flag(draw, "--match-id", either(ints(1, 3)))
    return args


@given(st.data())
@settings(FUZZ, max_examples=60)
def test_fuzzed_command_lines_exit_0_or_2(data):
    args = data.draw(st.one_of(show_moves_perft(), analyse(), play(),
                               st.sampled_from([["games"], ["engines", "--json"],
                                                ["bench", "--perft-depth", "nan"],
                                                ["bench", "mattock", "--sims", "0"],
                                                ["bench", "--depth", "1e400"]])))
    invoke(args, stdin=data.draw(st.text(max_size=40)) if args[0] == "play" else None)


@given(st.data())
@settings(FUZZ, max_examples=25)
def test_fuzzed_matches_exit_0_or_2(tmp_path_factory, data):
    tmp = tmp_path_factory.mktemp("match")
    invoke(data.draw(match(tmp)))


# -- files ----------------------------------------------------------------------------------

def a_record(tmp_path_factory) -> str:
    path = tmp_path_factory.getbasetemp() / "one.rec"
    if not path.exists():
        invoke(["match", "mattock", "--engine", "random", "--engine", "random", "--games", "1",
                "--seed", "5", "--db", str(path.with_suffix(".sqlite")), "--records",
                str(path)])
    return path.read_text()


@st.composite
def damaged(draw, text: str) -> bytes:
    """``text`` with a few bytes replaced, inserted or cut, or random bytes."""
    data = bytearray(text.encode())
    if draw(st.integers(0, 3)) == 0:
        return draw(st.binary(max_size=300))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(data)))
        data[at:at + draw(st.integers(0, 3))] = draw(st.binary(max_size=4))
    return bytes(data)


@given(st.data())
@settings(FUZZ, max_examples=40)
def test_fuzzed_files_exit_0_or_2(tmp_path_factory, data):
    """Records, openings, decks, card sets and databases with random or damaged bytes."""
    record = a_record(tmp_path_factory)
    tmp = tmp_path_factory.mktemp("files")
    path = tmp / data.draw(st.sampled_from(["f.rec", "f.toml", "f.json", "f.sqlite"]))
    database = (tmp_path_factory.getbasetemp() / "one.sqlite").read_bytes()
    source = database.decode("latin-1") if path.suffix == ".sqlite" else record
    content = data.draw(damaged(source))
    path.write_bytes(content.decode("latin-1").encode("latin-1") if path.suffix == ".sqlite"
                     else content)
    before = path.read_bytes()
    args = data.draw(st.sampled_from([
        ["replay", str(path)], ["replay", str(path), "--ply", "3"],
        ["annotate", "mattock", str(path), "--depth", "1"],
        ["match", "mattock", "--engine", "random", "--engine", "random", "--games", "2",
         "--openings", str(path), "--db", str(tmp / "o.sqlite")],
        ["show", "cardbattle", "--deck", str(path), "--deck", "mista"],
        ["show", "cardbattle", "--cardset", str(path)],
        ["show", "maatatahay", "--tileset", str(path)],
        ["results", "--db", str(path)],
        ["match", "--resume", "--db", str(path)],
    ]))
    result = invoke(args)
    if args[0] == "results" or "--resume" in args:
        if result.exit_code == 2:
            assert path.read_bytes() == before, "a refused database was changed"


# -- protocol sessions ----------------------------------------------------------------------

class Lines(io.StringIO):
    """The session's output, written from its search thread too."""

    def __init__(self):
        super().__init__()
        self.lock = threading.Lock()

    def write(self, text):
        with self.lock:
            return super().write(text)


@st.composite
def protocol_line(draw, game):
    options = sorted({o.name for schema in SCHEMAS.values() for o in schema.options})
    rules = [f"rule.{o.name}" for o in get_game(game).rule_options]
    kind = draw(st.sampled_from(["setoption", "setoption", "go", "go", "position", "simple",
                                 "junk"]))
    if kind == "setoption":
        name = draw(st.sampled_from(options + rules + ["engine", "multipv", "tileset",
                                                       "bogus", ""]))
        value = draw(st.one_of(GARBAGE, ints(0, 3), st.sampled_from(
            ["mcts", "alphabeta", "mcts:c=1.2", "mcts:workers=2", "random", "5", "7",
             "heuristic", "true", "default", "blocking"])))
        return f"setoption name {name} value {value}"
    if kind == "go":
        words = []
        for word in draw(st.lists(st.sampled_from(["depth", "nodes", "sims", "movetime",
                                                   "clock", "inc", "bogus"]), max_size=2)):
            valid = {"depth": ints(1, 2), "nodes": ints(1, 500), "sims": ints(1, 100),
                     "movetime": ints(1, 30), "clock": ints(50, 500), "inc": ints(0, 10)}
            words += [word, draw(either(valid.get(word, ints(0, 3))))]
        if draw(st.integers(0, 6)) == 0:
            return "go infinite\nstop"
        return " ".join(["go"] + words + ["movetime", "20"])
    if kind == "position":
        position = draw(st.sampled_from(POSITIONS[game] + ["start", "", "start moves zz"]))
        return f"position {position}"
    if kind == "simple":
        return draw(st.sampled_from(["isready", "stop", "newgame", "show", "moves", "protocol",
                                     "", "   "]))
    return draw(st.text(max_size=30)).replace("\n", " ").replace("\r", " ")


@given(st.data())
@settings(FUZZ, max_examples=40)
def test_fuzzed_protocol_sessions_keep_the_engine_answering(data):
    """Any session: no exception escapes a command, every search ends, and the engine still
    answers isready at the end."""
    game = data.draw(st.sampled_from(["mattock", "maatatahay"]))
    lines = data.draw(st.lists(protocol_line(game), max_size=8))
    out = Lines()
    session = Session(game, out)
    faulthandler.dump_traceback_later(HANG_GUARD, exit=True)
    try:
        for text in lines + ["stop", "isready"]:
            for line in text.split("\n"):
                session.handle(line.strip())
        session.stop_search()
    finally:
        faulthandler.cancel_dump_traceback_later()
    said = out.getvalue().splitlines()
    assert said and said[-1] == "readyok", "\n".join(lines + ["--"] + said[-5:])
    assert not any("search failed" in line for line in said), "\n".join(lines + said)
    assert not no_children_left()


@pytest.mark.parametrize("mode", ["crash", "hang", "illegal", "silent", "garbage"])
def test_no_process_is_left_after_a_match_with_a_broken_engine(tmp_path, monkeypatch, mode):
    """Each kind of broken external engine, in a wrapper script whose child is the engine
    (a grandchild of the match): every game's engine group is killed."""
    import sys
    from crystalpick.search.match import external
    monkeypatch.setattr(external, "HANDSHAKE_SECONDS", 3.0)
    wrapper = tmp_path / "engine.sh"
    wrapper.write_text(f"#!/bin/sh\n{sys.executable} {STUB} mattock {mode}\n")
    wrapper.chmod(0o755)
    result = invoke(["match", "mattock", "--engine", f"cmd:{wrapper}", "--engine", "random",
                     "--games", "2", "--st", "0.2", "--db", str(tmp_path / "r.sqlite")])
    assert result.exit_code == (2 if mode == "silent" else 0), result.output
