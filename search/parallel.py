"""Root parallelism for MCTS: independent trees in worker processes (threads cannot help
under the GIL), seeded seed, seed+1, ...; their root statistics are summed.

Workers are forked, so they inherit the position and the caller's stop flag (shared memory:
setting it in the parent stops every worker within a few simulations) and send their root
statistics back through a pipe. They ignore Ctrl-C: the parent turns it into the stop flag.
"""
from __future__ import annotations

import multiprocessing
import signal
import time


def search_one(sender, state, options, seed, limits, point_of_view, multipv, stop) -> None:
    """A worker's search: send ``(True, statistics)`` or ``(False, error text)``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from .engines import MCTSEngine
    try:
        engine = MCTSEngine(seed=seed, **options)
        sender.send((True, engine.search(state, limits, None, point_of_view, multipv,
                                         time.monotonic(), stop)))
    except Exception as err:
        sender.send((False, f"{type(err).__name__}: {err}"))
    finally:
        sender.close()


def merge(results: list[dict]) -> dict:
    """Sum visits and values per root move; keep the PV of the tree that visited it most."""
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


def analyse_in_workers(engine, state, limits, point_of_view, multipv, stop=None):
    start = time.monotonic()
    options = dict(engine.options, workers=1, reuse=False)
    context = multiprocessing.get_context("fork")
    receivers, workers = [], []
    try:
        for i in range(engine.workers):
            receiver, sender = context.Pipe(duplex=False)
            worker = context.Process(target=search_one, daemon=True, args=(
                sender, state, options, engine.seed + i, limits, point_of_view, multipv, stop))
            worker.start()
            sender.close()
            receivers.append(receiver)
            workers.append(worker)
        results = [receive(receiver) for receiver in receivers]
    finally:
        for worker in workers:
            if worker.is_alive():
                worker.terminate()
            worker.join()
    return engine.result(state, merge(results), point_of_view, multipv, start)


def receive(receiver) -> dict:
    try:
        ok, payload = receiver.recv()
    except EOFError:
        raise RuntimeError("an MCTS worker process died before reporting") from None
    finally:
        receiver.close()
    if not ok:
        raise RuntimeError(f"an MCTS worker failed: {payload}")
    return payload
