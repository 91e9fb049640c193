"""An external engine speaking the crystalpick engine protocol (docs/protocol.md), as a
match player.

Starting it (the process and the ``protocol``/``protocolok`` handshake) either works or
raises :class:`EngineStartError`, which stops the match. During a game a crash, a hang or an
illegal move raises the matching :class:`EngineFailure`: the engine loses that game and the
match goes on. Before each move the engine gets the whole game, ``position start moves ...``
(or the start position's notation when it is not the game's own start), so it can keep its
own history.
"""
from __future__ import annotations

import os
import queue
import signal
import subprocess
import threading

from .records import GameRecord
from .termination import EngineCrashed, EngineFailure, EngineHung, EngineStartError, \
    IllegalMove, OutOfTime

HANDSHAKE_SECONDS = 10.0
QUIT_SECONDS = 1.0           # for the engine to leave by itself after 'quit'
GRACE_SECONDS = 1.0          # beyond the engine's own time before it counts as late


class ExternalEngine:
    def __init__(self, command: list[str], game):
        self.command = command
        self.starts: dict[str, str] = {}     # record Start tag -> what 'position' names it
        try:
            # its own process group (a new session): close() kills the engine and anything it
            # started (a wrapper script's children), and the terminal's Ctrl-C reaches only us
            self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=subprocess.DEVNULL, bufsize=0,
                                            start_new_session=True)
        except OSError as err:
            raise EngineStartError(f"{self.name!r} did not start: {err.strerror or err}") from None
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        try:
            self.handshake(game)
        except EngineFailure as err:
            self.close()
            raise EngineStartError(f"{self.name!r} did not start: {err}") from None
        except BaseException:       # Ctrl-C, or a worker told to leave, mid-handshake
            self.close(at_once=True)
            raise

    @property
    def name(self) -> str:
        return " ".join(self.command)

    def handshake(self, game) -> None:
        """``protocol`` answered by ``protocolok``, then the game's rules and tileset."""
        self.send("protocol")
        _, said = self.expect("protocolok", HANDSHAKE_SECONDS)
        for line in said:
            words = line.split()
            if words[:2] == ["id", "game"] and words[2:] != [game.name]:
                raise EngineFailure(f"it plays {' '.join(words[2:])!r}, not {game.name!r}")
        for name, value in sorted(game.explicit_rules.items()):
            self.send(f"setoption name rule.{name} value {value}")
        if game.tileset_path:
            self.send(f"setoption name tileset value {game.tileset_path}")
        self.send("newgame")

    def _read(self) -> None:
        """Any bytes are read: what is not UTF-8 is replaced, so only the end of the output
        (the process is gone) ends this thread."""
        try:
            for raw in self.process.stdout:
                self.lines.put(raw.decode("utf-8", "replace").rstrip("\r\n"))
        except (OSError, ValueError):
            pass
        finally:
            self.lines.put(None)

    def send(self, line: str) -> None:
        try:
            self.process.stdin.write((line + "\n").encode("utf-8", "replace"))
            self.process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise EngineCrashed(f"engine exited ({self.exit_status()})") from None

    def expect(self, prefix: str, seconds: float) -> tuple[str, list[str]]:
        """Wait for a line starting with ``prefix``; return it and the lines before it."""
        seen = []
        while True:
            try:
                line = self.lines.get(timeout=seconds)
            except queue.Empty:
                raise EngineHung(f"no '{prefix}' within {seconds:.1f} s (engine hangs)") from None
            if line is None:
                raise EngineCrashed(f"engine exited ({self.exit_status()}) before "
                                    f"'{prefix}'")
            if line.startswith(prefix):
                return line, seen
            seen.append(line)

    def exit_status(self) -> str:
        """How the engine ended, once its pipes closed (a process that closed them but
        lives on is not waited for)."""
        try:
            return f"status {self.process.wait(timeout=QUIT_SECONDS)}"
        except subprocess.TimeoutExpired:
            return "its output closed"

    def best_move(self, record: GameRecord, go: str, seconds: float) -> tuple[str, dict]:
        """The engine's move after the game so far. No answer within ``seconds`` plus a grace
        period loses on time if the engine still answers ``isready``, else it hangs."""
        self.send(self.position_command(record))
        self.send(f"go {go}")
        waited = seconds + GRACE_SECONDS
        try:
            line, info = self.expect("bestmove", waited)
        except EngineHung:
            if self.responsive():
                raise OutOfTime(f"no move within {waited:.1f} s") from None
            raise EngineHung(f"no move within {waited:.1f} s and no answer to isready (engine "
                             f"hangs)") from None
        words = line.split()
        if len(words) < 2:
            raise IllegalMove(f"malformed answer {line!r}")
        return words[1], last_info(info)

    def responsive(self) -> bool:
        self.send("isready")
        try:
            self.expect("readyok", GRACE_SECONDS)
        except EngineHung:
            return False
        return True

    def position_command(self, record: GameRecord) -> str:
        start = self.starts.get(record.tags["Start"])
        if start is None:
            start = self.starts[record.tags["Start"]] = start_word(record)
        moves = " ".join(ply.move for ply in record.plies)
        return f"position {start}" + (f" moves {moves}" if moves else "")

    def close(self, at_once: bool = False) -> None:
        """``quit``, then the whole process group is killed whatever the engine did (what
        it started may outlive it); ``at_once`` skips the ``quit`` (Ctrl-C: no waiting)."""
        try:
            if not at_once and self.process.poll() is None:
                try:
                    self.send("quit")
                    self.process.wait(timeout=QUIT_SECONDS)
                except (EngineFailure, subprocess.TimeoutExpired):
                    pass
        finally:
            kill_group(self.process)


def kill_group(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)   # the group's id is the engine's pid
    except (ProcessLookupError, PermissionError):
        pass
    process.wait()
    for stream in (process.stdin, process.stdout):
        try:
            stream.close()
        except OSError:
            pass


def start_word(record: GameRecord) -> str:
    """``start`` when the record starts where any engine's new game starts (the rules'
    fixed start, not one drawn from a seed, and no opening); else the start's notation."""
    game = record.game()
    standard = game.new_initial_state().position()
    if game.seed is None and standard == record.tags["Start"]:
        return "start"
    return record.tags["Start"]


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
