"""Shared by the protocol tests: `crystalpick engine` as a real subprocess over pipes, driven
line by line (``Driver``) or by a whole script sent at once (``scripted``), always in a
process group of its own so that a hang is killed with every worker process it started."""
from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time

ENGINE = [sys.executable, "-c", "from crystalpick.cli.main import main; main()", "engine"]
# A session that has not ended after this long hangs (the sessions take about a second; the
# limit only has to hold on a loaded CI machine, and is reached only by a hang).
SESSION_SECONDS = 60


def start(game: str) -> subprocess.Popen:
    # SIGINT reset: a background job of a non-interactive shell starts children ignoring it
    return subprocess.Popen(ENGINE + [game], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True, bufsize=1, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def kill_group(process: subprocess.Popen) -> None:
    """SIGKILL the engine and its worker processes (a hung engine ignores less)."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait()


def group_left(process: subprocess.Popen) -> bool:
    """Whether a process of the engine's group (a search worker) outlived the engine: waits
    for the group to empty, up to the session limit."""
    deadline = time.monotonic() + SESSION_SECONDS
    while time.monotonic() < deadline:
        try:
            os.killpg(process.pid, 0)
        except ProcessLookupError:
            return False
        time.sleep(0.05)
    return True


class Driver:
    def __init__(self, game="mattock"):
        self.process = start(game)
        self.lines = queue.Queue()      # read on a thread, so waiting can time out
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def until(self, prefix, limit=SESSION_SECONDS):
        lines, deadline = [], time.monotonic() + limit
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no {prefix!r} within {limit} s in {lines}") from None
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def close(self):
        self.send("quit")
        assert self.process.wait(timeout=SESSION_SECONDS) == 0
        assert not group_left(self.process), "a worker process outlived the engine"

    def kill(self):
        if self.process.poll() is None:
            kill_group(self.process)


def scripted(game: str, lines: list[str], close_stdin: bool = False) -> list[str]:
    """Send every line at once (each command queued behind the ones before it), keep stdin
    open unless ``close_stdin``, and return what the engine printed once it has exited with
    status 0 and left no worker process behind; a session still running after
    ``SESSION_SECONDS`` is killed and fails, with its commands and output."""
    process = start(game)
    shown = "\n".join(lines)
    collected: list[str] = []
    reader = threading.Thread(target=lambda: collected.extend(process.stdout), daemon=True)
    reader.start()
    try:
        process.stdin.write(shown + "\n")
        process.stdin.flush()
        if close_stdin:
            process.stdin.close()
        status = process.wait(timeout=SESSION_SECONDS)
    except subprocess.TimeoutExpired:
        kill_group(process)
        reader.join()
        raise AssertionError(f"hangs after {SESSION_SECONDS} s:\n{shown}\n--\n"
                             + "".join(collected)[-3000:]) from None
    reader.join()
    said = [line.rstrip("\n") for line in collected]
    assert status == 0, f"exit status {status}:\n{shown}\n--\n" + "\n".join(said[-20:])
    assert not group_left(process), f"a worker process outlived the engine:\n{shown}"
    return said


def answers(said: list[str]) -> list[str]:
    """What the gos of a session were answered with: a ``bestmove`` or a ``go`` error."""
    return [line for line in said
            if line.startswith("bestmove") or line.startswith("info string error: go")]
