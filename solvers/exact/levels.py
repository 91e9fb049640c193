"""The tree's edges grouped by the height of their parent (a terminal node has height 0, a
parent is higher than each child), so a whole level is one numpy operation: ascending heights
are a backward pass (children done first), descending ones a forward pass (every parent of a
node done before the node's own edges)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .tree import GameTree


@dataclass
class Level:
    edges: np.ndarray       # edge indices, grouped by parent
    parents: np.ndarray     # the parents, one per group
    offsets: np.ndarray     # where each parent's group starts in ``edges`` (for reduceat)


def levels(tree: GameTree) -> list[Level]:
    height = np.zeros(tree.nodes, dtype=np.int64)
    starts = tree.edge_start
    child = tree.edge_child
    for node in range(tree.nodes):        # post-order: children have smaller ids
        if starts[node + 1] > starts[node]:
            height[node] = 1 + height[child[starts[node]:starts[node + 1]]].max()
    parent_height = height[tree.edge_parent]
    order = np.lexsort((tree.edge_parent, parent_height))
    out = []
    bounds = np.searchsorted(parent_height[order], np.arange(1, height.max() + 2))
    for low, high in zip(bounds[:-1], bounds[1:]):
        edges = order[low:high]
        parents = tree.edge_parent[edges]
        first = np.flatnonzero(np.r_[True, parents[1:] != parents[:-1]])
        out.append(Level(edges, parents[first], first))
    return out


def backward_values(tree: GameTree, layers: list[Level], weight: np.ndarray) -> np.ndarray:
    """Every node's expected terminal value (the first player's win probability) with edge
    probabilities ``weight``."""
    values = tree.value.copy()
    for level in layers:
        terms = weight[level.edges] * values[tree.edge_child[level.edges]]
        values[level.parents] = np.add.reduceat(terms, level.offsets)
    return values


def edge_weights(tree: GameTree, sigma: np.ndarray, keep: int | None = None) -> np.ndarray:
    """Edge probabilities: chance's, ``sigma`` (one probability per slot) at decisions, 1 at
    player ``keep``'s (their reach left out, as counterfactual values need)."""
    mover = tree.player[tree.edge_parent]
    weight = tree.edge_prob.copy()
    decision = mover >= 0
    weight[decision] = sigma[tree.edge_slot[decision]]
    if keep is not None:
        weight[mover == keep] = 1.0
    return weight


def forward_reach(tree: GameTree, layers: list[Level], weight: np.ndarray) -> np.ndarray:
    """Every node's reach: the sum over its histories of the product of ``weight`` along
    them (the root 1)."""
    reach = np.zeros(tree.nodes)
    reach[tree.root] = 1.0
    for level in reversed(layers):
        edges = level.edges
        np.add.at(reach, tree.edge_child[edges], reach[tree.edge_parent[edges]] * weight[edges])
    return reach
