"""The jobs of job-level proof search (solvers/jobpns.py): what a worker runs. A job is a
df-pn search of one position bounded by a node budget, on the worker thread's own table,
kept between jobs; it is a pure function of its arguments (a lost worker's job is simply run
again elsewhere) and returns what the master needs to grow its tree."""
from __future__ import annotations

import os
import socket
import threading
import time
from dataclasses import dataclass

from crystalpick.search.solve import Solver


@dataclass(frozen=True)
class Job:
    """Search ``position`` for ``attacker``'s win within ``budget`` plies (-1: any) and
    ``nodes`` df-pn nodes, on a table of ``hash_mb`` MB."""
    game: object
    position: str
    attacker: int
    budget: int
    nodes: int
    hash_mb: int
    symmetry: str                 # "on" or "off": the master decides for the whole proof


@dataclass
class JobResult:
    """What a job found: the position's status (1 proven, -1 disproven, 0 unknown) with its
    proof length and draw mark, each child's ``(move, status, length, draw)`` from the
    worker's table, and the work done (``worker`` names the process that did it)."""
    name: str
    worker: str
    status: int
    length: int
    draw: bool
    children: list
    nodes: int
    seconds: float


_worker_tables = threading.local()


def worker_solver(job: Job) -> Solver:
    """This worker thread's solver for the job's game: kept between jobs, so a job that
    meets positions an earlier one searched continues from their entries."""
    solvers = _worker_tables.__dict__.setdefault("solvers", {})
    key = (job.game.identity, job.hash_mb)
    if key not in solvers:
        solvers.clear()               # one table per thread: another game's is dropped
        solvers[key] = Solver(job.game, job.hash_mb, symmetry=job.symmetry)
    return solvers[key]


def worker_name() -> str:
    """The Dask worker's name inside a Dask worker, else host:pid."""
    try:
        from distributed import get_worker
        return str(get_worker().name)
    except (ImportError, ValueError):
        return f"{socket.gethostname()}:{os.getpid()}"


def run_job(name: str, job: Job) -> JobResult:
    """A job: the bounded df-pn search, then the children's status from the table."""
    solver = worker_solver(job)
    searcher = solver.searcher
    state = job.game.state(job.position)
    searcher.set_kernel(state.search_kernel().clone())
    searcher.symmetry = job.symmetry == "on"
    searcher.set_stop(None)
    searcher.set_limits(0.0, job.nodes)
    before, start = searcher.nodes, time.monotonic()
    status = searcher.prove(job.attacker, job.budget)
    nodes, seconds = searcher.nodes - before, time.monotonic() - start
    _, _, length, draw = searcher.root_numbers
    children = searcher.children(job.attacker, job.budget)
    return JobResult(name, worker_name(), status, length, draw, children, nodes, seconds)
