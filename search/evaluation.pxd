# The C-level per-game hook: searchers call it per leaf / playout ply without knowing the game.
from crystalpick.engine.kernel cimport GameKernel, u64

# Every evaluation lies in [-EVAL_BOUND, EVAL_BOUND]; proven results lie outside it (see
# search/scores.pxd), so a heuristic score can never be mistaken for a proof.
cdef enum:
    EVAL_BOUND = 1000
    NO_SAMPLER = -3          # sample_move: this game has no fast sampler, generate moves

cdef class Evaluator:
    # Score of a non-terminal decision node for the side to move, in [-EVAL_BOUND, EVAL_BOUND].
    cdef double evaluate(self, GameKernel kernel) noexcept nogil
    # Score for ``player`` at any non-terminal node, a chance node included (where only a
    # game that can score such a node says more than 0).
    cdef double evaluate_for(self, GameKernel kernel, int player) noexcept nogil
    # kernel.player(), and at a decision node its evaluation in score[0]: a game may get both
    # from one pass over its position (the default asks the kernel, then evaluates).
    cdef int leaf(self, GameKernel kernel, double* score) noexcept nogil
    # A uniformly random legal move at a decision node, -2 if the game is over, or
    # NO_SAMPLER (also at chance nodes) when the caller must generate the moves itself.
    cdef int sample_move(self, GameKernel kernel, u64* rng) noexcept nogil
