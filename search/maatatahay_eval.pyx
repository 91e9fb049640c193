# cython: language_level=3
"""Maatatahay evaluation: the score as it stands, plus the crystals in hand.

A first, deliberately small evaluation (the issue also asks for warrior safety under
surround risk, relic prospects and remaining tiles; they need more of the kernel than it
exports today). Terms, (side to move) - (opponent):

* ``POINTS``: the points the kernel would count now (relics, living warriors' gems and
  Spirit), which decide the game.
* ``STORED``: crystals in storage, the means to strengthen and pay for temples later.

Clamped to +-EVAL_BOUND. Reads the kernel's state only through its exported ``scores``.
"""
from engine.maatatahay._fast cimport Kernel as MaatatahayKernel, KState, scores

cdef enum:
    POINTS = 40
    STORED = 4


cdef class MaatatahayEvaluator(Evaluator):
    cdef double evaluate(self, GameKernel kernel) noexcept nogil:
        cdef KState* s = &(<MaatatahayKernel>kernel).s
        cdef int points[2]
        cdef int p = kernel.player(), side
        cdef double total = 0.0
        if p < 0:
            return 0.0
        scores(s, points)
        for side in range(2):
            total += (1 if side == p else -1) * (
                POINTS * points[side]
                + STORED * (s.c.storage_spirit[side] + s.c.storage_energy[side]))
        return max(-<double>EVAL_BOUND, min(<double>EVAL_BOUND, total))
