"""An external engine speaking the crystalpick engine protocol (docs/protocol.md), as a
match player. A crash, a hang past the time limit, or an illegal move loses the game for
that engine (the runner records the reason) and the match goes on."""
from __future__ import annotations

import queue
import subprocess
import threading

HANDSHAKE_SECONDS = 10.0
GRACE_SECONDS = 1.0          # beyond the engine's own time before it counts as hanging


class EngineFailure(Exception):
    """The external engine crashed, hung or answered nonsense."""


class ExternalEngine:
    def __init__(self, command: list[str], options: dict[str, str]):
        self.command = command
        try:
            self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=subprocess.DEVNULL, text=True, bufsize=1)
        except OSError as err:
            raise EngineFailure(f"cannot start {' '.join(command)!r}: {err}") from None
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.send("protocol")
        self.expect("protocolok", HANDSHAKE_SECONDS)
        for name, value in options.items():
            self.send(f"setoption name {name} value {value}")
        self.send("newgame")

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)                      # end of output: the process is gone

    def send(self, line: str) -> None:
        try:
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError):
            raise EngineFailure(f"engine exited (status {self.process.poll()})") from None

    def expect(self, prefix: str, seconds: float) -> tuple[str, list[str]]:
        """Wait for a line starting with ``prefix``; return it and the lines before it."""
        seen = []
        while True:
            try:
                line = self.lines.get(timeout=seconds)
            except queue.Empty:
                raise EngineFailure(f"no '{prefix}' within {seconds:.1f} s (engine hangs)") from None
            if line is None:
                raise EngineFailure(f"engine exited (status {self.process.wait()}) before "
                                    f"'{prefix}'")
            if line.startswith(prefix):
                return line, seen
            seen.append(line)

    def best_move(self, position: str, go: str, seconds: float) -> tuple[str, dict]:
        self.send(f"position {position}")
        self.send(f"go {go}")
        line, info = self.expect("bestmove", seconds + GRACE_SECONDS)
        words = line.split()
        if len(words) < 2:
            raise EngineFailure(f"malformed answer {line!r}")
        return words[1], last_info(info)

    def close(self) -> None:
        if self.process.poll() is None:
            try:
                self.send("quit")
                self.process.wait(timeout=2)
            except (EngineFailure, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()


def last_info(lines: list[str]) -> dict:
    """Score, depth or visits and nodes from the last ``info multipv 1`` line, for comments."""
    for line in reversed(lines):
        words = line.split()
        if words[:3] != ["info", "multipv", "1"]:
            continue
        comment = {}
        for key in ("depth", "visits", "nodes", "pov"):
            if key in words:
                comment[key] = words[words.index(key) + 1]
        if "score" in words:
            at = words.index("score")
            comment["score"] = " ".join(words[at + 1: words.index("winrate")]
                                        if "winrate" in words else words[at + 1: at + 3])
        return comment
    return {}
