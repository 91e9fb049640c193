"""Measure how fast ``stop`` is answered over the engine protocol (docs/protocol.md).

    python bench/stop_latency.py [--tries 10] [--search-ms 300]

For each game and engine (alpha-beta, MCTS, MCTS with two worker processes) one engine
subprocess is started; each try sends ``go infinite``, lets it search ``--search-ms``, then
times from writing ``stop`` to reading ``bestmove`` on the pipes. Prints the median and the
maximum in milliseconds.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

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


def latencies(game: str, setup: list[str], tries: int, search_seconds: float) -> list[float]:
    engine = Engine(game)
    try:
        for line in setup + ["position start", "isready"]:
            engine.send(line)
        engine.until("readyok")
        out = []
        for _ in range(tries):
            engine.send("go infinite")
            time.sleep(search_seconds)
            started = time.perf_counter()
            engine.send("stop")
            engine.until("bestmove")
            out.append(time.perf_counter() - started)
        return out
    finally:
        engine.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tries", type=int, default=10)
    parser.add_argument("--search-ms", type=int, default=300)
    args = parser.parse_args()
    print(f"stop -> bestmove over pipes, {args.tries} tries after {args.search_ms} ms of "
          f"'go infinite' (ms)")
    print(f"{'game':<12} {'engine':<16} {'median':>8} {'max':>8}")
    for game in GAMES:
        for name, setup in ENGINES.items():
            times = latencies(game, setup, args.tries, args.search_ms / 1000)
            print(f"{game:<12} {name:<16} {statistics.median(times) * 1000:8.1f} "
                  f"{max(times) * 1000:8.1f}")


if __name__ == "__main__":
    main()
