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

The sum is clamped to +-EVAL_BOUND. Weights are hand-set, checked only by greedy-vs-random
play (docs/search.md).
"""
from engine.mattock._fast cimport Kernel, MState, MAX_CELLS

cdef enum:
    REACH = 12
    EXCLUSIVE = 18
    MOBILITY = 2
    MOBILITY_CAP = 40
    LONELY = 35
    OFF_BOARD = 60
    TEMPO = 10


cdef struct SideTerms:
    int mobility
    int lonely


cdef void label_groups(MState* s, int player, int* group, int* group_miners,
                       SideTerms* terms) noexcept nogil:
    """Group the tiles ``player`` can travel (no opponent miner) and fill its terms."""
    cdef int stack[MAX_CELLS]
    cdef int group_empty
    cdef int opponent = 1 - player
    cdef int c, top, cur, i, nb, k = 0
    terms.mobility = 0
    terms.lonely = 0
    for c in range(s.cells):
        group[c] = -1
    for c in range(s.cells):
        if group[c] >= 0 or not s.tile[c] or s.miner[c] == opponent:
            continue
        group_miners[k] = 0
        group_empty = 0
        group[c] = k
        stack[0] = c
        top = 1
        while top:
            top -= 1
            cur = stack[top]
            if s.miner[cur] == player:
                group_miners[k] += 1
            else:
                group_empty += 1
            for i in range(s.neighbour_count[cur]):
                nb = s.neighbours[cur][i]
                if group[nb] < 0 and s.tile[nb] and s.miner[nb] != opponent:
                    group[nb] = k
                    stack[top] = nb
                    top += 1
        terms.mobility += group_miners[k] * group_empty
        if group_miners[k] == 1:
            terms.lonely += 1
        k += 1


cdef double mattock_score(MState* s) noexcept nogil:
    cdef int group[2][MAX_CELLS]
    cdef int group_miners[2][MAX_CELLS]
    cdef SideTerms terms[2]
    cdef int reach[2]
    cdef int exclusive[2]
    cdef int p = s.to_move, c, i, nb, side, k
    cdef bint collapses, reached[2]
    cdef double total = TEMPO
    label_groups(s, 0, group[0], group_miners[0], &terms[0])
    label_groups(s, 1, group[1], group_miners[1], &terms[1])
    reach[0] = reach[1] = exclusive[0] = exclusive[1] = 0
    for c in range(s.cells):
        if s.tile[c] or s.touching[c] == 0 or s.touching[c] > 3:
            continue
        collapses = False
        reached[0] = reached[1] = False
        for i in range(s.neighbour_count[c]):
            nb = s.neighbours[c][i]
            if not s.tile[nb]:
                continue
            if s.touching[nb] >= 3:
                collapses = True
                break
            for side in range(2):
                k = group[side][nb]
                if k >= 0 and group_miners[side][k] > 0:
                    reached[side] = True
        if collapses:
            continue
        for side in range(2):
            if reached[side]:
                reach[side] += 1
                if not reached[1 - side]:
                    exclusive[side] += 1
    for side in range(2):
        total += (1 if side == p else -1) * (
            REACH * reach[side] + EXCLUSIVE * exclusive[side]
            + MOBILITY * min(terms[side].mobility, <int>MOBILITY_CAP)
            - LONELY * terms[side].lonely
            - OFF_BOARD * (s.miners_per_player - s.on_board[side]))
    return max(-<double>EVAL_BOUND, min(<double>EVAL_BOUND, total))


cdef class MattockEvaluator(Evaluator):
    cdef double evaluate(self, GameKernel kernel) noexcept nogil:
        return mattock_score(&(<Kernel>kernel).s)
