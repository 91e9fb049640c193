"""Zero-sum matrix games solved exactly by linear programming (a small simplex, numpy only).

The row player maximises ``x @ A @ y``. Shifting ``A`` to be positive, the column player's
problem becomes ``max sum(u) s.t. B u <= 1, u >= 0`` (``B = A + shift``), whose slack basis
is feasible at the origin, so one phase of the tableau simplex suffices; the row player's
strategy is read from the dual (the final reduced costs of the slacks). Bland's rule keeps the
simplex from cycling on the degenerate games that card positions produce. Float arithmetic:
values are exact to about 1e-12 on the small games this serves.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

EPS = 1e-12


@dataclass(frozen=True)
class MatrixSolution:
    value: float            # the row player's equilibrium payoff
    row: np.ndarray         # the row player's optimal mixed strategy
    column: np.ndarray      # the column player's optimal mixed strategy


def solve_matrix_game(payoff) -> MatrixSolution:
    """The value and an optimal strategy pair of the zero-sum game ``payoff`` (row player's
    payoffs, rows maximise)."""
    a = np.asarray(payoff, dtype=float)
    if a.ndim != 2 or 0 in a.shape:
        raise ValueError(f"a matrix game needs a non-empty 2-d payoff table, got shape {a.shape}")
    rows, columns = a.shape
    shift = 1.0 - a.min()
    tableau = np.zeros((rows + 1, columns + rows + 1))
    tableau[:rows, :columns] = a + shift
    tableau[:rows, columns:columns + rows] = np.eye(rows)
    tableau[:rows, -1] = 1.0
    tableau[rows, :columns] = -1.0
    basis = list(range(columns, columns + rows))
    while True:
        entering = next((j for j in range(columns + rows) if tableau[rows, j] < -EPS), None)
        if entering is None:
            break
        column = tableau[:rows, entering]
        candidates = [i for i in range(rows) if column[i] > EPS]
        ratios = [tableau[i, -1] / column[i] for i in candidates]
        best = min(ratios)
        leaving = min((i for i, r in zip(candidates, ratios) if r <= best + EPS),
                      key=lambda i: basis[i])
        tableau[leaving] /= tableau[leaving, entering]
        for i in range(rows + 1):
            if i != leaving and tableau[i, entering] != 0.0:
                tableau[i] -= tableau[i, entering] * tableau[leaving]
        basis[leaving] = entering
    total = tableau[rows, -1]
    solution = np.zeros(columns + rows)
    solution[basis] = tableau[:rows, -1]
    column_strategy = np.maximum(solution[:columns], 0.0)
    row_strategy = np.maximum(tableau[rows, columns:columns + rows], 0.0)
    return MatrixSolution(value=1.0 / total - shift, row=row_strategy / row_strategy.sum(),
                          column=column_strategy / column_strategy.sum())
