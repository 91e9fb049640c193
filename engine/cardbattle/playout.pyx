# cython: language_level=3
"""The card battle's playout policy for information-set search: a randomised greedy player
that reads only the mover's own hand and what is on the table, so a playout from a
determinization does not play as if it saw the other hand.

- mulligan: keep a hand with a creature (§3.2);
- call: the attribute where the hand's best creature is highest, else (1 in 4) any;
- choose: the hand's best creature in the called attribute, else (1 in 2) any creature;
- boost: the smallest playable card that puts the mover on top, else pass.

Uniform moves (``sample_move``, what MCTS's random playouts draw) stay the base class's.
"""
from crystalpick.engine.evaluation cimport NO_SAMPLER
from crystalpick.engine.rng cimport random_below
from crystalpick.engine.cardbattle._fast cimport Kernel, KState, boost_bonus

from crystalpick.engine.cardbattle import moves as M
from crystalpick.engine.cardbattle import position as P

cdef int SHIFT = M.KIND_SHIFT
cdef int M_KEEP = M.M_KEEP, M_MULLIGAN = M.M_MULLIGAN, M_CALL = M.M_CALL, M_PLAY = M.M_PLAY
cdef int M_BOOST = M.M_BOOST, M_PASS = M.M_PASS
cdef int MULLIGAN = P.MULLIGAN, CALL = P.CALL, CHOOSE = P.CHOOSE, BOOST = P.BOOST
cdef int OVER = P.OVER


cdef inline int best_creature(KState* s, int p, int attribute, u64 rng_pick, u64* rng) noexcept nogil:
    """The creature in hand highest in ``attribute`` (the first of equals), or with
    ``rng_pick`` a random one; -1 if none."""
    cdef u64 cards = s.c.hand[p] & s.d.creatures[p]
    cdef int card, best = -1, count = 0, target
    cdef u64 rest = cards
    while rest:
        count += 1
        rest &= rest - 1
    if count == 0:
        return -1
    if rng_pick:
        target = random_below(rng, count)
    for card in range(s.d.count[p]):
        if not (cards >> card) & 1:
            continue
        if rng_pick:
            if target == 0:
                return card
            target -= 1
        elif best < 0 or s.d.values[p][card][attribute] > s.d.values[p][best][attribute]:
            best = card
    return best


cdef class CardBattlePlayout(PlayoutPolicy):
    kernel_class = Kernel

    cdef int playout_move(self, GameKernel kernel, u64* rng) noexcept nogil:
        cdef KState* s = &(<Kernel>kernel).s
        cdef int p = s.c.actor, phase = s.c.phase, a, card, best, value, top, q, best_bonus
        if phase == OVER:
            return -2
        if phase == MULLIGAN:
            return (M_KEEP if s.c.hand[p] & s.d.creatures[p] else M_MULLIGAN) << SHIFT
        if phase == CALL:
            if random_below(rng, 4) == 0:
                return M_CALL << SHIFT | random_below(rng, s.d.attributes)
            best, top = 0, -1
            for a in range(s.d.attributes):
                card = best_creature(s, p, a, 0, rng)
                if card >= 0 and s.d.values[p][card][a] > top:
                    top = s.d.values[p][card][a]
                    best = a
            return M_CALL << SHIFT | best
        if phase == CHOOSE:
            card = best_creature(s, p, s.c.attribute, random_below(rng, 2), rng)
            return M_PLAY << SHIFT | s.d.number[p][card]
        if phase == BOOST:
            top = -1
            for q in range(2):
                if q != p and s.c.contending[q] and s.c.value[q] > top:
                    top = s.c.value[q]
            best, best_bonus = -1, 1 << 30
            value = s.c.value[p]
            for card in range(s.d.count[p]):
                if not (s.c.hand[p] >> card) & 1:
                    continue
                a = boost_bonus(s, p, card, s.c.tie[p] if s.c.tie[p] >= 0 else s.c.chosen[p])
                if a > 0 and value + a > top and a < best_bonus:
                    best, best_bonus = card, a
            if best >= 0:
                return M_BOOST << SHIFT | s.d.number[p][best]
            return M_PASS << SHIFT
        return NO_SAMPLER
