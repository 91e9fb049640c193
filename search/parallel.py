"""Root parallelism for MCTS: independent trees in worker processes (threads cannot help
under the GIL), seeded seed, seed+1, ...; their root statistics are summed."""
from __future__ import annotations

import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor


def search_one(game, position, options, seed, limits, point_of_view, multipv) -> dict:
    from .engines import MCTSEngine
    state = game.parse_position(position)
    engine = MCTSEngine(seed=seed, **options)
    return engine.search(state, limits, None, point_of_view, multipv, time.monotonic())


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


def analyse_in_workers(engine, state, limits, point_of_view, multipv):
    start = time.monotonic()
    options = dict(engine.options, workers=1, reuse=False)
    context = multiprocessing.get_context("fork")
    position = state.position()
    with ProcessPoolExecutor(engine.workers, mp_context=context) as pool:
        futures = [pool.submit(search_one, state.game, position, options, engine.seed + i,
                               limits, point_of_view, multipv)
                   for i in range(engine.workers)]
        results = [f.result() for f in futures]
    return engine.result(state, merge(results), point_of_view, multipv, start)
