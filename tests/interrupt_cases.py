"""Every long-running command interrupted as a terminal's Ctrl-C does it (SIGINT to the
whole process group), in one place: ``tests/test_interrupts.py`` checks what each prints
and its exit status, ``bench/stop_latency.py`` times them (docs/search.md, "Ctrl-C").

A case starts the command in its own session, waits until it is at work (a line it prints
first, or the engine's ``readyok`` after ``go infinite``), lets it work a moment, sends
SIGINT and waits for the exit: the latency is from the signal to the exit.
"""
from __future__ import annotations

import fcntl
import os
import pty
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

# The command as a terminal starts it: SIGINT at its default disposition. A background job of
# a non-interactive shell (``pytest ... &`` in a script) starts with SIGINT ignored, which
# its children inherit, and the command rightly keeps an ignored SIGINT ignored (nohup).
COMMAND = [sys.executable, "-c", "import signal; signal.signal(signal.SIGINT, signal.SIG_DFL); "
                                 "from crystalpick.cli.start import main; main()"]
INTERRUPTED = 130            # 128 + SIGINT: what every command exits with after Ctrl-C
STARTUP_SECONDS = 60         # a loaded machine may take long to import and set up


@dataclass
class Case:
    """``args`` after ``crystalpick``, with ``{tmp}`` and ``{records}`` filled in; ``ready``
    is text the command prints (stdout or its progress bar on stderr) once at work;
    ``stdin`` lines are written first (the engine); ``shows`` must be in the output after
    the interrupt (the partial result)."""
    name: str
    args: list[str]
    ready: str
    shows: list[str]
    stdin: list[str] = field(default_factory=list)
    settle: float = 0.0        # seconds to wait beyond ``ready`` (a worker still forking)


CASES = [
    Case("analyse alphabeta", ["analyse", "mattock", "--time", "60"], "search",
         ["(interrupted: best result so far)", "best"]),
    Case("analyse mcts workers=2", ["analyse", "mattock", "--engine", "mcts:workers=2",
                                    "--time", "60"], "search",
         ["(interrupted: best result so far)"], settle=1.0),
    Case("solve", ["solve", "mattock", "--time", "60"], "solve",
         ["position:", "interrupted"]),
    Case("perft", ["perft", "mattock", "--depth", "9"], "root moves",
         ["interrupted after", "root moves"]),
    Case("play", ["play", "mattock", "--human", "none", "--engine", "alphabeta:time=30"],
         "seed:", ["interrupted after 0 plies"]),
    Case("play, plies played", ["play", "mattock", "--human", "none", "--engine",
                                "alphabeta:time=0.3", "--seed", "3"], "second plays",
         ["first plays", "[Game \"mattock\"]", "interrupted after"]),
    Case("match", ["match", "mattock", "--engine", "alphabeta:time=30", "--engine",
                   "mcts:time=30", "--games", "2", "--db", "{tmp}/match.sqlite"],
         "no --openings", ["Results of", "interrupted"]),
    Case("match concurrency=2", ["match", "mattock", "--engine", "alphabeta:time=30",
                                 "--engine", "mcts:time=30", "--games", "2",
                                 "--concurrency", "2", "--db", "{tmp}/match2.sqlite"],
         "no --openings", ["Results of", "interrupted"], settle=1.0),
    Case("tournament concurrency=2", ["tournament", "mattock", "--engine", "alphabeta:time=30",
                                      "--engine", "mcts:time=30", "--engine", "greedy",
                                      "--concurrency", "2", "--db", "{tmp}/tournament.sqlite"],
         "no --openings", ["Pairings", "interrupted"], settle=1.0),
    Case("annotate", ["annotate", "mattock", "{records}", "--time", "30"], "positions",
         ["totals by player", "interrupted: 0 of"]),
    Case("annotate concurrency=2", ["annotate", "mattock", "{records}", "--time", "30",
                                    "--concurrency", "2"], "positions",
         ["totals by player", "interrupted: 0 of"], settle=1.0),
    Case("deck", ["deck", "cardbattle", "--deck", "titas", "--against", "arsenal", "--games",
                  "2000", "--seed", "1", "--engine", "ismcts:time=30"], "deck advisor",
         ["interrupted after", "seed"]),
    Case("bench", ["bench", "mattock", "--perft-depth", "9"], "perft depth 9",
         ["interrupted: the positions finished are listed above"]),
    Case("engine", ["engine", "mattock"], "readyok", ["bestmove"],
         stdin=["position start", "isready", "go infinite"]),
]


def records_file(tmp: Path) -> Path:
    """A short Mattock game record for ``annotate`` (greedy against random, seed 1)."""
    from crystalpick.apps.match.games import play_game
    from crystalpick.apps.match.settings import MatchSettings
    path = tmp / "game.rec"
    if not path.exists():
        settings = MatchSettings("mattock", ["greedy", "random"], games=2, seed=1)
        path.write_text(play_game(settings, 0, False).record, encoding="utf-8")
    return path


