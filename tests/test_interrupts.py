"""Ctrl-C has one behaviour everywhere (issue 13): every long-running command, interrupted as
a terminal does it, prints what it found so far, exits with status 130 and leaves no
process behind. How fast it stops is measured, not asserted: bench/stop_latency.py."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from interrupt_cases import CASES, COMMAND, INTERRUPTED, alive, run, session_pids

pytestmark = pytest.mark.slow      # over a second a test: `pytest -m "not slow"` skips it

STUB = Path(__file__).with_name("stub_engine.py")


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_ctrl_c_prints_the_partial_result_and_exits_130(case, tmp_path):
    outcome = run(case, tmp_path)
    said = outcome.stdout + outcome.stderr
    assert outcome.seconds is not None, f"{case.name} never got to work:\n{said[-2000:]}"
    assert outcome.status == INTERRUPTED, said[-2000:]
    for text in case.shows:
        assert text in said, f"{text!r} missing after Ctrl-C of {case.name}:\n{said[-2000:]}"
    assert "Traceback" not in said
    assert outcome.pids, "no process of the command was seen at work"
    assert not alive(outcome.pids), f"{case.name} left processes behind"


@pytest.mark.parametrize("concurrency, stop", [(1, signal.SIGINT), (2, signal.SIGINT),
                                               (1, signal.SIGTERM), (2, signal.SIGTERM)],
                         ids=["ctrl-c", "ctrl-c-2-workers", "sigterm", "sigterm-2-workers"])
def test_a_stopped_match_leaves_no_external_engine_process(tmp_path, concurrency, stop):
    """A ``cmd:`` engine that is a wrapper script with a child of its own (the grandchild of
    the match, or of its worker): after Ctrl-C (SIGINT to the process group) or SIGTERM to
    the runner alone, every process the wrapper started is gone, checked by its process
    id."""
    pids = tmp_path / "pids"
    wrapper = tmp_path / "engine.sh"
    wrapper.write_text(f"#!/bin/sh\necho $$ >> {pids}\nsleep 300 &\necho $! >> {pids}\n"
                       f"exec {sys.executable} {STUB} mattock slow\n")
    wrapper.chmod(0o755)
    process = subprocess.Popen(
        COMMAND + ["match", "mattock", "--engine", f"cmd:{wrapper}", "--engine", "random",
                   "--games", "2", "--concurrency", str(concurrency), "--st", "5",
                   "--db", str(tmp_path / "m.sqlite")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        wanted = 2 + 2 * concurrency      # the check before the match, then each game's
        deadline = time.monotonic() + 60
        while len(started(pids)) < wanted:
            assert time.monotonic() < deadline and process.poll() is None, \
                process.communicate()[1][-2000:]
            time.sleep(0.05)
        time.sleep(0.3)                   # the games are waiting for the engine's move
        assert alive(started(pids)[2:]), "the games' engines are not running"
        if stop == signal.SIGINT:
            os.killpg(process.pid, signal.SIGINT)
        else:
            process.send_signal(stop)
        out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    if stop == signal.SIGINT:
        assert process.returncode == INTERRUPTED, err[-2000:]
        assert "Results of" in err and "--resume --match-id" in err
    else:
        assert process.returncode == 128 + stop, err[-2000:]
        assert "Traceback" not in err
    assert not alive(started(pids)), "engine processes outlived the match"
    assert not session_pids(process.pid)


def started(pids: Path) -> list[int]:
    return [int(pid) for pid in pids.read_text().split()] if pids.exists() else []


def children(pid: int) -> list[int]:
    """The processes ``pid``'s threads started (the protocol forks from its search thread)."""
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            found += [int(child) for child in task.read_text().split()]
        except OSError:
            pass
    return found


@pytest.mark.parametrize("how", ["analyse", "engine"])
def test_root_parallel_workers_die_with_a_killed_parent(how):
    """SIGKILL leaves no handler to run: the kernel itself ends the searchers' workers (their
    parent-death signal), as it does the match workers'."""
    args = ["analyse", "mattock", "--engine", "mcts:workers=2", "--time", "60"] \
        if how == "analyse" else ["engine", "mattock"]
    process = subprocess.Popen(COMMAND + args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True, start_new_session=True)
    try:
        if how == "engine":
            process.stdin.write("setoption name engine value mcts\nsetoption name workers "
                                "value 2\nposition start\ngo infinite\n")
            process.stdin.flush()
        deadline = time.monotonic() + 60
        while len(children(process.pid)) < 2:
            assert time.monotonic() < deadline and process.poll() is None, "no workers"
            time.sleep(0.02)
        workers = children(process.pid)
        process.kill()
        process.wait()
        deadline = time.monotonic() + 30      # they go at once; a generous limit
        while alive(workers) and time.monotonic() < deadline:
            pass
        assert not alive(workers), "root-parallel workers outlived their parent"
    finally:
        if session_pids(process.pid):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
