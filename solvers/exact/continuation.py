"""Exact continuation values: what each position of a solved game is worth under a strategy
profile (an equilibrium), by its ``hash_key``, for a depth-limited search to take at its
horizon (search/leaf_values.pyx ``TableLeafValues``) so that the search can be checked
against the exact solution with nothing at its leaves estimated."""
from __future__ import annotations

import numpy as np

from .levels import backward_values, edge_weights, levels
from .tree import GameTree


def continuation_values(tree: GameTree, sigma: np.ndarray) -> dict[int, float]:
    """``{position hash_key: the first player's expected result in -1..1}`` with both
    players playing ``sigma`` (one probability per slot) from there. A position met with
    different pasts that give it different values (a player's own past changes their play
    ahead) is left out: it has no value of its own."""
    values = 2.0 * backward_values(tree, levels(tree), edge_weights(tree, sigma)) - 1.0
    order = np.argsort(tree.node_key, kind="stable")
    keys, values = tree.node_key[order], values[order]
    first = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    low = np.minimum.reduceat(values, first)
    high = np.maximum.reduceat(values, first)
    single = high - low <= 1e-9
    return {int(key): float(value) for key, value in zip(keys[first][single], low[single])}
