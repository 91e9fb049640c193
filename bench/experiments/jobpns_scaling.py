"""Job-level proof search (``crystalpick solve --cluster``) on 1 and on 2 local Dask workers
against the single-machine solver: the same position, wall time and nodes.

    python bench/experiments/jobpns_scaling.py mattock-end-06-03 [--workers 1 2] [--job-nodes 200000]

For each worker count it starts a ``dask scheduler`` on 127.0.0.1 (a free port) and that many
``dask worker --nthreads 1 --no-nanny`` processes, waits for each to say it registered, runs
``crystalpick solve mattock POSITION --cluster ... --json`` and ends the processes by pid.
The workers share this machine's cores with the master and with whatever else runs: say so
with the numbers (docs/search.md).
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from crystalpick.positions import parse_suite, read_text

SOLVE = [sys.executable, "-c", "from crystalpick.cli.main import main; main()", "solve",
         "mattock"]
STARTUP = 60.0


def suite_position(case_id: str) -> str:
    return next(case.position for case in parse_suite(read_text("mattock.endgames"))
                if case.id == case_id)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start(folder: Path, name: str, args: list[str], ready: str) -> subprocess.Popen:
    """A dask process, its output in ``folder/name.log``, once it has printed ``ready``."""
    log = folder / f"{name}.log"
    with open(log, "w") as handle:
        process = subprocess.Popen([sys.executable, "-m", "dask", *args], stdout=handle,
                                   stderr=subprocess.STDOUT, cwd=folder)
    deadline = time.monotonic() + STARTUP
    while ready not in log.read_text():
        if process.poll() is not None or time.monotonic() > deadline:
            os.kill(process.pid, signal.SIGKILL)
            raise SystemExit(f"{name} did not start:\n{log.read_text()}")
        time.sleep(0.1)
    return process


def timed_solve(position: str, extra: list[str]) -> dict:
    started = time.monotonic()
    done = subprocess.run([*SOLVE, *position.split(), "--json", *extra], capture_output=True,
                          text=True, check=True)
    document = json.loads(done.stdout)
    document["wall"] = time.monotonic() - started
    return document


def on_cluster(position: str, workers: int, job_nodes: int, hash_mb: int) -> dict:
    processes = []
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        try:
            port = free_port()
            processes.append(start(folder, "scheduler", [
                "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
                "Scheduler at:"))
            address = f"tcp://127.0.0.1:{port}"
            for number in range(workers):
                processes.append(start(folder, f"w{number + 1}", [
                    "worker", address, "--nthreads", "1", "--no-nanny", "--no-dashboard",
                    "--name", f"w{number + 1}", "--local-directory", str(folder)],
                    "Registered to"))
            return timed_solve(position, ["--cluster", address, "--job-nodes",
                                          str(job_nodes), "--hash", str(hash_mb)])
        finally:
            for process in processes:
                if process.poll() is None:
                    os.kill(process.pid, signal.SIGKILL)
                    process.wait()


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("position", help="an id of positions/mattock.endgames")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--job-nodes", type=int, default=200_000)
    parser.add_argument("--hash", type=int, default=64)
    args = parser.parse_args(argv)
    position = suite_position(args.position)
    print(f"{args.position}: {position}")
    single = timed_solve(position, ["--hash", str(args.hash)])
    print(f"single machine: {single['result']['score_text']}, "
          f"{single['result']['nodes']:,} nodes, {single['wall']:.1f} s wall")
    for workers in args.workers:
        document = on_cluster(position, workers, args.job_nodes, args.hash)
        cluster = document["cluster"]
        shares = ", ".join(f"{row['name']} {row['jobs']} jobs {row['nps']:,} nodes/s"
                           for row in cluster["workers"])
        print(f"{workers} worker(s): {document['result']['score_text']}, "
              f"{document['result']['nodes']:,} nodes, {document['wall']:.1f} s wall, "
              f"{cluster['jobs']:,} jobs, master tree {cluster['tree_nodes']:,} nodes "
              f"({shares})")


if __name__ == "__main__":
    main(sys.argv[1:])
