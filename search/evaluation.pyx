# cython: language_level=3
"""Base per-game hook: knows nothing, scores every position 0 and has no fast sampler.

Games without knowledge of their own (and the test games) still get correct searches:
alpha-beta then only sees proven results and MCTS relies on playouts.
"""


cdef class Evaluator:
    cdef double evaluate(self, GameKernel kernel) noexcept nogil:
        return 0.0

    cdef double evaluate_for(self, GameKernel kernel, int player) noexcept nogil:
        cdef int mover = kernel.player()
        if mover < 0:
            return 0.0
        return self.evaluate(kernel) if mover == player else -self.evaluate(kernel)

    cdef int leaf(self, GameKernel kernel, double* score) noexcept nogil:
        cdef int player = kernel.player()
        if player >= 0:
            score[0] = self.evaluate(kernel)
        return player

    cdef int sample_move(self, GameKernel kernel, u64* rng) noexcept nogil:
        return NO_SAMPLER

    def score(self, state):
        """Python entry for tests and tools: evaluate ``state`` for its side to move."""
        return self.evaluate(<GameKernel>state.kernel)

    def score_for(self, state, int player):
        """Python entry for tests and tools: the evaluation from ``player``'s point of view,
        at a chance node too."""
        return self.evaluate_for(<GameKernel>state.kernel, player)

    def leaf_player(self, state):
        """Python entry for tests: the player ``leaf`` reports for ``state``."""
        cdef double score
        return self.leaf(<GameKernel>state.kernel, &score)

    def sample(self, state, unsigned long long seed):
        """Python entry for tests: ``sample_move`` with a generator seeded by ``seed``."""
        cdef u64 rng = seed
        return self.sample_move(<GameKernel>state.kernel, &rng)
