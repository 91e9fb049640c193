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
import random
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings, strategies as st

from crystalpick.cli.main import cli
from crystalpick.apps.protocol import Session
from crystalpick.engine import GAMES, get_game
from crystalpick.search.specs import SCHEMAS

pytestmark = pytest.mark.slow      # over a second a test: `pytest -m "not slow"` skips it

STUB = Path(__file__).with_name("stub_engine.py")
SCALE = int(os.environ.get("CRYSTALPICK_FUZZ_SCALE", "1"))   # more cases for a long fuzz run
CASE_SECONDS = 30          # a case that takes longer counts as a hang
HANG_GUARD = 120           # a case stuck in native code: dump the stacks and fail the run
# CI draws the same cases every run (a red CI must be reproducible); a long run
# (CRYSTALPICK_FUZZ_SCALE > 1) draws new ones.
FUZZ = settings(deadline=None, derandomize=SCALE == 1, print_blob=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.large_base_example,
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


class Chooser:
    """Decisions with explicit probabilities (hypothesis's own choices favour their simplest
    values, which turns "rarely" into "often"); values still come from strategies."""

    def __init__(self, draw):
        self.draw = draw
        self.random = random.Random(draw(st.integers(0, 2**64)))   # the seed is reported

    def chance(self, p: float) -> bool:
        return self.random.random() < p

    def either(self, valid):
        """Mostly valid, garbage one time in ten: about half the command lines are valid
        throughout."""
        return self.draw(GARBAGE if self.chance(0.1) else valid)



def children() -> list[str]:
    """The processes this test process has started and not reaped (Linux /proc)."""
    pids = []
    for task in Path(f"/proc/{os.getpid()}/task").glob("*/children"):
        try:
            pids += task.read_text().split()
        except FileNotFoundError:      # a thread that ended meanwhile
            pass
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
    if os.environ.get("FUZZ_VERBOSE"):
        print(result.exit_code, f"{seconds:.2f}s", args, result.output.strip()[-100:])
    assert result.exit_code in (0, 2), shown
    assert "Traceback" not in result.output, shown
    assert seconds < CASE_SECONDS, f"{seconds:.1f} s: {shown}"
    assert not no_children_left(), f"child processes left by {shown}"
    return result


# -- the pieces of a command line ---------------------------------------------------------

def rule_options(pick, game):
    """--rule NAME=VALUE items: the game's options with their values, or garbage."""
    items = []
    options = get_game(game).rule_options if game in GAMES else []
    while pick.chance(0.3):
        if options and pick.chance(0.8):
            option = pick.random.choice(options)
            value = pick.either(st.sampled_from(option.choices) if option.choices
                                else st.text(max_size=8))
            items += ["--rule", f"{option.name}={value}"]
        else:
            items += ["--rule", pick.draw(st.one_of(GARBAGE, st.text(max_size=12)))]
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


def game_and_state(pick):
    """GAME [POSITION] [--moves ...] [--rule ...] [--seed ...] [--deck ...]."""
    game = pick.random.choice(GAME_NAMES * 8 + ["MATTOCK", "bogus"])
    args = [game]
    known = game.lower() in GAMES
    if known and pick.chance(0.5):
        position = pick.random.choice(POSITIONS[game.lower()])
        if pick.chance(0.15):                  # a damaged position
            cut = pick.random.randrange(len(position) + 1)
            position = position[:cut] + pick.draw(st.text(max_size=4)) + position[cut + 1:]
        args += position.split()
    elif pick.chance(0.05):
        args += [pick.draw(st.text(min_size=1, max_size=30)
                           .filter(lambda t: not t.startswith("-")))]
    if pick.chance(0.1):
        args += ["--moves", pick.draw(st.one_of(st.text(max_size=20), GARBAGE))]
    args += rule_options(pick, game.lower())
    args += flag(pick, "--seed", ints(0, 2**63 - 1))
    if game.lower() == "cardbattle" and pick.chance(0.5):
        decks = st.sampled_from(["mista", "titas", "arsenal", "alianca"])
        args += ["--deck", pick.either(decks), "--deck", pick.either(decks)]
    return args


CHEAP = {"tt_megabytes": ints(1, 16), "workers": ints(1, 2), "max_nodes": ints(1024, 5000),
         "seed": ints(0, 2**63 - 1), "c": floats(0, 3), "playout_depth": ints(0, 30),
         "depth": ints(1, 2), "nodes": ints(1, 300), "sims": ints(1, 100),
         "time": floats(0.001, 0.02), "warmup": ints(0, 5)}


def engine_spec(pick):
    """ENGINE[:KEY=VALUE,...] from the engines' schemas, with a cheap limit (so a valid
    spec searches for hundredths of a second), or garbage."""
    name = pick.random.choice(list(SCHEMAS) * 4 + ["bogus", ""])
    items = []
    schema = SCHEMAS.get(name)
    keys = list(schema.options + schema.limits) if schema is not None else []
    pick.random.shuffle(keys)
    for option in keys[:pick.random.randrange(4)]:
        if option.kind in ("bool", "choice"):
            values = st.sampled_from(list(option.choices) or ["true", "false", "yes", "off"])
        else:
            values = CHEAP.get(option.name, ints(0, 5))
        items.append(f"{option.name}={pick.either(values)}")
    if schema is not None and schema.limits:
        items.append(f"time={pick.draw(floats(0.001, 0.02))}")
    if pick.chance(0.05):
        items.append(pick.draw(st.one_of(GARBAGE, st.text(max_size=8))))
    return name + (":" + ",".join(items) if items else "")


def flag(pick, name, valid):
    """``name VALUE`` half the time: mostly valid, sometimes garbage."""
    return [name, pick.either(valid)] if pick.chance(0.5) else []


# -- command lines ------------------------------------------------------------------------

@st.composite
def show_moves_perft(draw):
    pick = Chooser(draw)
    command = pick.random.choice(["show", "moves", "perft"])
    args = [command] + game_and_state(pick)
    args += flag(pick, "--impl", st.sampled_from(["fast", "reference"]))
    if command == "perft":
        args += ["--depth", pick.either(ints(0, 3))]
        if pick.chance(0.3):
            args.append("--divide")
    if command != "show" and pick.chance(0.5):
        args.append("--json")
    return args


@st.composite
def analyse(draw):
    pick = Chooser(draw)
    args = ["analyse"] + game_and_state(pick)
    args += ["--engine", engine_spec(pick)]
    args += ["--time", pick.either(floats(0.005, 0.03))]      # always bounded
    args += flag(pick, "--depth", ints(1, 120))
    args += flag(pick, "--nodes", ints(1, 2**62))
    args += flag(pick, "--sims", ints(1, 2**62))
    args += flag(pick, "--multipv", ints(1, 64))
    args += pick.random.choice([[], ["--json"], ["--json", "--stream"]])
    return args


@st.composite
def play(draw):
    pick = Chooser(draw)
    args = ["play"] + game_and_state(pick)
    args += ["--engine", engine_spec(pick), "--human",
             pick.either(st.sampled_from(["none", "none", "first", "second", "both"]))]
    return args


@st.composite
def match(draw, tmp):
    pick = Chooser(draw)
    game = pick.random.choice(GAME_NAMES * 4 + ["bogus"])
    args = ["match", game, "--db", str(tmp / "fuzz.sqlite")]
    for _ in range(pick.random.choice([2, 2, 2, 2, 2, 1, 3])):
        args += ["--engine", engine_spec(pick)]
    args += ["--games", pick.either(ints(1, 2))]
    args += flag(pick, "--concurrency", ints(1, 2))
    args += flag(pick, "--st", floats(0.001, 0.02))
    args += flag(pick, "--tc", st.builds(lambda base, inc: f"{base}+{inc}", floats(0.5, 2),
                                         floats(0, 0.01)))
    args += flag(pick, "--tolerance", floats(0, 1))
    args += flag(pick, "--max-plies", ints(1, 40))
    args += flag(pick, "--sprt", st.sampled_from(["elo0=0,elo1=5", "elo0=-5,elo1=5,alpha=0.1"]))
    args += flag(pick, "--seed", ints(0, 2**63 - 1))
    args += rule_options(pick, game)
    if pick.chance(0.2):
        args += ["--resume"] + flag(pick, "--match-id", ints(1, 3))
    return args


@st.composite
def deck(draw):
    pick = Chooser(draw)
    game = pick.random.choice(GAME_NAMES * 4 + ["bogus"])
    decks = ["titas", "arsenal", "mista", "alianca", "bogus", "1.2.3"]
    args = ["deck", game, "--deck", pick.random.choice(decks)]
    for _ in range(pick.random.choice([1, 1, 2, 0])):
        args += ["--against", pick.random.choice(decks)]
    args += ["--engine", pick.random.choice(["greedy", "random", engine_spec(pick)])]
    args += ["--games", pick.either(ints(2, 4))]
    args += flag(pick, "--improve", ints(0, 1))
    args += flag(pick, "--outs", ints(1, 2))
    args += flag(pick, "--concurrency", ints(1, 2))
    args += flag(pick, "--seed", ints(0, 2**63 - 1))
    if pick.chance(0.3):
        args.append("--json")
    return args


@given(st.data())
@settings(FUZZ, max_examples=200 * SCALE)
def test_fuzzed_command_lines_exit_0_or_2(data):
    args = data.draw(st.one_of(show_moves_perft(), analyse(), play(), deck(),
                               st.sampled_from([["games"], ["engines", "--json"],
                                                ["bench", "--perft-depth", "nan"],
                                                ["bench", "mattock", "--sims", "0"],
                                                ["bench", "--depth", "1e400"]])))
    invoke(args, stdin=data.draw(st.text(max_size=40)) if args[0] == "play" else None)


@given(st.data())
@settings(FUZZ, max_examples=25 * SCALE)
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
def damaged(draw, text: str | bytes) -> bytes:
    """``text`` with a few bytes replaced, inserted or cut, or random bytes."""
    data = bytearray(text.encode() if isinstance(text, str) else text)
    if draw(st.integers(0, 3)) == 0:
        return draw(st.binary(max_size=300))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(data)))
        data[at:at + draw(st.integers(0, 3))] = draw(st.binary(max_size=4))
    return bytes(data)


