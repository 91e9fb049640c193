# cython: language_level=3
"""Chance Nim's kernel (rules in chance_nim.py): small enough to solve by brute force."""
from crystalpick.engine.kernel cimport GameKernel, u64, MAX_PLIES, ply_overflow

cdef enum:
    MAX_TAKE = 3

cdef double ADD_BACK[3]
ADD_BACK[:] = [0.5, 1.0 / 3.0, 1.0 / 6.0]     # probability that 0, 1, 2 stones come back

cdef struct NimState:
    int pile, to_move, chance_pending, turns, last_mover


cdef class Kernel(GameKernel):
    cdef NimState s
    cdef int turn_limit, depth
    cdef NimState history[MAX_PLIES]       # a snapshot per make: unmake just restores it

    def __init__(self, int pile, int to_move=0, int chance_pending=0, int turns=0,
                 int turn_limit=8):
        self.s.pile, self.s.to_move, self.s.chance_pending = pile, to_move, chance_pending
        self.s.turns, self.s.last_mover = turns, 1 - to_move
        self.turn_limit = turn_limit
        self.depth = 0

    cdef int player(self) noexcept nogil:
        if self.s.pile == 0 or self.s.turns >= self.turn_limit:
            return -2
        return -1 if self.s.chance_pending else self.s.to_move

    cdef long long move_count(self) noexcept nogil:
        cdef int p = self.player()
        if p == -2:
            return 0
        return 3 if p == -1 else min(self.s.pile, <int>MAX_TAKE)

    cdef long long moves(self, int* out, long long capacity) noexcept nogil:
        """Decisions are 1..3 stones taken, chance outcomes 0..2 stones put back."""
        cdef long long n = self.move_count(), i
        if n <= capacity:
            for i in range(n):
                out[i] = i if self.s.chance_pending else i + 1
        return n

    cdef long long outcome_probabilities(self, double* out, long long capacity) noexcept nogil:
        cdef long long i
        if self.player() != -1:
            return 0
        if capacity >= 3:
            for i in range(3):
                out[i] = ADD_BACK[i]
        return 3

    cdef void make(self, int move) noexcept nogil:
        if self.depth >= MAX_PLIES:
            ply_overflow()
        self.history[self.depth] = self.s
        self.depth += 1
        if self.s.chance_pending:
            self.s.pile += move
            self.s.chance_pending = 0
        else:
            self.s.pile -= move
            self.s.last_mover = self.s.to_move
            # the next mover already (not after the chance event): the notation writes it
            # and the parser derives last_mover from it
            self.s.to_move = 1 - self.s.to_move
            self.s.turns += 1
            self.s.chance_pending = self.s.pile > 0

    cdef void unmake(self) noexcept nogil:
        self.depth -= 1
        self.s = self.history[self.depth]

    cdef int plies(self) noexcept nogil:
        return self.depth

    cdef u64 hash_key(self) noexcept nogil:
        cdef u64 z = (<u64>self.s.pile | <u64>self.s.to_move << 8
                      | <u64>self.s.chance_pending << 9 | <u64>self.s.turns << 10
                      | <u64>self.s.last_mover << 20) * 0x9E3779B97F4A7C15ULL
        return z ^ (z >> 29)

    cdef double terminal_value(self) noexcept nogil:
        if self.s.pile == 0:
            return 1.0 if self.s.last_mover == 0 else -1.0
        return 0.0

    # -- Python side (the generic methods are GameKernel's) --

    def clone(self):
        cdef Kernel twin = Kernel.__new__(Kernel)
        twin.s = self.s
        twin.turn_limit = self.turn_limit
        twin.depth = self.depth
        twin.history = self.history
        return twin

    @property
    def result(self):
        return self.terminal_value()

    @property
    def fields(self):
        return (self.s.pile, self.s.to_move, self.s.chance_pending, self.s.turns,
                self.turn_limit)
