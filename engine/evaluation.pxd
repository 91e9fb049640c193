# The C-level search knowledge a game gives the searchers (Game.evaluator(),
# Game.playout_policy()): called per leaf / playout ply without knowing the game. Neither
# answers rules questions: whose turn it is and which moves exist are the kernel's.
from crystalpick.engine.kernel cimport GameKernel, u64

# Every evaluation lies in [-EVAL_BOUND, EVAL_BOUND]; proven results lie outside it (see
# search/scores.pxd), so a heuristic score can never be mistaken for a proof.
cdef enum:
    EVAL_BOUND = 1000
    NO_SAMPLER = -3          # sample_move: this game has no fast sampler, generate moves

# Reads one kernel class's C state (declared as the class attribute ``kernel_class``). The
# searchers call check() once per kernel they are given, so a wrong pairing is a TypeError
# instead of a read of foreign memory.
cdef class KernelReader:
    pass

cdef class Evaluator(KernelReader):
    # Score of a non-terminal decision node for the side to move, in [-EVAL_BOUND, EVAL_BOUND].
    cdef double evaluate(self, GameKernel kernel) noexcept nogil
    # Score for ``player`` at any non-terminal node, a chance node included (where only a
    # game that can score such a node says more than 0).
    cdef double evaluate_for(self, GameKernel kernel, int player) noexcept nogil

cdef class PlayoutPolicy(KernelReader):
    # A uniformly random legal move at a decision node, -2 if the game is over, or
    # NO_SAMPLER (also at chance nodes) when the caller must generate the moves itself.
    cdef int sample_move(self, GameKernel kernel, u64* rng) noexcept nogil
    # A playout move of the game's own choosing (an informed policy, random or not: the
    # information-set searcher mixes in uniform moves itself) for the information-set
    # searcher; NO_SAMPLER where the caller must draw uniformly itself, -2 if the game is
    # over. Default: sample_move.
    cdef int playout_move(self, GameKernel kernel, u64* rng) noexcept nogil
    # The information-set searcher's determinization for ``player``: kernel.determinize
    # (its contract: pushed on the history, unmake restores), drawn by default uniformly, or
    # conditioned on what this policy, as a model of the others, inferred (``infer``).
    cdef int determinize(self, GameKernel kernel, int player, u64* rng) noexcept nogil
