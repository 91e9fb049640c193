"""The engine protocol through a real subprocess and pipes, and external engines in matches."""
import subprocess
import sys
import textwrap
import time

import pytest

from crystalpick.engine import get_game
from crystalpick.search.match.records import parse_records
from crystalpick.search.match.runner import MatchSettings, play_game

ENGINE = [sys.executable, "-c", "from crystalpick.cli.main import main; main()", "engine"]


class Driver:
    def __init__(self, game="mattock"):
        self.process = subprocess.Popen(ENGINE + [game], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def until(self, prefix, limit=60):
        lines, deadline = [], time.monotonic() + limit
        while time.monotonic() < deadline:
            line = self.process.stdout.readline().rstrip("\n")
            lines.append(line)
            if line.startswith(prefix):
                return lines
        raise AssertionError(f"no {prefix!r} in {lines}")

    def close(self):
        self.send("quit")
        assert self.process.wait(timeout=20) == 0


@pytest.fixture
def driver():
    d = Driver()
    yield d
    if d.process.poll() is None:
        d.process.kill()


def test_handshake_lists_options(driver):
    driver.send("protocol")
    lines = driver.until("protocolok")
    assert lines[0].startswith("id name crystalpick") and "id game mattock" in lines
    assert any(line.startswith("option name rule.removal") for line in lines)
    driver.send("isready")
    assert driver.until("readyok") == ["readyok"]
    driver.close()


def test_go_reports_info_then_a_legal_bestmove(driver):
    driver.send("position start moves h5/h4-h5")
    driver.send("go depth 3")
    lines = driver.until("bestmove")
    infos = [line for line in lines if line.startswith("info multipv 1")]
    assert [int(line.split()[4]) for line in infos][:3] == [1, 2, 3]
    assert all(" pov second " in line for line in infos)
    state = get_game("mattock").state(None, "h5/h4-h5")
    state.parse_move(lines[-1].split()[1])          # raises if illegal
    driver.close()


def test_position_string_with_spaces_and_moves_list(driver):
    driver.send("position 5/3x2/1o5/6o1/9/1x6/5x1/2o3/5 o removal=literal moves b2")
    driver.send("show")
    shown = driver.until("info string position:")
    assert shown[-1].endswith("removal=literal")
    driver.send("moves")
    moves = driver.until("info string moves")[-1].split()[3:]
    state = get_game("mattock").state("5/3x2/1o5/6o1/9/1x6/5x1/2o3/5 o removal=literal", "b2")
    assert moves == [state.move_to_str(m) for m in state.legal_moves()]
    driver.close()


def test_infinite_search_stops_on_request(driver):
    driver.send("setoption name engine value mcts")
    driver.send("setoption name seed value 3")
    driver.send("position start")
    driver.send("go infinite")
    time.sleep(1.0)
    driver.send("isready")
    assert "readyok" in driver.until("readyok")[-1]
    driver.send("stop")
    assert driver.until("bestmove")[-1].split()[1]
    driver.close()


def test_bad_commands_answer_errors_and_keep_running(driver):
    for bad in ("fly", "position start moves zz", "go depth x", "setoption name c",
                "setoption name engine value deep"):
        driver.send(bad)
        assert driver.until("info string error:")[-1].startswith("info string error:")
    driver.send("isready")
    driver.until("readyok")
    driver.close()


CRASHING = textwrap.dedent("""
    import sys
    for line in sys.stdin:
        if line.startswith("protocol"):
            print("protocolok", flush=True)
        if line.startswith("go"):
            sys.exit(3)
""")
HANGING = textwrap.dedent("""
    import sys, time
    for line in sys.stdin:
        if line.startswith("protocol"):
            print("protocolok", flush=True)
        if line.startswith("go"):
            time.sleep(60)
""")


@pytest.mark.parametrize("script,fragment", [(CRASHING, "engine exited"),
                                             (HANGING, "engine hangs")])
def test_failing_external_engine_loses_and_the_match_goes_on(tmp_path, script, fragment):
    stub = tmp_path / "stub.py"
    stub.write_text(script)
    settings = MatchSettings(game="mattock", engines=[f"cmd:{sys.executable} {stub}", "random"],
                             seed=1, move_time=0.2)
    outcome = play_game(settings, 0, False)
    assert outcome.score == 0 and fragment in outcome.reason
    record, = parse_records(outcome.record)
    assert record.result == "0-1"


def test_our_engine_as_an_external_player():
    command = " ".join([sys.executable, "-c", '"from crystalpick.cli.main import main; main()"', "engine",
                        "mattock"])
    settings = MatchSettings(game="mattock", engines=[f"cmd:{command}", "random"], seed=2,
                             move_time=0.05)
    outcome = play_game(settings, 0, False)
    assert outcome.score == 1.0, outcome.reason
    record, = parse_records(outcome.record)
    assert record.replay().is_terminal()
    assert "depth" in record.plies[0].comment and "pov" in record.plies[0].comment


def test_maatatahay_through_the_protocol():
    driver = Driver("maatatahay")
    try:
        driver.send("protocol")
        lines = driver.until("protocolok")
        assert "id game maatatahay" in lines
        assert any(line.startswith("option name tileset") for line in lines)
        driver.send("setoption name rule.layout value diagonal")
        driver.send("setoption name seed value 1")        # not an alpha-beta option: an error
        assert "error" in driver.until("info string")[-1]
        driver.send("show")
        shown = driver.until("info string position:")[-1].split("position: ", 1)[1]
        driver.send("go depth 2")
        best = driver.until("bestmove")[-1].split()[1]
        state = get_game("maatatahay", {"layout": "diagonal"}).parse_position(shown)
        assert best in {state.move_to_str(m) for m in state.legal_moves()}
        driver.close()
    finally:
        if driver.process.poll() is None:
            driver.process.kill()