@given(st.data())
@settings(FUZZ, max_examples=40 * SCALE)
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


def protocol_line(pick, game):
    options = sorted({o.name for schema in SCHEMAS.values() for o in schema.options})
    rules = [f"rule.{o.name}" for o in get_game(game).rule_options]
    kind = pick.random.choice(["setoption", "setoption", "go", "go", "go", "position",
                               "simple", "junk"])
    if kind == "setoption":
        name = pick.random.choice(options + rules + ["engine", "multipv", "tileset", "bogus"])
        value = pick.either(st.one_of(ints(0, 3), CHEAP.get(name, ints(1, 64)), st.sampled_from(
            ["mcts", "alphabeta", "mcts:c=1.2", "mcts:workers=2", "random", "5", "7",
             "heuristic", "true", "default", "blocking"])))
        return f"setoption name {name} value {value}"
    if kind == "go":
        valid = {"depth": ints(1, 2), "nodes": ints(1, 500), "sims": ints(1, 100),
                 "movetime": ints(1, 30), "clock": ints(50, 500), "inc": ints(0, 10)}
        words = []
        for word in pick.random.sample(sorted(valid) + ["bogus"], pick.random.randrange(3)):
            words += [word, pick.either(valid.get(word, ints(0, 3)))]
        if pick.chance(0.1):
            return "go infinite\nstop"
        return " ".join(["go"] + words + ["movetime", "20"])
    if kind == "position":
        return "position " + pick.random.choice(POSITIONS[game] + ["start", "", "start moves zz"])
    if kind == "simple":
        return pick.random.choice(["isready", "stop", "newgame", "show", "moves", "protocol",
                                   "", "   "])
    return pick.draw(st.text(max_size=30)).replace("\n", " ").replace("\r", " ")


@given(st.data())
@settings(FUZZ, max_examples=40 * SCALE)
def test_fuzzed_protocol_sessions_keep_the_engine_answering(data):
    """Any session: no exception escapes a command, every search ends, and the engine still
    answers isready at the end."""
    pick = Chooser(data.draw)
    game = pick.random.choice(["mattock", "maatatahay"])
    lines = [protocol_line(pick, game) for _ in range(pick.random.randrange(9))]
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
    from crystalpick.apps.match import external
    monkeypatch.setattr(external, "HANDSHAKE_SECONDS", 3.0)
    wrapper = tmp_path / "engine.sh"
    wrapper.write_text(f"#!/bin/sh\n{sys.executable} {STUB} mattock {mode}\n")
    wrapper.chmod(0o755)
    result = invoke(["match", "mattock", "--engine", f"cmd:{wrapper}", "--engine", "random",
                     "--games", "2", "--st", "0.2", "--db", str(tmp_path / "r.sqlite")])
    assert result.exit_code == (2 if mode == "silent" else 0), result.output
