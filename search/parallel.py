"""Root parallelism: independent trees in worker processes (threads cannot help under the
GIL), their root statistics summed. MCTS seeds its workers seed, seed+1, ...; ISMCTS draws
theirs from its search's seed (``run_in_workers`` runs any searches).

Workers are forked with ``os.fork`` (not ``multiprocessing.Process``, whose start-up closes
``sys.stdin``: that waits forever for the lock of the engine protocol's main thread, which
is reading stdin), so they inherit the position and the caller's stop flag (shared memory:
setting it in the parent stops every worker within a few simulations), and send their root
statistics back through a pipe. They ignore Ctrl-C: the parent turns it into the stop flag.
They die with the parent whatever kills it (SIGKILL included: ``lifetime.py``), so no
worker searches on at full speed for nobody.
"""
from __future__ import annotations

import os
import signal
import time
from multiprocessing.connection import Connection

from .lifetime import die_with_parent


def analyse_in_workers(engine, state, limits, point_of_view, multipv, stop=None):
    from .engines import MCTSEngine
    start = time.monotonic()
    options = dict(engine.options, workers=1, reuse=False)
    trees = [MCTSEngine(seed=engine.seed + i, **options) for i in range(engine.workers)]
    results = run_in_workers([lambda tree=tree: tree.search(
        state, limits, None, point_of_view, multipv, start, stop) for tree in trees])
    return engine.result(state, merge(results), point_of_view, multipv, start)


def run_in_workers(searches) -> list:
    """Run each of ``searches`` (no-argument callables) in a worker process of its own, all
    at once; return what they returned, in order."""
    workers = []
    try:
        for search in searches:
            workers.append(fork(search))
        return [receive(receiver) for _, receiver in workers]
    finally:
        for pid, _ in workers:
            end(pid)


def fork(search) -> tuple[int, Connection]:
    """Start a process that runs ``search()`` and sends ``(True, result)`` or
    ``(False, error text)``; return its pid and the receiving end of its pipe."""
    reader, writer = os.pipe()
    # SIGINT stays blocked in the child until it ignores it: no KeyboardInterrupt can kill it
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:
        status = 1
        try:
            die_with_parent(parent, signal.SIGKILL)
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
            os.close(reader)
            with Connection(writer, readable=False) as sender:
                try:
                    sender.send((True, search()))
                except Exception as err:
                    sender.send((False, f"{type(err).__name__}: {err}"))
            status = 0
        finally:
            os._exit(status)      # no atexit handlers, no flushing the parent's buffers
    signal.pthread_sigmask(signal.SIG_SETMASK, mask)
    os.close(writer)
    return pid, Connection(reader, writable=False)


def receive(receiver: Connection) -> dict:
    try:
        ok, payload = receiver.recv()
    except EOFError:
        raise RuntimeError("a search worker process died before reporting") from None
    finally:
        receiver.close()
    if not ok:
        raise RuntimeError(f"a search worker failed: {payload}")
    return payload


def end(pid: int) -> None:
    """Reap a worker (one that has not reported, after an error elsewhere, is killed)."""
    if os.waitpid(pid, os.WNOHANG) == (0, 0):
        os.kill(pid, signal.SIGTERM)
        os.waitpid(pid, 0)


def merge(results: list[dict]) -> dict:
    """MCTS's trees: sum visits and values per root move; keep the PV of the tree that
    visited it most."""
    children: dict[int, list] = {}
    best_pv: dict[int, tuple[int, list[int]]] = {}
    for stats in results:
        for move, visits, value, proven in stats["children"]:
            entry = children.setdefault(move, [move, 0, 0.0, None])
            entry[1] += visits
            entry[2] += value
            entry[3] = proven if proven is not None else entry[3]
            if move in stats["pvs"] and visits > best_pv.get(move, (-1, []))[0]:
                best_pv[move] = (visits, stats["pvs"][move])
    roots = [s["root"] for s in results]
    proven = next((r[3] for r in roots if r[3] is not None), None)
    return {
        "children": [tuple(c) for c in children.values()],
        "pvs": {move: pv for move, (_, pv) in best_pv.items()},
        "root": (roots[0][0], sum(r[1] for r in roots), sum(r[2] for r in roots), proven),
        "simulations": sum(s["simulations"] for s in results),
        "nodes": sum(s["nodes"] for s in results),
        "tree_nodes": sum(s["tree_nodes"] for s in results),
        "depth": max(s["depth"] for s in results), "kept": 0,
    }
