# cython: language_level=3
"""The card battle's playout policy for information-set search: the greedy player
(observation.greedy_choice, State.greedy_move) in C, move for move, so that a search can
model both players as greedy ones inside its playouts. It reads only what the mover may
know: their own hand, the table, and the other player's unseen pool (hand, deck and a secret
choice, which the open deck lists make public as a set), never which of those cards are in
the other hand.

- mulligan: keep a hand with a creature (§3.2);
- call: the attribute where the hand's best creature beats most of the other player's unseen
  creatures (the first of equals);
- choose: the creature likeliest to beat one of those, the cheapest (fewest attribute points)
  of equals;
- boost: the smallest playable card that puts the mover on top, else pass.

It is deterministic: the searcher adds its own exploration (``ISMCTS``'s ``epsilon``).
Uniform moves (``sample_move``, what MCTS's random playouts draw) stay the base class's.
"""
from crystalpick.engine.evaluation cimport NO_SAMPLER
from crystalpick.engine.cardbattle._fast cimport Kernel, KState, boost_bonus

from crystalpick.engine.cardbattle import moves as M
from crystalpick.engine.cardbattle import position as P

cdef int SHIFT = M.KIND_SHIFT
cdef int M_KEEP = M.M_KEEP, M_MULLIGAN = M.M_MULLIGAN, M_CALL = M.M_CALL, M_PLAY = M.M_PLAY
cdef int M_BOOST = M.M_BOOST, M_PASS = M.M_PASS
cdef int MULLIGAN = P.MULLIGAN, CALL = P.CALL, CHOOSE = P.CHOOSE, BOOST = P.BOOST
cdef int OVER = P.OVER


cdef inline int win_score(KState* s, int p, int value, int attribute) noexcept nogil:
    """observation.win_chance of ``value`` against the other player's unseen creatures, as
    ``2 * beaten + tied`` over twice their number (-1: none, a sure win)."""
    cdef int q, card, score = 0, count = 0, v
    cdef u64 pool
    for q in range(2):
        if q == p:
            continue
        pool = s.c.hand[q] | s.c.deck[q]
        if s.c.phase == CHOOSE and s.c.chosen[q] >= 0:      # a secret choice is unseen
            pool |= (<u64>1) << s.c.chosen[q]
        pool &= s.d.creatures[q]
        for card in range(s.d.count[q]):
            if (pool >> card) & 1:
                v = s.d.values[q][card][attribute]
                score += 2 if value > v else 1 if value == v else 0
                count += 1
    return -1 if count == 0 else score


cdef inline bint better(int score, int best_score, int count) noexcept nogil:
    """``score`` beats ``best_score`` as win chances with the same denominator (a sure win,
    -1, equals every other sure win)."""
    return count > 0 and score > best_score


cdef inline int unseen_creatures(KState* s, int p) noexcept nogil:
    cdef int q, card, count = 0
    cdef u64 pool
    for q in range(2):
        if q == p:
            continue
        pool = s.c.hand[q] | s.c.deck[q]
        if s.c.phase == CHOOSE and s.c.chosen[q] >= 0:
            pool |= (<u64>1) << s.c.chosen[q]
        pool &= s.d.creatures[q]
        while pool:
            count += 1
            pool &= pool - 1
    return count


cdef class CardBattlePlayout(PlayoutPolicy):
    kernel_class = Kernel

    cdef int playout_move(self, GameKernel kernel, u64* rng) noexcept nogil:
        cdef KState* s = &(<Kernel>kernel).s
        cdef int p = s.c.actor, phase = s.c.phase, a, card, best, value, top, q, best_bonus
        cdef int score, best_score, count, cost, best_cost
        cdef u64 creatures = s.c.hand[p] & s.d.creatures[p]
        if phase == OVER:
            return -2
        if phase == MULLIGAN:
            return (M_KEEP if creatures else M_MULLIGAN) << SHIFT
        if phase == CALL:
            count = unseen_creatures(s, p)
            best, best_score = 0, -2
            for a in range(s.d.attributes):
                top = 0                                      # greedy's default=0
                for card in range(s.d.count[p]):
                    if (creatures >> card) & 1 and s.d.values[p][card][a] > top:
                        top = s.d.values[p][card][a]
                score = win_score(s, p, top, a)
                if best_score == -2 or better(score, best_score, count):
                    best, best_score = a, score
            return M_CALL << SHIFT | best
        if phase == CHOOSE:
            count = unseen_creatures(s, p)
            best, best_score, best_cost = -1, -2, 0
            for card in range(s.d.count[p]):
                if not (creatures >> card) & 1:
                    continue
                score = win_score(s, p, s.d.values[p][card][s.c.attribute], s.c.attribute)
                cost = 0
                for a in range(s.d.attributes):
                    cost += s.d.values[p][card][a]
                if best < 0 or better(score, best_score, count) or (
                        score == best_score and cost < best_cost):
                    best, best_score, best_cost = card, score, cost
            return M_PLAY << SHIFT | s.d.number[p][best]
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
