# The C-level game interface: every fast game kernel subclasses GameKernel, and the searchers
# call these methods through Cython's vtable, so no Python call happens per node.
# Codes and meanings are those of engine/game.py (players 0/1, CHANCE = -1, TERMINAL = -2).

ctypedef unsigned long long u64

cdef class GameKernel:
    # 0 or 1 to move, -1 at a chance node, -2 when the game is over.
    cdef int player(self) noexcept nogil
    # Number of legal moves (or chance outcomes) in this state.
    cdef long long move_count(self) noexcept nogil
    # Write the legal moves (or chance outcomes) to out if they fit in capacity; return their
    # number either way (a caller whose buffer was too small allocates that many and retries).
    cdef long long moves(self, int* out, long long capacity) noexcept nogil
    # At a chance node: the probability of each outcome, in the order of moves(); else 0.
    cdef long long outcome_probabilities(self, double* out, long long capacity) noexcept nogil
    cdef void make(self, int move) noexcept nogil
    cdef void unmake(self) noexcept nogil
    cdef u64 hash_key(self) noexcept nogil
    # Player 0's result at a terminal state: +1 win, -1 loss, 0 draw.
    cdef double terminal_value(self) noexcept nogil
