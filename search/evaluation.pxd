# The C-level evaluation hook: searchers call evaluate() per leaf without knowing the game.
from engine.kernel cimport GameKernel

# Every evaluation lies in [-EVAL_BOUND, EVAL_BOUND]; proven results lie outside it (see
# search/scores.pxd), so a heuristic score can never be mistaken for a proof.
cdef enum:
    EVAL_BOUND = 1000

cdef class Evaluator:
    # Score of a non-terminal decision node for the side to move, in [-EVAL_BOUND, EVAL_BOUND].
    cdef double evaluate(self, GameKernel kernel) noexcept nogil
