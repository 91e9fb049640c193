"""The local worker pool: results come back whatever order tasks finish in, a worker that
dies or will not stop cannot hang the match, and exceptions reach the caller."""
import os
import signal
import time

import pytest

from crystalpick.search import executors
from crystalpick.search.executors import ExecutorError, LocalPool


def sleep_then_return(seconds, value):
    time.sleep(seconds)
    return value


def die():
    os._exit(3)


def refuse_to_stop(path):
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    open(path, "w").close()
    time.sleep(60)


def fail(text):
    raise ValueError(text)


def test_every_result_comes_back_including_tasks_submitted_while_iterating():
    with LocalPool(2) as pool:
        for index in range(4):
            pool.submit(f"t{index}", sleep_then_return, 0.0 if index else 1.0, index)
        seen = []
        for value in pool.completed():
            seen.append(value)
            if value == 1:
                pool.submit("late", sleep_then_return, 0, "late")
    assert sorted(seen, key=str) == [0, 1, 2, 3, "late"]
    assert seen[-1] == 0        # the long task came back last: the other worker took the rest


def test_a_task_exception_reaches_the_caller():
    with LocalPool(2) as pool:
        pool.submit("bad", fail, "the reason")
        with pytest.raises(ValueError, match="the reason"):
            list(pool.completed())


def test_a_worker_that_dies_mid_task_is_an_executor_error_naming_the_task():
    with LocalPool(2) as pool:
        pool.submit("game 7", die)
        with pytest.raises(ExecutorError, match="died while running game 7 .exit code 3"):
            list(pool.completed())


def test_cancel_kills_a_worker_that_ignores_sigterm(tmp_path, monkeypatch):
    monkeypatch.setattr(executors, "UNWIND_SECONDS", 0.5)
    marker = tmp_path / "started"
    pool = LocalPool(2)
    pool.submit("stubborn", refuse_to_stop, str(marker))
    deadline = time.monotonic() + 30
    while not marker.exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    processes = [worker.process for worker in pool.workers]
    pids = [process.pid for process in processes]
    started = time.monotonic()
    pool.cancel()
    assert time.monotonic() - started < 5
    assert not pool.workers and pool.outstanding == 0
    assert all(not os.path.exists(f"/proc/{pid}") or
               "zombie" in open(f"/proc/{pid}/status").read() for pid in pids)
