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

As an opponent model it also draws ISMCTS's determinizations, conditioned, after ``infer``,
on what the other player's past play showed about their hand (ISMCTS's ``infer`` option).
"""
from libc.stdlib cimport malloc, free

from crystalpick.engine.evaluation cimport NO_SAMPLER
from crystalpick.engine.cardbattle._fast cimport (Kernel, KState, Core, boost_bonus, bit,
                                                  lowest, popcount)

from crystalpick.engine.cardbattle import moves as M
from crystalpick.engine.cardbattle import position as P

cdef int SHIFT = M.KIND_SHIFT
cdef int SEEK = P.SEEK, TAKEN = P.TAKEN
cdef int M_KEEP = M.M_KEEP, M_MULLIGAN = M.M_MULLIGAN, M_CALL = M.M_CALL, M_PLAY = M.M_PLAY
cdef int M_BOOST = M.M_BOOST, M_PASS = M.M_PASS
cdef int MULLIGAN = P.MULLIGAN, CALL = P.CALL, CHOOSE = P.CHOOSE, BOOST = P.BOOST
cdef int OVER = P.OVER


cdef inline Core* core_at(KState* s, int i) noexcept nogil:
    """Core ``i`` of the game so far: the history's, the current one at ``s.ply``."""
    return &s.c if i == s.ply else &s.history[i]


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


cdef inline int attribute_sum(KState* s, int p, int card) noexcept nogil:
    cdef int a, total = 0
    for a in range(s.d.attributes):
        total += s.d.values[p][card][a]
    return total


cdef inline bint ranks_above(int score, int cost, int rival, int rival_cost,
                             int count) noexcept nogil:
    """The greedy choice's order of creatures: likelier to win (``win_score``), then fewer
    attribute points; equals keep the first (the lower index)."""
    return better(score, rival, count) or (score == rival and cost < rival_cost)


cdef inline bint chosen_over(KState* s, int p, int card, int other, int count) noexcept nogil:
    """Whether the greedy choice prefers creature ``card`` to ``other`` (both in hand)."""
    cdef int a = s.c.attribute
    cdef int score = win_score(s, p, s.d.values[p][card][a], a)
    cdef int rival = win_score(s, p, s.d.values[p][other][a], a)
    cdef int cost = attribute_sum(s, p, card), rival_cost = attribute_sum(s, p, other)
    return ranks_above(score, cost, rival, rival_cost, count) or (
        score == rival and cost == rival_cost and card < other)


cdef inline int boost_top(KState* s, int p) noexcept nogil:
    """The highest value among the other contenders: what a boost must beat."""
    cdef int q, top = -1
    for q in range(2):
        if q != p and s.c.contending[q] and s.c.value[q] > top:
            top = s.c.value[q]
    return top


cdef inline int winning_bonus(KState* s, int p, int card, int top) noexcept nogil:
    """What boost ``card`` adds if that puts ``p`` on top, else 0."""
    cdef int a = boost_bonus(s, p, card, s.c.tie[p] if s.c.tie[p] >= 0 else s.c.chosen[p])
    return a if a > 0 and s.c.value[p] + a > top else 0


cdef u64 passed_over(KState* s, int p, int played) noexcept nogil:
    """The cards of ``p`` that greedy would have played rather than ``played`` at this
    decision (a choice, a boost card, or -1 for a pass), had they been in hand."""
    cdef u64 cards = 0
    cdef int card, a, count, top, bonus
    if s.c.phase == CHOOSE:
        count = unseen_creatures(s, p)
        for card in range(s.d.count[p]):
            if (s.d.creatures[p] >> card) & 1 and card != played and chosen_over(
                    s, p, card, played, count):
                cards |= bit(card)
    elif s.c.phase == BOOST:
        top = boost_top(s, p)
        bonus = winning_bonus(s, p, played, top) if played >= 0 else 1 << 30
        for card in range(s.d.count[p]):
            a = winning_bonus(s, p, card, top)
            if card != played and a > 0 and (a < bonus or (a == bonus and card < played)):
                cards |= bit(card)
    return cards


cdef inline int greedy_call(KState* s, int p) noexcept nogil:
    """The attribute where the hand's best creature beats most of the other player's unseen
    creatures, the first of equals."""
    cdef int a, card, top, score, best = 0, best_score = -2
    cdef int count = unseen_creatures(s, p)
    cdef u64 creatures = s.c.hand[p] & s.d.creatures[p]
    for a in range(s.d.attributes):
        top = 0                                      # greedy's default=0
        for card in range(s.d.count[p]):
            if (creatures >> card) & 1 and s.d.values[p][card][a] > top:
                top = s.d.values[p][card][a]
        score = win_score(s, p, top, a)
        if best_score == -2 or better(score, best_score, count):
            best, best_score = a, score
    return best


