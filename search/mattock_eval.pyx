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

The same pass tells whether the side to move can mine at all, so ``leaf`` answers the
kernel's "is the game over" with the evaluation for free; ``sample_move`` draws a uniformly
random turn without listing the turns (for MCTS playouts).

The sum is clamped to +-EVAL_BOUND. Weights are hand-set, checked only by greedy-vs-random
play (docs/search.md).
"""
from crystalpick.engine.mattock._fast cimport (Kernel, MState, Labels, MAX_CELLS, WORDS, collapse_allows,
                                   labels_of, list_tiles, lowest_bit)
from crystalpick.search.rng cimport random_below

cdef enum:
    REACH = 12
    EXCLUSIVE = 18
    MOBILITY = 2
    MOBILITY_CAP = 40
    LONELY = 35
    OFF_BOARD = 60
    TEMPO = 10


cdef inline bint reaches(MState* s, int c, Labels* g) noexcept nogil:
    """Whether a tile next to ``c`` is joined to one of the player's miners."""
    cdef int i, k
    for i in range(s.touching[c]):
        k = g.group[s.tile_neighbours[c][i]]
        if k >= 0 and g.miners[k] > 0:
            return True
    return False


cdef double mattock_score(Kernel kernel, int* reach_of_mover) noexcept nogil:
    """The evaluation for the side to move; also reports how many cells it can mine (0 means
    the game is over, exactly as the kernel's own test)."""
    cdef MState* s = &kernel.s
    cdef Labels* groups[2]
    cdef int reach[2]
    cdef int exclusive[2]
    cdef int mobility, lonely
    cdef int p = s.to_move, c, side, k, w
    cdef u64 bits
    cdef bint reached[2]
    cdef double total = TEMPO
    groups[0] = labels_of(s, 0)
    groups[1] = labels_of(s, 1)
    reach[0] = reach[1] = exclusive[0] = exclusive[1] = 0
    for w in range(WORDS):
        bits = s.frontier[w]
        while bits:
            c = w * 64 + lowest_bit(bits)
            bits &= bits - 1
            if not collapse_allows(s, c):
                continue
            for side in range(2):
                reached[side] = reaches(s, c, groups[side])
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
    reach_of_mover[0] = reach[p]
    return max(-<double>EVAL_BOUND, min(<double>EVAL_BOUND, total))


cdef int nth_cell(int* cells, int count, Labels* g, bint* in_set, int k, int n,
                  int extra) noexcept nogil:
    """The n-th of ``cells`` (``extra`` first if >= 0) in group ``k``, or in any group marked
    in ``in_set`` if k < 0."""
    cdef int i, group
    if extra >= 0:
        if n == 0:
            return extra
        n -= 1
    for i in range(count):
        group = g.group[cells[i]]
        if in_set[group] if k < 0 else group == k:
            if n == 0:
                return cells[i]
            n -= 1
    return -1


cdef int uniform_turn(Kernel kernel, u64* rng) noexcept nogil:
    """A uniformly random legal turn (encoded like the kernel's), or -2 if none.

    The kernel's counting formula (see engine/mattock/_fast.pyx) gives each mine cell's
    number of turns without listing them: pick a cell in proportion, then the turn's index
    among that cell's turns: "no move", then merged-group moves, then the other groups'."""
    cdef MState* s = &kernel.s
    cdef Labels* g = labels_of(s, s.to_move)
    cdef int cells[MAX_CELLS]
    cdef long long counts[MAX_CELLS]
    cdef bint in_merged[MAX_CELLS]
    cdef int own[MAX_CELLS]                # the mover's miners and the empty tiles, ascending
    cdef int empty[MAX_CELLS]
    cdef int p = s.to_move, placed = s.on_board[s.to_move] < s.miners_per_player
    cdef int n = 0, c, i, j, k, nb, m, e, source, target, merged_count
    cdef int own_count, empty_count, w
    cdef u64 bits
    cdef int merged[4]
    cdef bint collapses
    cdef long long base = 0, total = 0, r, merged_pairs
    merged[0] = merged[1] = merged[2] = -1
    for k in range(g.count):
        base += g.miners[k] * g.empty[k]
        in_merged[k] = False
    own_count = list_tiles(s, p, own, empty, &empty_count)
    for w in range(WORDS):
        bits = s.frontier[w]
        while bits:
            c = w * 64 + lowest_bit(bits)
            bits &= bits - 1
            # one look at the neighbours: collapse rule, reach, and the groups c would merge
            merged_count = 0
            collapses = False
            for i in range(s.touching[c]):
                nb = s.tile_neighbours[c][i]
                if s.touching[nb] >= 3:
                    collapses = True
                    break
                k = g.group[nb]
                if k >= 0 and k != merged[0] and k != merged[1] and k != merged[2]:
                    merged[merged_count] = k
                    merged_count += 1
            if collapses or merged_count == 0:
                merged[0] = merged[1] = merged[2] = -1
                continue
            m = placed
            e = 1 - placed
            counts[n] = 1 + base
            for j in range(merged_count):
                k = merged[j]
                m += g.miners[k]
                e += g.empty[k]
                counts[n] -= g.miners[k] * g.empty[k]
            merged[0] = merged[1] = merged[2] = -1
            if m == placed:                  # touches only groups without the player's miners
                continue
            counts[n] += <long long>m * e
            cells[n] = c
            total += counts[n]
            n += 1
    if n == 0:
        return -2
    r = random_below(rng, total)
    i = 0
    while r >= counts[i]:
        r -= counts[i]
        i += 1
    c = cells[i]
    if r == 0:
        return c
    r -= 1
    m = placed
    e = 1 - placed
    for j in range(s.touching[c]):
        k = g.group[s.tile_neighbours[c][j]]
        if k >= 0 and not in_merged[k]:
            in_merged[k] = True
            m += g.miners[k]
            e += g.empty[k]
    merged_pairs = <long long>m * e
    if r < merged_pairs:
        source = nth_cell(own, own_count, g, in_merged, -1, r // e, c if placed else -1)
        target = nth_cell(empty, empty_count, g, in_merged, -1, r % e, -1 if placed else c)
    else:
        r -= merged_pairs
        for k in range(g.count):
            if in_merged[k]:
                continue
            if r < g.miners[k] * g.empty[k]:
                break
            r -= g.miners[k] * g.empty[k]
        source = nth_cell(own, own_count, g, in_merged, k, r // g.empty[k], -1)
        target = nth_cell(empty, empty_count, g, in_merged, k, r % g.empty[k], -1)
    return c | (source + 1) << 8 | (target + 1) << 16


cdef class MattockEvaluator(Evaluator):
    cdef double evaluate(self, GameKernel kernel) noexcept nogil:
        cdef int reach
        return mattock_score(<Kernel>kernel, &reach)

    cdef int leaf(self, GameKernel kernel, double* score) noexcept nogil:
        cdef int reach
        score[0] = mattock_score(<Kernel>kernel, &reach)
        return (<Kernel>kernel).s.to_move if reach > 0 else -2

    cdef int sample_move(self, GameKernel kernel, u64* rng) noexcept nogil:
        return uniform_turn(<Kernel>kernel, rng)
