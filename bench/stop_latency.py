"""Measure how fast a search stops: ``stop`` over the engine protocol (docs/protocol.md) and
Ctrl-C in every command (docs/search.md, "Ctrl-C").

    python bench/stop_latency.py [--tries 10] [--search-ms 300] [--ctrl-c-tries 3]
                                 [--part protocol|ctrl-c|both]

``protocol``: for each game and engine (alpha-beta, MCTS, MCTS with two worker processes) one
engine subprocess is started; each try sends ``go infinite`` and ``go movetime 3000`` (queued
behind it), lets it search ``--search-ms``, times from writing ``isready`` to reading
``readyok``, then from writing ``stop`` to reading the first ``bestmove`` on the pipes (the
stop ends the queued go too).

``ctrl-c``: each command of tests/interrupt_cases.py (analyse, solve, perft, play, match,
annotate, engine) is started ``--ctrl-c-tries`` times, interrupted as a terminal does it
(SIGINT to its process group) ``--search-ms`` after it is at work, and timed from the signal
to its last line of output (the partial result) and to its exit; the exit statuses seen are
listed (130 everywhere).

Prints the median and the maximum in milliseconds.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))
import interrupt_cases  # noqa: E402  (the commands and how to interrupt them, one definition)

ENGINE = [sys.executable, "-c", "from crystalpick.cli.main import main; main()", "engine"]
ENGINES = {"alphabeta": [], "mcts": ["setoption name engine value mcts"],
           "mcts workers=2": ["setoption name engine value mcts",
                              "setoption name workers value 2"]}
GAMES = ("mattock", "maatatahay")


class Engine:
    def __init__(self, game: str):
        self.process = subprocess.Popen(ENGINE + [game], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(self, line: str) -> None:
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def until(self, prefix: str) -> str:
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError(f"the engine exited before {prefix!r}")
            if line.startswith(prefix):
                return line

    def close(self) -> None:
        self.send("quit")
        self.process.wait(timeout=30)


def latencies(game: str, setup: list[str], tries: int,
              search_seconds: float) -> tuple[list[float], list[float]]:
    """The times from stop to bestmove and from isready to readyok, in seconds."""
    engine = Engine(game)
    try:
        for line in setup + ["position start", "isready"]:
            engine.send(line)
        engine.until("readyok")
        stops, readies = [], []
        for _ in range(tries):
            engine.send("go infinite")
            engine.send("go movetime 3000")
            time.sleep(search_seconds)
            started = time.perf_counter()
            engine.send("isready")
            engine.until("readyok")
            readies.append(time.perf_counter() - started)
            started = time.perf_counter()
            engine.send("stop")
            engine.until("bestmove")
            stops.append(time.perf_counter() - started)
            engine.until("bestmove")        # the queued go's
        return stops, readies
    finally:
        engine.close()


def protocol_part(tries: int, search_ms: int) -> None:
    print(f"stop -> bestmove and isready -> readyok over pipes, {tries} tries after "
          f"{search_ms} ms of 'go infinite' with a go queued behind it (ms)")
    print(f"{'game':<12} {'engine':<16} {'stop median':>11} {'max':>6} {'isready median':>14} "
          f"{'max':>6}")
    for game in GAMES:
        for name, setup in ENGINES.items():
            stops, readies = latencies(game, setup, tries, search_ms / 1000)
            print(f"{game:<12} {name:<16} {statistics.median(stops) * 1000:11.1f} "
                  f"{max(stops) * 1000:6.1f} {statistics.median(readies) * 1000:14.1f} "
                  f"{max(readies) * 1000:6.1f}")


def ctrl_c_part(tries: int, search_ms: int) -> None:
    print(f"Ctrl-C (SIGINT to the process group) -> last output and -> exit, {tries} tries "
          f"after {search_ms} ms at work (ms)")
    print(f"{'command':<24} {'output median':>13} {'max':>7} {'exit median':>11} {'max':>7}  "
          f"status")
    with tempfile.TemporaryDirectory() as folder:
        for case in interrupt_cases.CASES:
            outcomes = [interrupt_cases.run(case, Path(folder), search_ms / 1000)
                        for _ in range(tries)]
            timed = [o for o in outcomes if o.seconds is not None]
            if not timed:
                print(f"{case.name:<24} never got to work")
                continue
            shown = [o.reported * 1000 for o in timed]
            ended = [o.seconds * 1000 for o in timed]
            statuses = ",".join(sorted({str(o.status) for o in outcomes}))
            print(f"{case.name:<24} {statistics.median(shown):13.1f} {max(shown):7.1f} "
                  f"{statistics.median(ended):11.1f} {max(ended):7.1f}  {statuses}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tries", type=int, default=10)
    parser.add_argument("--ctrl-c-tries", type=int, default=3)
    parser.add_argument("--search-ms", type=int, default=300)
    parser.add_argument("--part", choices=["protocol", "ctrl-c", "both"], default="both")
    args = parser.parse_args()
    if args.part in ("protocol", "both"):
        protocol_part(args.tries, args.search_ms)
    if args.part in ("ctrl-c", "both"):
        ctrl_c_part(args.ctrl_c_tries, args.search_ms)


if __name__ == "__main__":
    main()
