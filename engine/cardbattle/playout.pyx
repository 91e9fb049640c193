# cython: language_level=3
"""The card battle's playout policy for information-set search: the greedy player
(observation.greedy_choice, CardBattle.greedy_move) in C, move for move, so that a search can
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
on what the other player's past play showed about their hand (ISMCTS's ``infer`` option):
each hand as likely as the histories of draws that fit that play make it.
"""
from libc.stdlib cimport malloc, free

from crystalpick.engine.evaluation cimport NO_SAMPLER
from crystalpick.engine.rng cimport random_below
from crystalpick.engine.cardbattle._fast cimport (Kernel, KState, Core, boost_bonus, bit,
                                                  redraw_hand,
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
    cdef int q, score = 0, count = 0, v
    cdef u64 pool
    for q in range(2):
        if q == p:
            continue
        pool = s.c.hand[q] | s.c.deck[q]
        if s.c.phase == CHOOSE and s.c.chosen[q] >= 0:      # a secret choice is unseen
            pool |= (<u64>1) << s.c.chosen[q]
        pool &= s.d.creatures[q]
        while pool:
            v = s.d.values[q][lowest(pool)][attribute]
            pool &= pool - 1
            score += 2 if value > v else 1 if value == v else 0
            count += 1
    return -1 if count == 0 else score


cdef inline bint better(int score, int best_score, int count) noexcept nogil:
    """``score`` beats ``best_score`` as win chances with the same denominator (a sure win,
    -1, equals every other sure win)."""
    return count > 0 and score > best_score


cdef inline int unseen_creatures(KState* s, int p) noexcept nogil:
    cdef int q, count = 0
    cdef u64 pool
    for q in range(2):
        if q == p:
            continue
        pool = s.c.hand[q] | s.c.deck[q]
        if s.c.phase == CHOOSE and s.c.chosen[q] >= 0:
            pool |= (<u64>1) << s.c.chosen[q]
        count += popcount(pool & s.d.creatures[q])
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
    cdef u64 creatures = s.c.hand[p] & s.d.creatures[p], rest
    for a in range(s.d.attributes):
        top = 0                                      # greedy's default=0
        rest = creatures
        while rest:
            card = lowest(rest)
            rest &= rest - 1
            if s.d.values[p][card][a] > top:
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


def drawn_and_gone(found, left_hand, at):
    """How many of the draws since core ``at`` are known to be cards that have left the
    hand since: a card played at a later decision that an inference at or after ``at``
    (and before it was played) ruled out of the hand then was drawn after ``at`` too, so
    it took one of those draws and the hand now holds one drawn card fewer."""
    return sum(1 for when, card in left_hand if when > at and any(
        at <= then < when and (mask >> card) & 1 for then, mask, _ in found))


cdef enum:
    CONDITIONED_TRIES = 64       # hands drawn before the least inconsistent one is taken
    POOL_TRIES = 16384           # hands drawn once per search to find fitting ones


cdef class CardBattlePlayout(PlayoutPolicy):
    """The greedy player; after ``infer``, also a model of the other player whose past play
    conditions the searcher's determinizations."""
    kernel_class = Kernel

    def __cinit__(self):
        self.observer = -1
        self.draws = -1
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
        drawn since (a public count), less those seen leaving it since (``drawn_and_gone``).
        A seek for a creature showed that the hand held none (true of any player). A
        mulligan voids what was known. A call this round whose creature is not revealed
        yet, with no draw since, is checked exactly. The draws into the hand and the cards
        seen leaving it are kept too, so that ``determinize`` weighs each hand by how many
        of its histories fit (``arrivals_fit``). Only what the observer saw is read: the
        other hand's size, the cards that leave it when they are revealed, the observer's
        own cards."""
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
        self.pooled = False
        found = []                              # (decision's core, mask, allowed)
        left_hand = []                          # (core, card): cards seen leaving the hand
        draws = [-1] * popcount(core_at(s, 0).hand[q])  # the core after which each draw
        reshuffled = False
        self.observer, self.other = observer, q
        free(self.call)
        self.call = NULL
        try:
            then.d = s.d
            added = [max(0, popcount(core_at(s, i + 1).hand[q]) - popcount(core_at(s, i).hand[q]))
                     for i in range(plies)]     # cards drawn into q's hand at ply i
            drawn = [0] * (plies + 1)           # cards drawn into q's hand after core i
            for i in range(plies - 1, -1, -1):
                drawn[i] = drawn[i + 1] + added[i]
            for i in range(plies):
                h = core_at(s, i)
                after = core_at(s, i + 1)
                if h.phase == MULLIGAN and h.actor == q and after.mulligan[q] == TAKEN:
                    found, left_hand, draws = [], [], []    # the hand went back to the deck
                    continue
                draws += [i] * added[i]
                if popcount(after.deck[q]) > popcount(h.deck[q]):
                    reshuffled = True           # cards drawn twice: histories not followed
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
                if h.phase == BOOST and played < 0:
                    continue                    # a pass: the observer cannot tell it from
                                                # holding no usable boost (rules §5)
                if h.phase == CHOOSE:
                    if played < 0 or (s.c.round == h.round and s.c.phase == CHOOSE):
                        continue                # not revealed yet
                    if sought == h.round:       # held no creature before the seek,
                        found.append((i + 1, s.d.creatures[q], drawn[i + 1]))  # nor after
                    elif call_at >= 0 and core_at(s, call_at).round == h.round:
                        then.c = core_at(s, call_at)[0]
                        attribute = core_at(s, call_at + 1).attribute
                        found.append((call_at, outcalled(then, q, attribute, win_score(
                            then, q, s.d.values[q][played][attribute], attribute)),
                            drawn[call_at + 1]))
                then.c = h[0]
                found.append((i, passed_over(then, q, played), drawn[i + 1]))
                if played >= 0:
                    left_hand.append((i, played))
            found = [(at, mask, max(0, allowed - drawn_and_gone(found, left_hand, at)))
                     for at, mask, allowed in found if mask]
            # oldest first (most drawn since), for the nesting in ``inconsistency``
            found = sorted(found, key=lambda inference: -inference[2])[-MAX_INFERENCES:]
            for j, (at, mask, allowed) in enumerate(found):
                self.ruled_at[j], self.masks[j], self.allowed[j] = at, mask, allowed
            self.inferred = len(found)
            self.follow_draws(None if reshuffled else draws, left_hand)
            found = [(mask, allowed) for _, mask, allowed in found]
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

    def follow_draws(self, draws, left_hand):
        """Keep the other hand's draws and the cards seen leaving it for ``arrivals_fit``
        (None, or more than MAX_DRAWS of either: not followed)."""
        cdef int g
        if draws is None or len(draws) > MAX_DRAWS or len(left_hand) > MAX_DRAWS:
            self.draws, self.gone = -1, 0
            return
        self.draws, self.gone = len(draws), len(left_hand)
        for g, core in enumerate(draws):
            self.drawn_after[g] = core
        for g, (core, card) in enumerate(left_hand):
            self.gone_card[g], self.gone_at[g] = card, core
            self.gone_within[g] = sum(1 for drawn in draws if drawn < core)

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

    def history(self):
        """Python entry for tests: what ``arrivals_fit`` weighs hands by: the core after
        which each draw into the other hand came, the cards seen leaving it (index, core)
        and the inferences (core, mask); None where the draws are not followed."""
        if self.draws < 0:
            return None
        return ([self.drawn_after[i] for i in range(self.draws)],
                [(self.gone_card[g], self.gone_at[g]) for g in range(self.gone)],
                [(self.ruled_at[i], self.masks[i]) for i in range(self.inferred)])

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

    cdef bint arrivals_fit(self, u64 hand, u64* rng) noexcept nogil:
        """Whether one random history of ``hand`` fits the inferences. Draws are
        exchangeable (a shuffled deck), so a history is any assignment of the cards that
        went through the hand since the deal, this hand's and those seen leaving it, to
        the draws seen, each card seen leaving drawn before it left, uniformly among those;
        it fits when no inference's ruled-out card was in hand at its core (drawn before
        it, not gone by then). Keeping a hand when its drawn history fits keeps it with
        the share of its histories that fit: its likelihood, as the count test alone does
        not weigh it (it keeps any hand some history fits)."""
        cdef int arrival[MAX_DRAWS]          # the core each gone card came after
        cdef int slot_of[MAX_DRAWS]          # the draw each card of the hand came by
        cdef bint taken[MAX_DRAWS]
        cdef int cards[64]
        cdef int h = 0, i, g, k, slot, t, unused = 0
        cdef u64 rest = hand, ruled
        if self.draws < 0:
            return True
        while rest:
            cards[h] = lowest(rest)
            rest &= rest - 1
            h += 1
        if h + self.gone != self.draws:
            return True                      # not this history's hand: nothing to weigh
        for i in range(self.draws):
            taken[i] = False
        for g in range(self.gone):           # the earliest to leave have the fewest draws
            if self.gone_within[g] <= g:
                return True                  # cannot happen under the rules: no weighing
            k = <int>random_below(rng, self.gone_within[g] - g)
            slot = -1
            while k >= 0:
                slot += 1
                if not taken[slot]:
                    k -= 1
            taken[slot] = True
            arrival[g] = self.drawn_after[slot]
        for i in range(self.draws):          # the hand's cards take the other draws
            if not taken[i]:
                slot_of[unused] = i
                unused += 1
        for i in range(h - 1, 0, -1):
            k = <int>random_below(rng, i + 1)
            slot_of[i], slot_of[k] = slot_of[k], slot_of[i]
        for i in range(self.inferred):
            t = self.ruled_at[i]
            ruled = hand & self.masks[i]
            if ruled:
                for k in range(h):
                    if (ruled >> cards[k]) & 1 and self.drawn_after[slot_of[k]] < t:
                        return False
            for g in range(self.gone):
                if ((self.masks[i] >> self.gone_card[g]) & 1 and arrival[g] < t
                        and t <= self.gone_at[g]):
                    return False
        return True

    cdef int misfit(self, KState* s, u64* rng) noexcept nogil:
        """How badly the other hand in ``s`` fits the inferences: twice the cards beyond
        what they allow (``inconsistency``), else one when a history drawn for it does not
        fit (``arrivals_fit``), so a consistent hand is preferred to any other when none
        fits."""
        cdef int wrong = self.inconsistency(s)
        if wrong:
            return 2 * wrong
        return 0 if self.arrivals_fit(s.c.hand[self.other], rng) else 1

    def arrival_fit_share(self, state, int trials, unsigned long long seed):
        """Python entry for tests: the share of ``trials`` random histories of
        ``state``'s other hand that fit the inferences (``arrivals_fit``)."""
        cdef u64 rng = seed
        cdef u64 hand = (<Kernel>self._kernel_of(state)).s.c.hand[self.other]
        return sum(self.arrivals_fit(hand, &rng) for _ in range(trials)) / trials

    cdef void fill_pool(self, KState* s, u64* rng) noexcept nogil:
        """Draw the other hand POOL_TRIES times and keep those that fit (up to POOL_SIZE):
        a sample of the hands the inferences allow, each as likely as its histories that
        fit make it. Once per search, as hands that fit can be rare (1 in 100 and fewer)."""
        cdef int t
        cdef u64 kept = s.c.hand[self.other]
        self.pool_count = 0
        for t in range(POOL_TRIES):
            if self.pool_count == POOL_SIZE:
                break
            redraw_hand(s, self.other, rng)
            if self.misfit(s, rng) == 0:
                self.pool[self.pool_count] = s.c.hand[self.other]
                self.pool_count += 1
        self.pooled, self.pooled_from = True, s.c.hand[self.other] | s.c.deck[self.other]
        self.set_hand(s, kept)

    cdef inline void set_hand(self, KState* s, u64 hand) noexcept nogil:
        s.c.deck[self.other] = (s.c.hand[self.other] | s.c.deck[self.other]) & ~hand
        s.c.hand[self.other] = hand
        s.c.viewed = 0                          # the records' cached views (_fast.pxd)

    cdef int determinize(self, GameKernel kernel, int player, u64* rng) noexcept nogil:
        """The kernel's determinization with the other hand drawn from the hands that fit
        the inferences (``fill_pool``); where none was found, drawn again while it does not
        fit (``misfit``), up to CONDITIONED_TRIES times, after which the best fitting is
        taken (the model can be wrong about the real player)."""
        cdef KState* s = &(<Kernel>kernel).s
        cdef int tries = 1, wrong, fewest
        cdef u64 best
        if player != self.observer or (self.inferred == 0 and self.call == NULL):
            return kernel.determinize(player, rng)
        kernel.determinize(player, rng)
        if not self.pooled or self.pooled_from != s.c.hand[self.other] | s.c.deck[self.other]:
            self.fill_pool(s, rng)
        if self.pool_count:
            self.set_hand(s, self.pool[random_below(rng, self.pool_count)])
            return 0
        fewest, best = self.misfit(s, rng), s.c.hand[self.other]
        while fewest and tries < CONDITIONED_TRIES:
            redraw_hand(s, self.other, rng)
            wrong = self.misfit(s, rng)
            if wrong < fewest:
                fewest, best = wrong, s.c.hand[self.other]
            tries += 1
        self.set_hand(s, best)
        return 0

    cdef int playout_move(self, GameKernel kernel, u64* rng) noexcept nogil:
        cdef KState* s = &(<Kernel>kernel).s
        cdef int p = s.c.actor, phase = s.c.phase, a, card, best, top, best_bonus
        cdef int score, best_score, count, cost, best_cost
        cdef u64 creatures = s.c.hand[p] & s.d.creatures[p], hand
        if phase == OVER:
            return -2
        if phase == MULLIGAN:
            return (M_KEEP if creatures else M_MULLIGAN) << SHIFT
        if phase == CALL:
            return M_CALL << SHIFT | greedy_call(s, p)
        if phase == CHOOSE:
            count = unseen_creatures(s, p)
            best, best_score, best_cost = -1, -2, 0
            while creatures:
                card = lowest(creatures)
                creatures &= creatures - 1
                score = win_score(s, p, s.d.values[p][card][s.c.attribute], s.c.attribute)
                cost = attribute_sum(s, p, card)
                if best < 0 or ranks_above(score, cost, best_score, best_cost, count):
                    best, best_score, best_cost = card, score, cost
            return M_PLAY << SHIFT | s.d.number[p][best]
        if phase == BOOST:
            top = boost_top(s, p)
            best, best_bonus = -1, 1 << 30
            hand = s.c.hand[p]
            while hand:
                card = lowest(hand)
                hand &= hand - 1
                a = winning_bonus(s, p, card, top)
                if a > 0 and a < best_bonus:
                    best, best_bonus = card, a
            if best >= 0:
                return M_BOOST << SHIFT | s.d.number[p][best]
            return M_PASS << SHIFT
        return NO_SAMPLER
