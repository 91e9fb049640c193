# cython: language_level=3
"""Mattock's playout policy: a uniformly random legal turn without listing the turns.

The kernel counts each mine cell's turns by formula (``mine_cell_turns``) and decodes a turn
from its index (``turn_at``); the sampler only draws: a mine cell in proportion to its turns, then
an index among them. So the rules stay in the kernel and a playout ply costs one labelling
and one pass over the mine cells instead of generating every turn.
"""
from crystalpick.engine.mattock._fast cimport (Kernel, MState, Labels, MAX_CELLS, labels_of,
                                              mine_cell_turns, turn_at)
from crystalpick.engine.rng cimport random_below


cdef int uniform_turn(MState* s, u64* rng) noexcept nogil:
    """A uniformly random legal turn, or -2 if the game is over."""
    cdef Labels* own = labels_of(s, s.to_move)
    cdef int cells[MAX_CELLS]
    cdef long long counts[MAX_CELLS]
    cdef int n = mine_cell_turns(s, own, cells, counts), i
    cdef long long total = 0, r
    if n == 0:
        return -2
    for i in range(n):
        total += counts[i]
    r = random_below(rng, total)
    i = 0
    while r >= counts[i]:
        r -= counts[i]
        i += 1
    return turn_at(s, own, cells[i], r)


cdef class MattockPlayout(PlayoutPolicy):
    kernel_class = Kernel

    cdef int sample_move(self, GameKernel kernel, u64* rng) noexcept nogil:
        return uniform_turn(&(<Kernel>kernel).s, rng)
