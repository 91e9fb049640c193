"""``crystalpick analyse``: options, the JSON document against its schema, stream mode."""
import json
import os
import signal
import subprocess
import time
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from crystalpick.cli.main import cli
from interrupt_cases import COMMAND
from crystalpick.engine import GAMES, get_game

SCHEMA = json.loads((Path(__file__).parent.parent / "docs" / "analysis.schema.json").read_text())


def run(*args):
    return CliRunner().invoke(cli, ["analyse", *args])


SEARCHABLE = sorted(name for name, cls in GAMES.items()        # the others are refused
                    if cls.capabilities.perfect_information)   # (tests/test_search_refusal.py)


@pytest.mark.parametrize("game", SEARCHABLE)
@pytest.mark.parametrize("engine,limit", [("alphabeta", ["--depth", "2"]),
                                          ("mcts", ["--sims", "300"])])
def test_json_matches_schema_and_engine(game, engine, limit):
    result = run(game, "--engine", engine, *limit, "--multipv", "2", "--seed", "4", "--json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.output)
    jsonschema.validate(document, SCHEMA)
    state = get_game(game).parse_position(document["input"]["position"])
    legal = {state.move_to_str(m) for m in state.legal_moves()}
    lines = document["result"]["lines"]
    assert 1 <= len(lines) <= 2 and {line["move"] for line in lines} <= legal
    assert document["result"]["best_move"] == lines[0]["move"]
    assert document["point_of_view"] == state.to_move_name()
    if engine == "mcts":
        assert document["input"]["seed"] == 4
        assert document["result"]["simulations"] >= 300


def test_stream_prints_reports_then_the_final_document():
    result = run("mattock", "--depth", "3", "--json", "--stream")
    documents = [json.loads(line) for line in result.output.splitlines()]
    assert [d["final"] for d in documents] == [False] * (len(documents) - 1) + [True]
    assert len(documents) >= 2
    for document in documents:
        jsonschema.validate(document, SCHEMA)


def test_same_seed_same_mcts_result():
    first = json.loads(run("mattock", "--engine", "mcts", "--sims", "500", "--seed", "11",
                           "--json").output)
    second = json.loads(run("mattock", "--engine", "mcts", "--sims", "500", "--seed", "11",
                            "--json").output)
    assert first["result"]["lines"] == second["result"]["lines"]


def test_human_output_names_the_point_of_view():
    result = run("mattock", "--moves", "h5", "--depth", "2", "--multipv", "3")
    assert result.exit_code == 0
    assert "scores are for second, to move" in result.output
    assert "position: " in result.output               # the board is shown first
    table = result.output.split("scores are for")[1].splitlines()
    assert table[1].split()[:2] == ["#", "move"] and len(table) == 2 + 3 + 1


def test_engine_options_reach_the_engine():
    result = run("mattock", "--engine", "mcts:c=0.3,sims=100", "--json")
    document = json.loads(result.output)["input"]
    assert document["options"] == {"c": 0.3} and document["limits"] == {"simulations": 100}


def test_limit_flags_override_the_spec():
    result = run("mattock", "--engine", "alphabeta:depth=3", "--depth", "1", "--json")
    assert json.loads(result.output)["result"]["depth"] == 1


@pytest.mark.parametrize("args,fragment", [
    (["--engine", "alphabeta:c=1.4"], "alphabeta has no option 'c'; valid: depth, nodes"),
    (["--engine", "mcts:c=high"], "c=high: expected a finite number >= 0"),
    (["--engine", "mcts:c=nan"], "c=nan: expected a finite number"),
    (["--engine", "mcts:workers=0"], "workers=0: expected an integer in 1..256"),
    (["--engine", "random"], "analyse runs alphabeta, mcts, ismcts, mccfr, dfpn or greedy"),
    (["--sims", "5"], "--sims is not a limit of alphabeta"),
    (["--option", "c=1"], "No such option '--option'"),
    (["--moves", "h5 h5"], "move 2: illegal move 'h5'"),
])
def test_bad_analyse_input_exits_2(args, fragment):
    result = run("mattock", "--depth", "1", *args)
    assert result.exit_code == 2 and fragment in result.output, result.output


def test_finished_game_is_not_analysed():
    finished = "1-1--/1---2/o-2--1/-1--1-x1/1-1o-2--/--2o2-/1-1----/-x-2-/2--x x"
    result = run("mattock", finished, "--depth", "1")
    assert result.exit_code == 2 and "game is over" in result.output


def test_chance_node_is_refused_with_a_pointer_to_the_outcomes():
    from crystalpick.positions import perft_suite
    case = next(c for c in perft_suite("maatatahay") if c.id == "refill-pending")
    result = CliRunner().invoke(cli, ["analyse", "maatatahay", case.position, "--depth", "2"])
    assert result.exit_code == 2 and "chance outcome" in result.output


def test_the_engines_offered_are_those_that_can_search_the_game():
    result = run("cardbattle", "--seed", "1", "--engine", "random")
    assert result.exit_code == 2
    assert result.output.strip().endswith("cardbattle takes ismcts or mccfr"), result.output


@pytest.mark.parametrize("seat_given", ["--seat", "view"])
def test_a_seat_not_to_move_is_told_whose_decision_it_waits_for(seat_given):
    """Issue 29: from a seat that is not to move an information-set analysis has no decision
    to rank, and printed an empty table; now it says whose decision it is."""
    state = get_game("cardbattle", seed=1).new_initial_state()
    waiting, mover = state.game.player_names[1], state.to_move_name()
    assert state.current_player() == 0 and "keep" in map(state.move_to_str, state.legal_moves())
    args = (["--seed", "1", "--seat", "second"] if seat_given == "--seat"
            else [state.observation_string(1)])
    result = run("cardbattle", *args, "--sims", "50")
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1
    assert f"it is {mover}'s decision here, not {waiting}'s: {waiting} is waiting for " \
           f"{mover}'s keep or mulligan" in result.output, result.output


def has_child_process(pid):
    """Whether any thread of process ``pid`` has forked a child (Linux /proc)."""
    return any(Path(children).read_text().strip()
               for children in Path(f"/proc/{pid}/task").glob("*/children"))


@pytest.mark.parametrize("engine", [["--engine", "alphabeta"], ["--engine", "mcts"],
                                    ["--engine", "mcts:workers=2"]])
def test_ctrl_c_stops_the_search_and_prints_the_best_so_far(engine):
    """Ctrl-C as a terminal sends it: to the whole process group, MCTS workers included."""
    command = COMMAND + ["analyse", "mattock", "--time", "60", "--json", "--stream", *engine]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True,
                               start_new_session=True)
    try:
        if "mcts:workers=2" in engine:           # workers report only at the end
            deadline = time.monotonic() + 20
            while not has_child_process(process.pid):
                assert time.monotonic() < deadline, "no worker process started"
                time.sleep(0.05)
        else:
            assert json.loads(process.stdout.readline())["final"] is False
        os.killpg(process.pid, signal.SIGINT)
        out, _ = process.communicate(timeout=20)   # far below the 60 s limit
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 130     # Ctrl-C everywhere: 128 + SIGINT, after the result
    document = json.loads(out.strip().splitlines()[-1])
    assert document["final"] and document["interrupted"]
    state = get_game("mattock").new_initial_state()
    assert document["result"]["best_move"] in {state.move_to_str(m)
                                               for m in state.legal_moves()}


