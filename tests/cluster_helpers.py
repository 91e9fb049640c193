"""Real Dask processes for the cluster tests: a scheduler and workers on the loopback
interface, each ended by its pid, and waits for what they print (never for a time)."""
import os
import signal
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import dask
import pytest

STARTUP = 60          # seconds for a process to come up on a loaded machine


@pytest.fixture(autouse=True)
def dask_scratch_space(tmp_path):
    """Dask's scratch files go to the test's folder, not the system's temporary folder."""
    with dask.config.set({"temporary-directory": str(tmp_path)}):
        yield


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until(condition, what: str, timeout: float = STARTUP):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


class Processes:
    """Dask processes started by one test, each ended by its pid."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.started: list[subprocess.Popen] = []

    def start(self, name: str, *args) -> tuple[subprocess.Popen, Path]:
        log = self.folder / f"{name}.log"
        with open(log, "w") as handle:
            process = subprocess.Popen([sys.executable, "-m", "dask", *args],
                                       stdout=handle, stderr=subprocess.STDOUT,
                                       cwd=self.folder, env={
                                           **os.environ,
                                           "DASK_TEMPORARY_DIRECTORY": str(self.folder)})
        self.started.append(process)
        return process, log

    def scheduler(self) -> str:
        port = free_port()
        process, log = self.start(f"scheduler-{port}", "scheduler", "--host", "127.0.0.1",
                                  "--port", str(port), "--no-dashboard")
        wait_until(lambda: "Scheduler at:" in log.read_text() or process.poll() is not None,
                   "the scheduler")
        assert process.poll() is None, log.read_text()
        return f"tcp://127.0.0.1:{port}"

    def worker(self, address: str, name: str, *extra) -> subprocess.Popen:
        """One worker process (no nanny, one thread: one game at a time, and its pid is the
        process that plays)."""
        process, log = self.start(name, "worker", address, "--nthreads", "1", "--no-nanny",
                                  "--no-dashboard", "--name", name, "--local-directory",
                                  str(self.folder), *extra)
        wait_until(lambda: "Registered to" in log.read_text() or process.poll() is not None,
                   f"worker {name}")
        assert process.poll() is None, log.read_text()
        return process

    def kill(self, process: subprocess.Popen) -> None:
        os.kill(process.pid, signal.SIGKILL)
        process.wait()

    def end_all(self) -> None:
        for process in self.started:
            if process.poll() is None:
                os.kill(process.pid, signal.SIGKILL)
                process.wait()


@contextmanager
def dask_processes(folder: Path):
    processes = Processes(folder)
    try:
        yield processes
    finally:
        processes.end_all()
