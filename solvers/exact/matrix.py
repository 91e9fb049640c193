"""Zero-sum matrix games solved exactly by linear programming (HiGHS, ``scipy.optimize``).

The row player maximises ``x @ A @ y``: ``max v`` subject to ``A^T x >= v``, ``sum(x) = 1``,
``x >= 0``; the column player's LP is the same on ``-A^T``. Both optima are the value (LP
duality), so the two strategies are an equilibrium. HiGHS's dual simplex is exact to its
tolerances (about 1e-9 here) and, unlike the tableau simplex this replaced, needs no
anti-cycling rule of ours and scales to the sequence form (``sequence.py``).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import linprog


@dataclass(frozen=True)
class MatrixSolution:
    value: float            # the row player's equilibrium payoff
    row: np.ndarray         # the row player's optimal mixed strategy
    column: np.ndarray      # the column player's optimal mixed strategy


def _maximin(a: np.ndarray) -> tuple[float, np.ndarray]:
    """The row player's guaranteed payoff in ``a`` and a strategy that guarantees it."""
    rows, columns = a.shape
    objective = np.zeros(rows + 1)
    objective[-1] = -1.0                                            # maximise v
    upper = np.hstack([-a.T, np.ones((columns, 1))])                # v - x @ A[:, j] <= 0
    equal = np.hstack([np.ones((1, rows)), np.zeros((1, 1))])
    result = linprog(objective, A_ub=upper, b_ub=np.zeros(columns), A_eq=equal, b_eq=[1.0],
                     bounds=[(0, None)] * rows + [(None, None)], method="highs")
    if result.status != 0:
        raise ArithmeticError(f"HiGHS: {result.message}")
    strategy = np.maximum(result.x[:rows], 0.0)
    return -result.fun, strategy / strategy.sum()


def solve_matrix_game(payoff) -> MatrixSolution:
    """The value and an optimal strategy pair of the zero-sum game ``payoff`` (row player's
    payoffs, rows maximise)."""
    a = np.asarray(payoff, dtype=float)
    if a.ndim != 2 or 0 in a.shape:
        raise ValueError(f"a matrix game needs a non-empty 2-d payoff table, got shape {a.shape}")
    value, row = _maximin(a)
    against, column = _maximin(-a.T)
    return MatrixSolution(value=(value - against) / 2.0, row=row, column=column)
