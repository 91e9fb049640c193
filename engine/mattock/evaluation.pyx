# cython: language_level=3
"""Mattock evaluation: who is likely to run out of cells to mine first.

A player loses when they cannot mine, so the terms measure each side's future mining room.
All are computed for both players from one read-only look at the kernel's ``MState`` and
scored as (side to move) - (opponent):

* ``REACH``: rock cells the player could mine now (touching a tile joined to one of their
  miners, collapse rule allowed). ``EXCLUSIVE`` adds to cells only that player reaches: the
  opponent cannot take them away by mining them first.
* ``MOBILITY``: miner moves available (sum over the player's tile groups of miners x empty
  tiles, capped), i.e. how freely miners can relocate to fresh rock.
* ``LONELY``: a miner with no friend in its tile group can be removed by two enemy miners
  (the removal rule), so it is a liability.
* ``OFF_BOARD``: a removed miner costs the tempo of re-entering it.
* ``TEMPO``: the side to move mines first.

Which cells a player reaches is the kernel's own test (``collapse_allowed``,
``joins_own_miner``), so no rule is written twice.

The sum is clamped to +-EVAL_BOUND. Weights are hand-set, checked only by greedy-vs-random
play (docs/search.md).
"""
from crystalpick.engine.mattock._fast cimport (Kernel, MState, Labels, WORDS, collapse_allowed,
                                              joins_own_miner, miner_labels_of,
                                              lowest_bit)

cdef enum:
    REACH = 12
    EXCLUSIVE = 18
    MOBILITY = 2
    MOBILITY_CAP = 40
    LONELY = 35
    OFF_BOARD = 60
    TEMPO = 10


cdef double mattock_score(Kernel kernel) noexcept nogil:
    """The evaluation for the side to move."""
    cdef MState* s = &kernel.s
    cdef Labels* groups[2]
    cdef int reach[2]
    cdef int exclusive[2]
    cdef int mobility, lonely
    cdef int p = s.to_move, c, side, k, w
    cdef u64 bits
    cdef bint reached[2]
    cdef double total = TEMPO
    cdef u64 allowed[WORDS]
    groups[0] = miner_labels_of(s, 0)       # the groups without miners add no term
    groups[1] = miner_labels_of(s, 1)
    reach[0] = reach[1] = exclusive[0] = exclusive[1] = 0
    collapse_allowed(s, allowed)
    for w in range(WORDS):
        bits = allowed[w]
        while bits:
            c = w * 64 + lowest_bit(bits)
            bits &= bits - 1
            for side in range(2):
                reached[side] = joins_own_miner(s, c, groups[side])
            for side in range(2):
                if reached[side]:
                    reach[side] += 1
                    if not reached[1 - side]:
                        exclusive[side] += 1
    for side in range(2):
        mobility = 0
        lonely = 0
        for k in range(groups[side].count):
            mobility += groups[side].miners[k] * groups[side].empty[k]
            lonely += groups[side].miners[k] == 1
        total += (1 if side == p else -1) * (
            REACH * reach[side] + EXCLUSIVE * exclusive[side]
            + MOBILITY * min(mobility, <int>MOBILITY_CAP) - LONELY * lonely
            - OFF_BOARD * (s.miners_per_player - s.on_board[side]))
    return max(-<double>EVAL_BOUND, min(<double>EVAL_BOUND, total))


cdef class MattockEvaluator(Evaluator):
    kernel_class = Kernel

    cdef double evaluate(self, GameKernel kernel) noexcept nogil:
        return mattock_score(<Kernel>kernel)