cdef u64 outcalled(KState* s, int p, int called, int reached) noexcept nogil:
    """The creatures of ``p`` that would have made greedy call another attribute than
    ``called``, whose best creature scored ``reached``: at least as good in an attribute
    before it, better in one after it."""
    cdef u64 cards = 0
    cdef int card, a, score, count = unseen_creatures(s, p)
    if count == 0:
        return 0
    for card in range(s.d.count[p]):
        if not (s.d.creatures[p] >> card) & 1:
            continue
        for a in range(s.d.attributes):
            score = win_score(s, p, s.d.values[p][card][a], a)
            if (a < called and score >= reached) or (a > called and score > reached):
                cards |= bit(card)
                break
    return cards


cdef enum:
    CONDITIONED_TRIES = 64       # hands drawn before the least inconsistent one is taken


cdef class CardBattlePlayout(PlayoutPolicy):
    """The greedy player; after ``infer``, also a model of the other player whose past play
    conditions the searcher's determinizations."""
    kernel_class = Kernel

    def __cinit__(self):
        self.observer = -1
        self.call = NULL

    def __dealloc__(self):
        free(self.call)

    def infer(self, GameKernel kernel, int observer):
        """Condition ``determinize`` for ``observer`` on the other player's play so far in
        ``kernel``'s history, as if they played this policy; return the inferences as
        (card mask, allowed) pairs (at most ``allowed`` of the mask's cards in their hand;
        bit i: their i-th card in number order), with ``("call", attribute)`` when their call
        of this round is replayed on each drawn hand.

        Each choice, boost decision and call of theirs that the observer has seen rules out,
        for the hand they held then, every card that would have made this policy play or
        call otherwise; of those cards, the hand now holds at most as many as they have
        drawn since (a public count). A seek for a creature showed that the hand held none
        (true of any player). A mulligan voids what was known. A call this round whose
        creature is not revealed yet, with no draw since, is checked exactly. Only what the
        observer saw is read: the other hand's size, the cards that leave it when they are
        revealed, the observer's own cards."""
        self.check(kernel)
        if observer not in (0, 1):
            raise ValueError(f"observer must be 0 or 1, got {observer}")
        cdef KState* s = &(<Kernel>kernel).s
        cdef KState* then = <KState*>malloc(sizeof(KState))
        cdef int q = 1 - observer, i, j, plies = s.ply, played, attribute
        cdef Core* h
        cdef Core* after
        cdef u64 left
        cdef int sought = -1, call_at = -1
        if then == NULL:
            raise MemoryError()
        found = []
        self.observer, self.other = observer, q
        free(self.call)
        self.call = NULL
        try:
            then.d = s.d
            drawn = [0] * (plies + 1)           # cards drawn into q's hand after core i
            for i in range(plies - 1, -1, -1):
                drawn[i] = drawn[i + 1] + max(0, popcount(core_at(s, i + 1).hand[q])
                                               - popcount(core_at(s, i).hand[q]))
            for i in range(plies):
                h = core_at(s, i)
                after = core_at(s, i + 1)
                if h.phase == MULLIGAN and h.actor == q and after.mulligan[q] == TAKEN:
                    found = []                  # the whole hand went back to the deck
                    continue
                if h.phase == SEEK and popcount(after.hand[q]) > popcount(h.hand[q]):
                    sought = h.round
                if h.phase == CALL and h.actor == q:
                    call_at = i
                if h.actor != q or not (h.phase == CHOOSE or h.phase == BOOST):
                    continue
                # the card that left the hand is the one played (the move may also have
                # finished the round and cleared the table), public once revealed
                left = h.hand[q] & ~after.hand[q]
                played = lowest(left) if left else -1
                if h.phase == CHOOSE:
                    if played < 0 or (s.c.round == h.round and s.c.phase == CHOOSE):
                        continue                # not revealed yet
                    if sought == h.round:       # held no creature before the seek
                        found.append((s.d.creatures[q], drawn[i + 1]))
                    elif call_at >= 0 and core_at(s, call_at).round == h.round:
                        then.c = core_at(s, call_at)[0]
                        attribute = core_at(s, call_at + 1).attribute
                        found.append((outcalled(then, q, attribute, win_score(
                            then, q, s.d.values[q][played][attribute], attribute)),
                            drawn[call_at + 1]))
                then.c = h[0]
                found.append((passed_over(then, q, played), drawn[i + 1]))
            # oldest first (most drawn since), for the nesting in ``inconsistency``
            found = sorted(((mask, allowed) for mask, allowed in found if mask),
                           key=lambda inference: -inference[1])[-MAX_INFERENCES:]
            for j, (mask, allowed) in enumerate(found):
                self.masks[j], self.allowed[j] = mask, allowed
            self.inferred = len(found)
            if (call_at >= 0 and core_at(s, call_at).round == s.c.round
                    and drawn[call_at + 1] == 0 and s.c.phase in (SEEK, CHOOSE)):
                self.call = then                # replayed on each drawn hand
                then = NULL
                self.call.c = core_at(s, call_at)[0]
                self.called = core_at(s, call_at + 1).attribute
                found.append(("call", self.called))
        finally:
            free(then)
        return found

    cdef int inconsistency(self, KState* s) noexcept nogil:
        """How far the other hand in ``s`` is from the inferences: cards beyond what each
        allows, and one for a replayed call it would not have made. The cards an inference
        rules out must have been drawn since; so must those that later ones rule out, as
        what was drawn since a later decision was drawn since an earlier one too: each
        inference, newest first, counts the union of its own and the newer ones' cards."""
        cdef u64 hand = s.c.hand[self.other], ruled_out = 0
        cdef int i, over, total = 0
        for i in range(self.inferred - 1, -1, -1):
            ruled_out |= hand & self.masks[i]
            over = popcount(ruled_out) - self.allowed[i]
            if over > 0:
                total += over
        if self.call != NULL:
            self.call.c.hand[self.other] = hand
            if greedy_call(self.call, self.other) != self.called:
                total += 1
        return total

    def inconsistency_of(self, state):
        """Python entry for tests: ``inconsistency`` of ``state``'s other hand (a state where
        the other player holds no secret choice: it would be out of the hand)."""
        return self.inconsistency(&(<Kernel>self._kernel_of(state)).s)

    def determinized(self, state, int player, unsigned long long seed):
        """Python entry for tests: a clone of ``state``'s kernel determinized by
        ``determinize`` with a generator seeded by ``seed``."""
        cdef u64 rng = seed
        cdef Kernel twin = self._kernel_of(state).clone()
        self.determinize(twin, player, &rng)
        return twin

    cdef int determinize(self, GameKernel kernel, int player, u64* rng) noexcept nogil:
        """The kernel's determinization, drawn again while inconsistent with the inferences,
        up to CONDITIONED_TRIES times, after which the least inconsistent is taken (the
        model can be wrong about the real player)."""
        cdef KState* s = &(<Kernel>kernel).s
        cdef int tries = 1, wrong, fewest
        cdef u64 start, best = rng[0], after
        if player != self.observer or (self.inferred == 0 and self.call == NULL):
            return kernel.determinize(player, rng)
        kernel.determinize(player, rng)
        fewest = self.inconsistency(s)
        while fewest and tries < CONDITIONED_TRIES:
            kernel.unmake()
            start = rng[0]
            kernel.determinize(player, rng)
            wrong = self.inconsistency(s)
            if wrong < fewest:
                fewest, best = wrong, start
            tries += 1
        if fewest:
            kernel.unmake()
            after = rng[0]
            rng[0] = best
            kernel.determinize(player, rng)
            rng[0] = after
        return 0

    cdef int playout_move(self, GameKernel kernel, u64* rng) noexcept nogil:
        cdef KState* s = &(<Kernel>kernel).s
        cdef int p = s.c.actor, phase = s.c.phase, a, card, best, top, best_bonus
        cdef int score, best_score, count, cost, best_cost
        cdef u64 creatures = s.c.hand[p] & s.d.creatures[p]
        if phase == OVER:
            return -2
        if phase == MULLIGAN:
            return (M_KEEP if creatures else M_MULLIGAN) << SHIFT
        if phase == CALL:
            return M_CALL << SHIFT | greedy_call(s, p)
        if phase == CHOOSE:
            count = unseen_creatures(s, p)
            best, best_score, best_cost = -1, -2, 0
            for card in range(s.d.count[p]):
                if not (creatures >> card) & 1:
                    continue
                score = win_score(s, p, s.d.values[p][card][s.c.attribute], s.c.attribute)
                cost = attribute_sum(s, p, card)
                if best < 0 or ranks_above(score, cost, best_score, best_cost, count):
                    best, best_score, best_cost = card, score, cost
            return M_PLAY << SHIFT | s.d.number[p][best]
        if phase == BOOST:
            top = boost_top(s, p)
            best, best_bonus = -1, 1 << 30
            for card in range(s.d.count[p]):
                if not (s.c.hand[p] >> card) & 1:
                    continue
                a = winning_bonus(s, p, card, top)
                if a > 0 and a < best_bonus:
                    best, best_bonus = card, a
            if best >= 0:
                return M_BOOST << SHIFT | s.d.number[p][best]
            return M_PASS << SHIFT
        return NO_SAMPLER
