"""Issue 46: every search stops. Each engine of the registry (a new one is covered by being
registered), with every workers-like option at its maximum and every memory budget (table
megabytes, tree nodes) at its minimum or its maximum (or refused in one line, where it does
not fit), stops ``go infinite`` and a huge ``go nodes`` by the engine protocol's ``stop`` and
``quit``, and ``analyse`` by SIGINT and SIGTERM. The product target is a second; the bound
here is 5 s (a loaded 2-core machine), and the times are printed (pytest -s) for the report.
Slow: a minute or two in all."""
from __future__ import annotations

import signal
import subprocess
import time

import pytest

from crystalpick.engine import get_game
from crystalpick.search import make_engine
from crystalpick.search.engines import ENGINES

from protocol_helpers import Driver, kill_group
from test_stopped_documents import CRYSTALPICK, runner_installed

BOUND = 5.0                     # seconds; the target is 1
HUGE = 2**62                    # the largest node budget `go` takes
GAMES = ("cardbattle", "mattock", "maatatahay")   # hidden information first


def playable(name: str) -> str:
    """The first game of :data:`GAMES` the engine plays."""
    for game in GAMES:
        try:
            make_engine(name).prepare(get_game(game).new_initial_state())
            return game
        except Exception:       # refused: the engine cannot play this game
            continue
    raise AssertionError(f"{name} plays none of {GAMES}")


def most_workers(name: str) -> dict[str, int]:
    """Every workers-like option (processes or threads a search starts) at its maximum."""
    return {option.name: option.maximum for option in ENGINES[name].schema.options
            if option.kind == "int" and any(word in option.name
                                            for word in ("workers", "threads"))}


def spec(name: str, workers: dict[str, int]) -> str:
    return name + (":" + ",".join(f"{k}={v}" for k, v in workers.items()) if workers else "")


def budgets(name: str, end: str) -> dict[str, int]:
    """Every memory budget (a table's megabytes, a tree's nodes) at its ``end``."""
    return {option.name: getattr(option, end) for option in ENGINES[name].schema.options
            if option.kind == "int" and any(word in option.name
                                            for word in ("megabytes", "hash", "max_nodes"))}


CASES = [(name, playable(name), most_workers(name)) for name in ENGINES]
BUDGETS = [(name, game, {**workers, **budgets(name, end)}, end)
           for name, game, workers in CASES for end in ("minimum", "maximum")]


@pytest.mark.slow
@pytest.mark.parametrize("name, game, options, end", BUDGETS,
                         ids=[f"{case[0]}-{case[3]}" for case in BUDGETS])
def test_every_engine_stops_through_the_protocol(name, game, options, end):
    driver = Driver(game)
    try:
        driver.send(f"setoption name engine value {spec(name, options)}")
        driver.send("isready")
        answer = driver.until("readyok")
        if any("error" in line for line in answer):       # a budget that does not fit
            print(f"\n{spec(name, options)} on {game}: refused ({answer[-2]})")
            assert end == "maximum" and len(answer) == 2, answer
            return
        seen = {}
        for limit, end_with in (("infinite", "stop"), (f"nodes {HUGE}", "stop"),
                                (f"nodes {HUGE}", "quit")):
            driver.send(f"go {limit}")
            time.sleep(0.5)                               # at work, workers forked
            start = time.perf_counter()
            driver.send(end_with)
            if end_with == "stop":
                driver.until("bestmove")
            else:
                driver.process.wait(timeout=60)
            seen[f"{limit.split()[0]}/{end_with}"] = time.perf_counter() - start
    finally:
        driver.kill()
    print(f"\n{spec(name, options)} on {game}: "
          + ", ".join(f"{key} {seconds:.2f} s" for key, seconds in seen.items()))
    assert driver.process.returncode == 0
    assert all(seconds < BOUND for seconds in seen.values()), seen


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("name, game, workers", CASES, ids=[case[0] for case in CASES])
def test_every_engine_stops_analyse_on_a_signal(name, game, workers, signum):
    engine = spec(name, workers)
    process = subprocess.Popen(
        [*CRYSTALPICK, "analyse", game, "--engine", engine, "--nodes", str(HUGE)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        while not runner_installed(process.pid) and process.poll() is None:
            time.sleep(0.01)
        time.sleep(3.0)                                   # imported, at work
        start = time.perf_counter()
        process.send_signal(signum)
        out, err = process.communicate(timeout=60)
        seconds = time.perf_counter() - start
    finally:
        kill_group(process)
    print(f"\n{engine} on {game}, {signum.name}: exited after {seconds:.2f} s")
    assert process.returncode == 128 + signum, err
    assert "interrupted" in err and "Traceback" not in err, err
    assert seconds < BOUND
