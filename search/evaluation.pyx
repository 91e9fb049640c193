# cython: language_level=3
"""Base evaluation: knows nothing, scores every position 0.

Games without an evaluation of their own (and the test games) still get correct searches:
alpha-beta then only sees proven results and MCTS relies on playouts.
"""


cdef class Evaluator:
    cdef double evaluate(self, GameKernel kernel) noexcept nogil:
        return 0.0

    def score(self, state):
        """Python entry for tests and the greedy player: evaluate ``state`` (side to move)."""
        return self.evaluate(<GameKernel>state.kernel)
