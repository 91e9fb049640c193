"""Measure match throughput on the local pool and on a local Dask cluster, for the README.

    python bench/match_throughput.py [--rounds 2] [--games 20] [--overhead-games 200]

Timed games (alpha-beta vs MCTS at 0.1 s/move, Mattock): games/minute with
``--concurrency 2`` against a 2-worker Dask cluster on this machine (``dask scheduler`` and
``dask worker --nworkers 2 --nthreads 1`` on the loopback interface). Free games (random vs
random, which cost almost nothing to play): milliseconds per game, from the first game
stored to the last, played in the match's own process and on a 1-worker cluster; the
difference is the cluster's per-game scheduling overhead.
The configurations alternate (A, B, A, B, ...) so a machine shared with other work loads
both alike. Every process started is ended by its pid.
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CLI = [sys.executable, "-c", "from crystalpick.cli.main import main; main()"]
TIMED = ["--engine", "alphabeta:time=0.1", "--engine", "mcts:time=0.1"]
FREE = ["--engine", "random", "--engine", "random"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Cluster:
    """A scheduler and ``workers`` worker processes (one thread each) on 127.0.0.1."""

    def __init__(self, folder: Path, workers: int):
        port = free_port()
        self.address = f"tcp://127.0.0.1:{port}"
        self.processes = []
        self.start(folder / "scheduler.log", "scheduler", "--host", "127.0.0.1", "--port",
                   str(port), "--no-dashboard")
        worker_log = folder / f"workers-{port}.log"
        self.start(worker_log, "worker", self.address, "--nworkers", str(workers),
                   "--nthreads", "1", "--no-dashboard", "--local-directory", str(folder))
        deadline = time.monotonic() + 120
        while worker_log.read_text().count("Registered to") < workers:
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"workers did not start: see {worker_log}")
            time.sleep(0.1)

    def start(self, log: Path, *args) -> None:
        with open(log, "a") as handle:
            self.processes.append(subprocess.Popen(
                [sys.executable, "-m", "dask", *args], stdout=handle, stderr=subprocess.STDOUT,
                start_new_session=True))

    def stop(self) -> None:
        for process in reversed(self.processes):
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)    # the nanny and its worker processes
                process.wait()


def timed_match(folder: Path, engines: list[str], games: int, *where) -> tuple[int, float, float]:
    """(games played, seconds for the whole command, seconds from the first game stored to
    the last: the same without start-up and connection)."""
    db = folder / f"{time.monotonic_ns()}.sqlite"
    started = time.perf_counter()
    output = subprocess.run([*CLI, "match", "mattock", *engines, "--games", str(games),
                             "--seed", "1", "--db", str(db), "--json", *where],
                            capture_output=True, text=True, check=True).stdout
    seconds = time.perf_counter() - started
    first, last = sqlite3.connect(db).execute(
        "SELECT MIN(finished), MAX(finished) FROM games").fetchone()
    return json.loads(output[output.index("{"):])["games"], seconds, last - first


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--overhead-games", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        pair, single = Cluster(folder, 2), Cluster(folder, 1)
        try:
            for round_ in range(1, args.rounds + 1):
                for label, where in (("local pool, --concurrency 2", ["--concurrency", "2"]),
                                     ("Dask, 2 workers", ["--cluster", pair.address])):
                    games, seconds, _ = timed_match(folder, TIMED, args.games, *where)
                    print(f"round {round_}  0.1 s/move  {label:28} {games} games in "
                          f"{seconds:6.1f} s: {60 * games / seconds:5.1f} games/min", flush=True)
                for label, where in (("this process", []),
                                     ("Dask, 1 worker", ["--cluster", single.address])):
                    games, _, span = timed_match(folder, FREE, args.overhead_games, *where)
                    print(f"round {round_}  random      {label:28} {games} games, "
                          f"{1000 * span / (games - 1):5.2f} ms/game", flush=True)
        finally:
            pair.stop()
            single.stop()


if __name__ == "__main__":
    main()
