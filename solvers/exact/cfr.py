"""CFR+ over information sets (Tammelin 2014): regret matching with regrets floored at zero,
alternating updates, linearly weighted average strategy. The whole tree is one set of numpy
arrays; an update is a few sweeps over them in C (``cfr_passes``), checked against the numpy
reference (``reference_update``, a level of the tree at a time). The average strategy's
exploitability is measured exactly (``response``) and the run stops once it is at most the
target, so the result is an equilibrium to that stated bound.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from . import cfr_passes
from .levels import backward_values, edge_weights, forward_reach, levels
from .response import Exploitability, exploitability, tabular
from .tree import GameTree


@dataclass
class CFRResult:
    average: np.ndarray              # the average strategy, one probability per slot
    iterations: int
    measured: Exploitability          # of the average strategy, exact
    history: list[tuple[int, float]] = field(default_factory=list)  # (iteration, expl.)
    seconds: float = 0.0
    stopped: bool = False             # the stop flag ended it before the target


class CFRPlus:
    def __init__(self, tree: GameTree):
        if not tree.recall:
            raise ValueError("CFR+ needs information sets with perfect recall (recall=True)")
        self.tree = tree
        self.layers = levels(tree)
        self.regret = np.zeros(tree.slots)
        self.total = np.zeros(tree.slots)          # the weighted sum of strategies
        self.iterations = 0
        self.edge_mover = tree.player[tree.edge_parent]
        self.passes = cfr_passes.Passes(tree)

    def normalise(self, weights: np.ndarray) -> np.ndarray:
        """Per information set, ``weights`` made into probabilities (uniform if all zero)."""
        sums = np.bincount(self.tree.slot_infoset, weights, minlength=len(self.tree.infosets))
        per_slot = sums[self.tree.slot_infoset]
        uniform = 1.0 / self.tree.infoset_size[self.tree.slot_infoset]
        return np.where(per_slot > 0, weights / np.where(per_slot > 0, per_slot, 1.0), uniform)

    def update(self, player: int) -> None:
        self.passes.update(player, self.iterations, self.regret, self.total)

    def reference_update(self, player: int) -> None:
        """``update`` in numpy, a level of the tree at a time: the reference the C one is
        tested against."""
        tree = self.tree
        sigma = self.normalise(self.regret)
        values = backward_values(tree, self.layers, edge_weights(tree, sigma))
        utility = values if player == 0 else 1.0 - values
        counterfactual = forward_reach(tree, self.layers, edge_weights(tree, sigma, keep=player))
        own = forward_reach(tree, self.layers, edge_weights(tree, sigma, keep=1 - player))
        mine = self.edge_mover == player
        edges = np.flatnonzero(mine)
        slots = tree.edge_slot[edges]
        q = np.bincount(slots, counterfactual[tree.edge_parent[edges]]
                        * utility[tree.edge_child[edges]], minlength=tree.slots)
        baseline = np.bincount(tree.slot_infoset, sigma * q, minlength=len(tree.infosets))
        players = tree.slot_player == player
        self.regret[players] = np.maximum(
            self.regret[players] + q[players] - baseline[tree.slot_infoset[players]], 0.0)
        reach = own[tree.infoset_node][tree.slot_infoset]
        self.total[players] += (self.iterations + 1) * reach[players] * sigma[players]

    def iterate(self, count: int, stop=None) -> None:
        for _ in range(count):
            if stop is not None and stop.is_set():
                return
            self.update(0)
            self.update(1)
            self.iterations += 1

    def average(self) -> np.ndarray:
        return self.normalise(self.total)

    def measure(self) -> Exploitability:
        strategy = tabular(self.tree, self.average())
        return exploitability(self.tree, (strategy, strategy), self.layers)


def solve_cfr(tree: GameTree, target: float, max_iterations: int = 100_000,
              first_check: int = 16, progress=None, stop=None) -> CFRResult:
    """CFR+ until the average strategy's exact exploitability is at most ``target`` (win
    probability), checked after 16, 32, 64, ... iterations, or ``max_iterations``, or
    until ``stop`` (a stop flag) is set: the average so far, measured, is the result."""
    start = time.perf_counter()
    solver = CFRPlus(tree)
    history = []
    check = first_check
    while True:
        solver.iterate(check - solver.iterations, stop)
        measured = solver.measure()
        history.append((solver.iterations, measured.exploitability))
        if progress:
            progress(solver.iterations, measured.exploitability)
        stopped = stop is not None and stop.is_set()
        if (measured.exploitability <= target or solver.iterations >= max_iterations
                or stopped):
            break
        check = min(2 * check, max_iterations)
    return CFRResult(solver.average(), solver.iterations, measured, history,
                     time.perf_counter() - start, stopped)
