"""The sequence-form linear program (Koller, Megiddo, von Stengel 1994): an exact equilibrium of
a two-player zero-sum game with perfect recall, solved by HiGHS (``scipy.optimize.linprog``).

A player's *sequence* is the (information set, move) slot of their last decision on a path, or
the empty sequence; a *realization plan* gives each sequence the probability that the player's
own moves follow it, with ``x[empty] = 1`` and, at each of their information sets ``I``, the
plan of ``I``'s sequences summing to the plan of the sequence that leads to ``I`` (``E x = e``;
``F y = f`` for the other player). The payoff ``A[s, t]`` is the first player's win probability
summed over the terminal nodes reached with sequences ``s`` and ``t``, each weighted by chance's
reach. The first player solves

    max v_0   subject to   F^T v <= A^T x,   E x = e,   x >= 0,   v free

(the inner minimum over the other player's plans, replaced by its LP dual) and the second
player the same LP with ``-A^T`` and the roles swapped. Both optima are the game value, so the
two solutions are an equilibrium; their behaviour strategies are ``x[(I, a)] / x[parent(I)]``
(uniform where a set is never reached). Built on the information-set tree of ``tree.py``
(nodes merge only where both players' own pasts agree, so each node has one sequence pair).
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from scipy import sparse
from scipy.optimize import linprog

from crystalpick.engine.game import TERMINAL

from .levels import forward_reach, levels
from .tree import GameTree


class LPFailed(RuntimeError):
    """HiGHS did not report an optimum (never expected: the sequence-form LP is feasible and
    bounded for any finite game)."""


@dataclass(frozen=True)
class SequenceFormResult:
    value: float                # the first player's equilibrium win probability
    strategy: np.ndarray        # both players' equilibrium, one probability per slot
    first_value: float          # the first player's LP optimum
    second_value: float         # minus the second player's LP optimum (equal up to rounding)
    sequences: tuple[int, int]  # realization-plan variables of each player
    nonzeros: int               # non-zero payoff entries
    seconds: float


@dataclass(frozen=True)
class _Side:
    """One player's sequences: slot -> sequence index (the empty sequence is 0) and the
    constraints ``E x = e`` as a sparse matrix (row 0: the empty sequence; row 1 + k: the k-th
    of the player's information sets)."""
    index: np.ndarray           # per slot: the sequence index, -1 for the other player's slots
    count: int
    constraints: sparse.csr_matrix
    sets: np.ndarray            # the player's information sets, in row order
    parent: np.ndarray          # per such set: the sequence index leading to it


def node_sequences(tree: GameTree, layers) -> np.ndarray:
    """Per node and player, the slot of the player's last decision above it (-1: none)."""
    sequence = np.full((tree.nodes, 2), -1, dtype=np.int64)
    mover = tree.player[tree.edge_parent]
    for level in reversed(layers):              # parents before children
        edges = level.edges
        parents, children = tree.edge_parent[edges], tree.edge_child[edges]
        for player in (0, 1):
            own = mover[edges] == player
            sequence[children, player] = np.where(own, tree.edge_slot[edges],
                                                  sequence[parents, player])
    return sequence


def _side(tree: GameTree, player: int, sequence: np.ndarray) -> _Side:
    own_slots = np.flatnonzero(tree.slot_player == player)
    index = np.full(tree.slots, -1, dtype=np.int64)
    index[own_slots] = 1 + np.arange(len(own_slots))
    sets = np.flatnonzero(tree.infoset_player == player)
    above = sequence[tree.infoset_node[sets], player]
    parent = np.where(above >= 0, index[np.maximum(above, 0)], 0)
    rows, columns, data = [0], [0], [1.0]
    for row, (infoset, lead) in enumerate(zip(sets.tolist(), parent.tolist()), start=1):
        info = tree.infosets[infoset]
        rows += [row] * (len(info.moves) + 1)
        columns += [lead] + index[info.first_slot:info.first_slot + len(info.moves)].tolist()
        data += [-1.0] + [1.0] * len(info.moves)
    constraints = sparse.csr_matrix((data, (rows, columns)),
                                    shape=(1 + len(sets), 1 + len(own_slots)))
    return _Side(index, 1 + len(own_slots), constraints, sets, parent)


def payoff_matrix(tree: GameTree, layers, sequence: np.ndarray, sides) -> sparse.csr_matrix:
    """``A[s, t]``: the first player's win probability over terminal nodes with sequences
    ``s`` and ``t``, weighted by chance's reach (decision edges weigh 1)."""
    chance = forward_reach(tree, layers, tree.edge_prob)
    ends = np.flatnonzero((tree.player == TERMINAL) & (chance > 0))
    rows, columns = ([np.where(sequence[ends, p] >= 0, sides[p].index[sequence[ends, p]], 0)
                      for p in (0, 1)])
    return sparse.csr_matrix((chance[ends] * tree.value[ends], (rows, columns)),
                             shape=(sides[0].count, sides[1].count))


def _maximin(payoff: sparse.csr_matrix, own: _Side, other: _Side) -> tuple[float, np.ndarray]:
    """The row player's guaranteed payoff and optimal realization plan (the LP above)."""
    plans, values = own.count, other.constraints.shape[0]
    objective = np.zeros(plans + values)
    objective[plans] = -1.0                                     # maximise v_0
    upper = sparse.hstack([-payoff.T, other.constraints.T], format="csr")
    equal = sparse.hstack([own.constraints, sparse.csr_matrix((own.constraints.shape[0],
                                                               values))], format="csr")
    right = np.zeros(own.constraints.shape[0])
    right[0] = 1.0
    result = linprog(objective, A_ub=upper, b_ub=np.zeros(upper.shape[0]), A_eq=equal,
                     b_eq=right, bounds=[(0, None)] * plans + [(None, None)] * values,
                     method="highs")
    if result.status != 0:
        raise LPFailed(f"HiGHS: {result.message}")
    return -result.fun, np.maximum(result.x[:plans], 0.0)


def _behaviour(tree: GameTree, side: _Side, plan: np.ndarray, strategy: np.ndarray) -> None:
    """Write the plan's behaviour strategy into ``strategy`` (one probability per slot)."""
    for infoset, lead in zip(side.sets.tolist(), side.parent.tolist()):
        info = tree.infosets[infoset]
        slots = slice(info.first_slot, info.first_slot + len(info.moves))
        reach = plan[side.index[slots]]
        total = reach.sum()
        strategy[slots] = reach / total if plan[lead] > 0 and total > 0 else 1.0 / len(reach)


def solve_sequence_form(tree: GameTree) -> SequenceFormResult:
    """The exact equilibrium of the game on ``tree`` (``build_tree(recall=True)``)."""
    if not tree.recall:
        raise ValueError("the sequence form needs information sets with perfect recall "
                         "(recall=True)")
    start = time.perf_counter()
    layers = levels(tree)
    sequence = node_sequences(tree, layers)
    sides = (_side(tree, 0, sequence), _side(tree, 1, sequence))
    payoff = payoff_matrix(tree, layers, sequence, sides)
    first, plan0 = _maximin(payoff, sides[0], sides[1])
    second, plan1 = _maximin(-payoff.T.tocsr(), sides[1], sides[0])
    strategy = np.zeros(tree.slots)
    _behaviour(tree, sides[0], plan0, strategy)
    _behaviour(tree, sides[1], plan1, strategy)
    return SequenceFormResult((first - second) / 2.0, strategy, first, -second,
                              (sides[0].count, sides[1].count), payoff.nnz,
                              time.perf_counter() - start)
