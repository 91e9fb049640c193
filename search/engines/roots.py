"""The root statistics of the simulation searchers as plain data (what a worker process sends
back), and how the trees of root parallelism (``workers=N``, search/parallel.py) are summed:
MCTS's and ISMCTS's, in one place."""
from __future__ import annotations


def mcts_statistics(tree, kept: int) -> dict:
    """What ``MCTSEngine.result`` reads of a tree: each root move's visits, value and proof,
    the visits of the root child holding it (its stage's, with ``decompose``), the principal
    variations of the eight most visited, the counts; ``kept`` is the number of nodes reused
    from the previous move's tree."""
    children, stage_visits = tree.root_children(), tree.root_stage_visits()
    top = sorted(children, key=lambda c: (stage_visits.get(c[0], 0), c[1]), reverse=True)[:8]
    return {
        "children": children, "stage_visits": stage_visits,
        "pvs": {c[0]: tree.principal_variation(c[0]) for c in top},
        "root": tree.root_summary(),
        "simulations": tree.simulations, "nodes": tree.made,
        "tree_nodes": tree.node_count, "depth": tree.max_tree_depth, "kept": kept,
    }


def merge_mcts(results: list[dict]) -> dict:
    """MCTS's trees: sum visits and values per root move (and its stage's visits); keep the
    PV of the tree that visited it most."""
    children: dict[int, list] = {}
    stage_visits: dict[int, int] = {}
    best_pv: dict[int, tuple[int, list[int]]] = {}
    for stats in results:
        for move, visits in stats["stage_visits"].items():
            stage_visits[move] = stage_visits.get(move, 0) + visits
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
        "children": [tuple(c) for c in children.values()], "stage_visits": stage_visits,
        "pvs": {move: pv for move, (_, pv) in best_pv.items()},
        "root": (roots[0][0], sum(r[1] for r in roots), sum(r[2] for r in roots), proven),
        "simulations": sum(s["simulations"] for s in results),
        "nodes": sum(s["nodes"] for s in results),
        "tree_nodes": sum(s["tree_nodes"] for s in results),
        "depth": max(s["depth"] for s in results), "kept": 0,
    }


def ismcts_statistics(tree) -> dict:
    """What ``ISMCTSEngine.result`` reads of a tree."""
    return {"arms": tree.root_arms(), "simulations": tree.simulations, "nodes": tree.made,
            "depth": tree.max_tree_depth, "tree_nodes": tree.node_count,
            "real_simulations": tree.real_simulations, "result_sum": tree.result_sum,
            "secret": tree.root_is_secret()}


def merge_ismcts(results: list[dict]) -> dict:
    """ISMCTS's trees: sum each root arm's visits, values and average-strategy sums (arms in
    the order the first tree met them), and the counts."""
    arms: dict[int, list] = {}
    for stats in results:
        for move, *numbers in stats["arms"]:
            entry = arms.setdefault(move, [move, 0, 0.0, 0.0])
            for i, number in enumerate(numbers, 1):
                entry[i] += number
    merged = {key: sum(s[key] for s in results)
              for key in ("simulations", "nodes", "tree_nodes", "real_simulations",
                          "result_sum")}
    return dict(merged, arms=[tuple(a) for a in arms.values()],
                depth=max(s["depth"] for s in results), secret=results[0]["secret"])