@dataclass
class Outcome:
    seconds: float | None      # SIGINT to exit (None: it never got to work)
    reported: float | None     # SIGINT to the last output (the partial result and why)
    status: int
    stdout: str
    stderr: str
    pids: list[int]            # every process of its session seen while it worked
    at_work: bool = False      # its ``ready`` text was out when the signal was sent


def session_pids(session: int) -> list[int]:
    """The live (not zombie) processes of a session (Linux /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields_after_name = stat.rsplit(")", 1)[1].split()
        if fields_after_name[0] != "Z" and int(fields_after_name[3]) == session:
            found.append(int(entry.name))
    return found


def handlers_installed(pid: int) -> bool:
    """Whether the command's interrupt runner is installed: it catches SIGTERM, which Python
    alone does not (the ``SigCgt`` mask of /proc/PID/status)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    caught = next(line.split()[1] for line in status.splitlines() if line.startswith("SigCgt"))
    return bool(int(caught, 16) & (1 << (signal.SIGTERM - 1)))


def alive(pids) -> list[int]:
    """The processes of ``pids`` still running (not gone, not a zombie), after a moment."""
    deadline = time.monotonic() + 2
    while True:
        running = []
        for pid in pids:
            try:
                state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except OSError:
                continue
            if state != "Z":
                running.append(pid)
        if not running or time.monotonic() > deadline:
            return running
        time.sleep(0.05)


def stacks_of(process, said) -> str:
    """A hung command's Python stacks, every thread's: faulthandler (on through
    PYTHONFAULTHANDLER) prints them to its stderr on SIGABRT, so a hang seen once in a
    random draw says where it was."""
    process.send_signal(signal.SIGABRT)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        pass
    time.sleep(0.5)                      # the terminal's reader takes the last output
    return said["err"].decode("utf-8", "replace")[-6000:]


def run(case: Case, tmp: Path, work_seconds: float = 0.3, signum: int = signal.SIGINT,
        at_work: bool = True, extra: tuple[str, ...] = ()) -> Outcome:
    """Start ``case`` (its arguments and ``extra``), send ``signum`` once it works
    ``work_seconds`` (or, not ``at_work``, ``work_seconds`` after its interrupt runner is
    installed: maybe still starting up), wait for the end. SIGINT goes to the process group
    as a terminal's Ctrl-C does, SIGTERM to the command alone as ``kill PID`` does. Its
    stderr is a terminal, as a user's is, so progress bars show (and say it is at work)."""
    args = [a.format(tmp=tmp, records=records_file(tmp) if "{records}" in a else "")
            for a in case.args]
    terminal, stderr = pty.openpty()
    fcntl.ioctl(stderr, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # bars' width
    process = subprocess.Popen(COMMAND + args + list(extra), stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=stderr, start_new_session=True,
                               env=dict(os.environ, PYTHONFAULTHANDLER="1"))
    os.close(stderr)
    said = {"out": b"", "err": b""}
    changed = threading.Condition()

    def read(name, chunk):
        while True:
            try:
                data = chunk()
            except OSError:            # the terminal closes with the last process on it
                data = b""
            with changed:
                if data:
                    said["last"] = time.perf_counter()
                said[name] += data
                said[name + " ended"] = not data
                changed.notify_all()
            if not data:
                return

    readers = [threading.Thread(target=read, args=("out", lambda: process.stdout.read1(65536)),
                                daemon=True),
               threading.Thread(target=read, args=("err", lambda: os.read(terminal, 65536)),
                                daemon=True)]
    for reader in readers:
        reader.start()
    seconds = reported = None
    pids, working = [], False
    try:
        process.stdin.write("".join(line + "\n" for line in case.stdin).encode())
        process.stdin.flush()
        def started_up():
            if at_work:
                return case.ready.encode() in said["out"] + said["err"]
            return handlers_installed(process.pid)

        deadline = time.monotonic() + STARTUP_SECONDS
        with changed:       # woken by output, and every 20 ms to look at /proc
            while not (ready := said.get("out ended") or started_up()) \
                    and time.monotonic() < deadline:
                changed.wait(0.02)
        if ready and not said.get("out ended"):
            time.sleep((case.settle if at_work else 0.0) + work_seconds)
            pids = session_pids(process.pid)
            with changed:
                working = case.ready.encode() in said["out"] + said["err"]
            started = time.perf_counter()
            if signum == signal.SIGINT:
                os.killpg(process.pid, signum)
            else:
                process.send_signal(signum)
            try:
                process.wait(timeout=STARTUP_SECONDS)
            except subprocess.TimeoutExpired:
                raise AssertionError(f"still running {STARTUP_SECONDS} s after the signal; "
                                     f"its threads then:\n{stacks_of(process, said)}") from None
            seconds = time.perf_counter() - started
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        for reader in readers:
            reader.join(5)
        os.close(terminal)
    if seconds is not None:
        reported = max(0.0, said.get("last", started) - started)
    text = {name: said[name].decode("utf-8", "replace") for name in ("out", "err")}
    return Outcome(seconds, reported, process.returncode, text["out"], text["err"], pids,
                   working)