def test_a_search_stopped_mid_iteration_prints_each_lines_own_depth():
    """150,000 nodes stop mattock's depth-6 iteration after its first line
    (tests/test_search_stop.py, also on why without the symmetry tables): that line leads
    at depth 6, the rest stay at depth 5."""
    args = ("mattock", "--engine", "alphabeta:symmetry=off", "--nodes", "150000",
            "--multipv", "3")
    document = json.loads(run(*args, "--json").output)
    jsonschema.validate(document, SCHEMA)
    finished = document["result"]["depth"]
    depths = [line["depth"] for line in document["result"]["lines"]]
    assert depths[0] == finished + 1 and finished in depths
    text = run(*args).output
    table = text.split("scores are for")[1].splitlines()[2:2 + len(depths)]
    assert [int(row.split()[4]) for row in table] == depths
    assert f"depth-{finished + 1} lines (the iteration the stop cut short) lead" in text


def visible_lines(text: str) -> list[str]:
    """What a terminal shows after ``text``: a carriage return goes back to the line's
    start and what follows overwrites it; escape sequences are dropped."""
    import re
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)
    lines = []
    for line in text.replace("\r\n", "\n").split("\n"):
        shown = ""
        for part in line.split("\r"):
            shown = part + shown[len(part):]
        lines.append(shown.rstrip())
    return lines


def test_no_progress_bar_is_left_behind_when_a_search_ends_before_its_time():
    """A proof ends a 30 s search in moments: the bar (stderr a terminal, so it shows) goes
    away instead of staying frozen at a few percent."""
    import fcntl
    import pty
    import struct
    import termios
    proven = "3-1/-2---/o-1-2-/1-1x-1--/-1-2--2/-x-2-2/3-1x1/-1--oo/--3 o"  # win in 5
    terminal, stderr = pty.openpty()
    fcntl.ioctl(stderr, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    process = subprocess.Popen(COMMAND + ["analyse", "mattock", *proven.split(), "--time", "30"],
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=stderr)
    os.close(stderr)
    said = b""
    while True:
        try:
            chunk = os.read(terminal, 65536)
        except OSError:             # the terminal closes with the process
            break
        if not chunk:
            break
        said += chunk
    os.close(terminal)
    out, _ = process.communicate(timeout=120)
    assert process.returncode == 0 and b"win in 5" in out
    assert b"search" in said                        # the bar was shown while searching
    assert [line for line in visible_lines(said.decode()) if line.strip()] == []
