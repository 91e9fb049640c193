# cython: language_level=3
"""The card battle in C: piles as 64-bit sets of card indices, copy-make undo.

The same rules as ``reference.py`` step by step (``apply``, ``advance`` and the combat checks
of ``rules.py``), the same move order and the same key formula (``zobrist.py``), so the two
agree exactly (tests/test_cardbattle_differential.py). Everything here is nogil C; the
:class:`Kernel` class only converts to and from Python.
"""
from libc.stdio cimport fprintf, stderr
from libc.stdlib cimport abort, free, malloc, realloc
from libc.string cimport memcpy, memset
from crystalpick.engine.rng cimport random_below, random_unit

from array import array
from itertools import accumulate

from . import moves as M
from . import position as P
from .position import Position, Seat

# Phases, move kinds and constants, copied from the Python modules into C globals once.
cdef int DEAL = P.DEAL, MULLIGAN = P.MULLIGAN, REDEAL = P.REDEAL, TOSS = P.TOSS
cdef int CALL = P.CALL, SEEK = P.SEEK, CHOOSE = P.CHOOSE, BOOST = P.BOOST
cdef int TIEBREAK = P.TIEBREAK, REFILL = P.REFILL, OVER = P.OVER
cdef int UNDECIDED = P.UNDECIDED, DRAW_RESULT = P.DRAW_RESULT
cdef int KEPT = P.KEPT, TAKEN = P.TAKEN
cdef int SHIFT = M.KIND_SHIFT, PAYLOAD = M.PAYLOAD
cdef int M_KEEP = M.M_KEEP, M_MULLIGAN = M.M_MULLIGAN, M_CALL = M.M_CALL, M_PLAY = M.M_PLAY
cdef int M_BOOST = M.M_BOOST, M_PASS = M.M_PASS, M_DRAW = M.M_DRAW, M_TOSS = M.M_TOSS
cdef int REFILL_FIVE = 0, REFILL_ONE = 1, REFILL_NONE = 2
REFILLS = ("five", "one", "none")
KERNEL_CARDS = MAX_CARDS        # the most cards a player may own here (a pile is 64 bits)
KNOWN_HANDS = _KNOWN_HANDS      # the most hands know_hands keeps


# -- small helpers ---------------------------------------------------------------------------

cdef inline bint is_chance(int phase) noexcept nogil:
    return (phase == DEAL or phase == REDEAL or phase == TOSS or phase == SEEK
            or phase == TIEBREAK or phase == REFILL)


cdef int current_player(KState* s) noexcept nogil:
    if s.c.phase == OVER:
        return -2
    if is_chance(s.c.phase):
        return -1
    return s.c.actor


# -- the combat checks (rules.py) ------------------------------------------------------------

cdef int boost_bonus(KState* s, int p, int card, int target) noexcept nogil:
    """§4.4: what card index ``card`` adds to ``target`` (-1: none) in the called attribute."""
    cdef int bonus = s.d.values[p][card][s.c.attribute]
    if (s.d.creatures[p] >> card) & 1 or bonus <= 0:
        return 0
    if (s.d.neutral[p] >> card) & 1:
        return bonus
    if target < 0 or not (s.d.creatures[p] >> target) & 1:
        return 0
    return bonus if s.d.families[p][card] & s.d.families[p][target] else 0


cdef inline int in_play(KState* s, int p) noexcept nogil:
    return s.c.tie[p] if s.c.tie[p] >= 0 else s.c.chosen[p]


cdef u64 playable_boosts(KState* s, int p) noexcept nogil:
    cdef u64 rest = s.c.hand[p], found = 0
    cdef int card, target = in_play(s, p)
    while rest:
        card = lowest(rest)
        rest &= rest - 1
        if boost_bonus(s, p, card, target) > 0:
            found |= bit(card)
    return found


cdef inline int best_value(KState* s) noexcept nogil:
    cdef int p, best = -1
    for p in range(SEATS):
        if s.c.contending[p] and s.c.value[p] > best:
            best = s.c.value[p]
    return best


cdef int next_booster(KState* s) noexcept nogil:
    """rules.next_booster: a lower contender that has not boosted or passed and holds a
    playable card; the lowest first (ties from the caller) or the first from the caller."""
    cdef int best = best_value(s), i, p, chosen = -1
    if best < 0:
        return -1
    for i in range(SEATS):
        p = (s.c.caller + i) % SEATS
        if (s.c.contending[p] and s.c.value[p] < best and not s.c.boosted[p]
                and not s.c.passed[p] and playable_boosts(s, p)):
            if not s.d.lowest_first:
                return p
            if chosen < 0 or s.c.value[p] < s.c.value[chosen]:
                chosen = p
    return chosen


cdef int top_players(KState* s) noexcept nogil:
    cdef int best = best_value(s), p, tops = 0
    for p in range(SEATS):
        if s.c.contending[p] and s.c.value[p] == best:
            tops |= 1 << p
    return tops


cdef inline bint has_cards(KState* s, int p) noexcept nogil:
    return (s.c.deck[p] | s.c.discard[p]) != 0


cdef inline bint can_draw_for_tie(KState* s, int p) noexcept nogil:
    if s.d.tie_creature_only:
        return ((s.c.deck[p] | s.c.discard[p]) & s.d.creatures[p]) != 0
    return has_cards(s, p)


cdef inline bint short_of_hand(KState* s, int p) noexcept nogil:
    return popcount(s.c.hand[p]) < s.d.hand and has_cards(s, p)


cdef inline bint wants_refill(KState* s, int p) noexcept nogil:
    if s.d.refill == REFILL_FIVE:
        return short_of_hand(s, p)
    return s.c.left[p] > 0 and has_cards(s, p)


# -- moves -----------------------------------------------------------------------------------

cdef inline int emit(int* out, int n, int move) noexcept nogil:
    if out != NULL:
        out[n] = move
    return n + 1


cdef int emit_cards(KState* s, int* out, int n, int kind, int p, u64 cards) noexcept nogil:
    cdef int card
    if out == NULL:                  # a count: the searchers ask for one before every list
        return n + popcount(cards)
    while cards:
        card = lowest(cards)
        cards &= cards - 1
        n = emit(out, n, kind << SHIFT | s.d.number[p][card])
    return n


cdef int generate(KState* s, int* out) noexcept nogil:
    """The legal moves (or chance outcomes) in the reference's order; count only if NULL."""
    cdef int phase = s.c.phase, p = s.c.actor, n = 0, a
    if phase == OVER:
        return 0
    if phase == MULLIGAN:
        n = emit(out, n, M_KEEP << SHIFT)
        return emit(out, n, M_MULLIGAN << SHIFT)
    if phase == CALL:
        for a in range(s.d.attributes):
            n = emit(out, n, M_CALL << SHIFT | a)
        return n
    if phase == CHOOSE:
        return emit_cards(s, out, 0, M_PLAY, p, s.c.hand[p] & s.d.creatures[p])
    if phase == BOOST:
        n = emit_cards(s, out, 0, M_BOOST, p, playable_boosts(s, p))
        return emit(out, n, M_PASS << SHIFT)
    if phase == TOSS:
        for a in range(SEATS):
            n = emit(out, n, M_TOSS << SHIFT | a)
        return n
    return emit_cards(s, out, 0, M_DRAW, p, s.c.deck[p])


cdef int probabilities(KState* s, double* out) noexcept nogil:
    cdef int n = generate(s, NULL), i
    for i in range(n):
        out[i] = 1.0 / n
    return n


# -- a move or outcome (reference.apply) -----------------------------------------------------

cdef void apply(KState* s, int move) noexcept nogil:
    cdef int kind = move >> SHIFT, payload = move & PAYLOAD, p = s.c.actor, card
    if kind == M_MULLIGAN:
        s.c.mulligan[p] = TAKEN
        s.c.deck[p] |= s.c.hand[p]
        s.c.hand[p] = 0
        s.c.phase = REDEAL
    elif kind == M_KEEP:
        s.c.mulligan[p] = KEPT
        s.c.actor += 1
    elif kind == M_TOSS:
        s.c.caller = payload
        s.c.phase = CALL
    elif kind == M_CALL:
        s.c.attribute = payload
        s.c.phase = SEEK
    elif kind == M_PASS:
        s.c.passed[p] = 1
    else:
        card = s.d.index_of[p][payload]
        if kind == M_PLAY:
            s.c.hand[p] &= ~bit(card)
            s.c.table[p] |= bit(card)
            s.c.chosen[p] = card
        elif kind == M_BOOST:
            s.c.value[p] += boost_bonus(s, p, card, in_play(s, p))
            s.c.hand[p] &= ~bit(card)
            s.c.table[p] |= bit(card)
            s.c.boosted[p] = 1
        else:
            draw(s, p, card)


cdef void draw(KState* s, int p, int card) noexcept nogil:
    s.c.deck[p] &= ~bit(card)
    if s.c.phase != TIEBREAK:
        s.c.hand[p] |= bit(card)
        if s.c.phase == REFILL and s.d.refill == REFILL_ONE:
            s.c.left[p] -= 1
        return
    if s.d.tie_creature_only and not (s.d.creatures[p] >> card) & 1:
        s.c.discard[p] |= bit(card)
        return
    s.c.table[p] |= bit(card)
    s.c.tie[p] = card
    s.c.value[p] = s.d.values[p][card][s.c.attribute] if (s.d.creatures[p] >> card) & 1 else 0


# -- the automatic steps (reference.advance) -------------------------------------------------

cdef bint start_draw(KState* s, int p) noexcept nogil:
    s.c.actor = p
    if s.c.deck[p]:
        return True
    if s.d.reshuffle:
        s.c.deck[p] = s.c.discard[p]
        s.c.discard[p] = 0
        return True
    s.c.result = 1 - p
    return False


cdef int first_contender(KState* s, int without_chosen, int without_tie) noexcept nogil:
    cdef int p
    for p in range(SEATS):
        if not s.c.contending[p]:
            continue
        if without_chosen and s.c.chosen[p] >= 0:
            continue
        if without_tie and s.c.tie[p] >= 0:
            continue
        return p
    return -1


cdef void payout(KState* s, int winner) noexcept nogil:
    cdef int p
    s.c.won[winner] += 1
    if not s.d.stake:
        return
    for p in range(SEATS):
        if p != winner and not s.c.out[p]:
            s.c.tokens[p] -= 1
            s.c.tokens[winner] += 1
            s.c.out[p] = s.c.tokens[p] <= 0


cdef int game_winner(KState* s) noexcept nogil:
    cdef int p, left = 0, last = -1
    for p in range(SEATS):
        if s.c.won[p] >= s.d.target:
            return p
    for p in range(SEATS):
        if not s.c.out[p]:
            left += 1
            last = p
    return last if s.d.stake and left == 1 else -1


cdef void clean_up(KState* s) noexcept nogil:
    cdef int p
    for p in range(SEATS):
        s.c.discard[p] |= s.c.table[p]
        s.c.table[p] = 0
        s.c.chosen[p] = -1
        s.c.tie[p] = -1
        s.c.value[p] = 0
        s.c.boosted[p] = 0
        s.c.passed[p] = 0
        s.c.contending[p] = not s.c.out[p]
        s.c.left[p] = 1 if s.d.refill == REFILL_ONE else 0
    s.c.tiebreak = 0
    s.c.attribute = -1
    s.c.round += 1
    if s.c.result == UNDECIDED and s.c.round >= s.d.max_rounds:
        s.c.result = DRAW_RESULT
    s.c.phase = REFILL


cdef void compare(KState* s) noexcept nogil:
    cdef int tops = top_players(s), p, count, best
    if popcount(tops) > 1:
        for p in range(SEATS):
            s.c.contending[p] = ((tops >> p) & 1) and can_draw_for_tie(s, p)
            s.c.tie[p] = -1
        tops = 0
        for p in range(SEATS):
            if s.c.contending[p]:
                tops |= 1 << p
        if popcount(tops) > 1:
            s.c.tiebreak = 1
            s.c.phase = TIEBREAK
            return
    if tops:
        p = lowest(tops)
        payout(s, p)
        s.c.caller = p
        best = game_winner(s)
        if best >= 0:
            s.c.result = best
    clean_up(s)


cdef void advance(KState* s) noexcept nogil:
    cdef int phase, p, drawer
    while True:
        if s.c.result != UNDECIDED:
            s.c.phase = OVER
            return
        phase = s.c.phase
        if phase == DEAL or phase == REFILL:
            drawer = -1
            for p in range(SEATS):
                if (short_of_hand(s, p) if phase == DEAL else wants_refill(s, p)):
                    drawer = p
                    break
            if drawer >= 0:
                if start_draw(s, drawer):
                    return
                continue
            if phase == DEAL:
                s.c.phase = MULLIGAN
                s.c.actor = 0
            else:
                s.c.phase = CALL
                s.c.actor = s.c.caller
            continue
        if phase == MULLIGAN:
            if s.c.actor >= SEATS:
                s.c.phase = TOSS
                s.c.actor = 0
            return
        if phase == REDEAL:
            if short_of_hand(s, s.c.actor):
                if start_draw(s, s.c.actor):
                    return
                continue
            s.c.phase = MULLIGAN
            s.c.actor += 1
            continue
        if phase == TOSS or phase == CALL:
            if phase == CALL:
                s.c.actor = s.c.caller
            return
        if phase == SEEK:
            drawer = -1
            for p in range(SEATS):
                if s.c.contending[p] and not (s.c.hand[p] & s.d.creatures[p]):
                    drawer = p
                    break
            if drawer < 0:
                s.c.phase = CHOOSE
                continue
            if s.d.draw_for_creature:
                if start_draw(s, drawer):
                    return
                continue
            s.c.contending[drawer] = 0
            continue
        if phase == CHOOSE:
            p = first_contender(s, 1, 0)
            if p >= 0:
                s.c.actor = p
                return
            for p in range(SEATS):
                if s.c.contending[p]:
                    s.c.value[p] = s.d.values[p][s.c.chosen[p]][s.c.attribute]
            s.c.phase = BOOST
            continue
        if phase == BOOST:
            p = -1
            if not s.c.tiebreak or s.d.tie_boosts:
                p = next_booster(s)
            if p >= 0:
                s.c.actor = p
                return
            compare(s)
            continue
        if phase == TIEBREAK:
            p = first_contender(s, 0, 1)
            if p >= 0:
                if start_draw(s, p):
                    return
                continue
            s.c.phase = BOOST
            continue
        return


cdef enum:
    FIRST_CAPACITY = 256        # Cores: a default game lasts about 80 plies
    CLONE_ROOM = 16             # Cores a clone has beyond its history, before it grows


cdef void push_history(KState* s) noexcept nogil:
    """The current Core onto the history, which doubles when full (a game has no fixed
    length bound: §6 ends it only at ``target`` crystals or ``max-rounds``)."""
    cdef Core* grown
    if s.ply >= s.capacity:
        grown = <Core*>realloc(s.history, 2 * s.capacity * sizeof(Core))
        if grown == NULL:
            fprintf(stderr, b"crystalpick: out of memory for the card kernel's history\n")
            abort()
        s.history = grown
        s.capacity *= 2
    s.history[s.ply] = s.c
    s.ply += 1


cdef void make_move(KState* s, int move) noexcept nogil:
    push_history(s)
    apply(s, move)
    s.c.ply += 1
    advance(s)
    s.c.recorded = 0                          # the records follow when asked for (record)
    s.c.viewed = 0
    s.c.last_move = move


cdef void unmake_move(KState* s) noexcept nogil:
    s.ply -= 1
    s.c = s.history[s.ply]


cdef long long random_playouts(KState* s, long long games, u64 seed,
                               long long* results) noexcept nogil:
    """Play ``games`` uniformly random games to the end from the current position (every
    chance outcome is uniform, so this is also exact chance) and restore it; count results
    (P1 wins, P2 wins, draws) and return the plies played. No history: nothing to undo."""
    cdef Core start = s.c
    cdef int moves[MAX_CARDS + 2]
    cdef long long game, plies = 0
    cdef int n
    for game in range(games):
        while s.c.phase != OVER:
            n = generate(s, moves)
            apply(s, moves[random_below(&seed, n)])
            s.c.ply += 1
            advance(s)
            plies += 1
        results[2 if s.c.result < 0 else s.c.result] += 1
        s.c = start
    return plies


# -- determinization: a full state drawn from one player's observation (sampling.py) -------

cdef void rewind_secret_choices(KState* s, int player) noexcept nogil:
    """§4.2: the others' creatures chosen in secret go back to their hands, as before their
    choice (the searcher makes it again); ply and actor follow."""
    cdef int p, taken = 0
    if s.c.phase != CHOOSE:
        return
    for p in range(SEATS):
        if p != player and s.c.chosen[p] >= 0:
            s.c.hand[p] |= bit(s.c.chosen[p])
            s.c.table[p] &= ~bit(s.c.chosen[p])
            s.c.chosen[p] = -1
            taken += 1
    if taken:
        s.c.ply -= taken
        s.c.actor = first_contender(s, 1, 0)


cdef u64 sample_cards(u64 pool, int count, u64* rng) noexcept nogil:
    """``count`` of the cards of ``pool``, uniformly: a partial Fisher-Yates shuffle of the
    pool's indices in increasing order (sampling.sample_cards draws the same)."""
    cdef int cards[MAX_CARDS]
    cdef int n = 0, i, j, t
    cdef u64 chosen = 0
    while pool:
        cards[n] = lowest(pool)
        pool &= pool - 1
        n += 1
    for i in range(count):
        j = i + random_below(rng, n - i)
        t = cards[i]
        cards[i] = cards[j]
        cards[j] = t
        chosen |= bit(cards[i])
    return chosen


cdef void redraw_hand(KState* s, int p, u64* rng) noexcept nogil:
    """§5: player ``p``'s hand is any ``hand count`` of their unseen cards (hand and deck,
    which is a set: no order to draw), redrawn until it holds a creature when they still
    have to choose one (the seek step saw to that)."""
    cdef u64 pool = s.c.hand[p] | s.c.deck[p], hand
    cdef int count = popcount(s.c.hand[p])
    cdef bint needs_creature = (s.c.phase == CHOOSE and s.c.contending[p]
                                and s.c.chosen[p] < 0)
    while True:
        hand = sample_cards(pool, count, rng)
        if not needs_creature or hand & s.d.creatures[p]:
            break
    s.c.hand[p] = hand
    s.c.deck[p] = pool & ~hand
    s.c.viewed = 0


cdef void determinize_state(KState* s, int player, u64* rng) noexcept nogil:
    """§5: every other player's hand drawn again from their unseen cards, after their
    secret choices are taken back."""
    cdef int p
    rewind_secret_choices(s, player)
    for p in range(SEATS):
        if p != player:
            redraw_hand(s, p, rng)


cdef u64 observed_key(KState* s, Core* c, int player) noexcept nogil:
    """What ``player`` (-1: every player) observes in ``c`` (a Core of ``s``), as observe()
    shows it: the own hand and deck, of another seat the counts, and a secret choice as
    hidden; no ply count and no other player's pass (§5: a pass looks the same as having no
    usable boost card), and no actor once the game is over (notation.view_head)."""
    cdef u64 key = 0, table
    cdef int p, flags, chosen, passed
    cdef bint secret
    for p in range(SEATS):
        passed = c.passed[p]
        if p == player:
            key ^= mix_pile(s, 1, p, c.hand[p]) ^ mix_pile(s, 2, p, c.deck[p])
        else:
            key ^= mix(16, p, popcount(c.hand[p])) ^ mix(17, p, popcount(c.deck[p]))
            passed = 0
        secret = c.phase == CHOOSE and p != player and c.chosen[p] >= 0
        table = c.table[p] & ~bit(c.chosen[p]) if secret else c.table[p]
        chosen = -2 if secret else c.chosen[p]
        key ^= mix_pile(s, 3, p, c.discard[p]) ^ mix_pile(s, 4, p, table)
        flags = (c.contending[p] | c.boosted[p] << 1 | passed << 2
                 | c.out[p] << 3 | c.mulligan[p] << 4)
        key ^= mix(5, p, 4095 if chosen == -2 else card_number(s, p, chosen))
        key ^= mix(6, p, card_number(s, p, c.tie[p]))
        key ^= mix(7, p, c.value[p]) ^ mix(8, p, flags) ^ mix(9, p, c.won[p])
        key ^= mix(10, p, c.tokens[p]) ^ mix(11, p, c.left[p])
    key ^= mix(12, c.phase, 0 if c.phase == OVER else c.actor)   # notation.view_head
    key ^= mix(13, c.caller, c.attribute + 1)
    key ^= mix(14, c.round, 0) ^ mix(15, c.tiebreak, c.result + 2)
    return key ^ mix(18, player + 1, 0) ^ s.d.start_key


# -- the information state (information.py) as a running hash --------------------------------

cdef inline u64 view_key(KState* s, Core* c, int player) noexcept nogil:
    """observed_key of a Core for the records, computed once: a node's view enters both
    players' records (ordered and set) and is asked again as the next ply's ``before``."""
    if not (c.viewed >> player) & 1:
        c.view[player] = observed_key(s, c, player)
        c.viewed |= 1 << player
    return c.view[player]


cdef enum:
    VIEW_EVENT = 1
    MOVE_EVENT = 2
    CHANCE_EVENTS = 3


cdef inline u64 chain(u64 key, u64 kind, u64 value) noexcept nogil:
    """The key of a record after one more event: order matters, so the record is mixed in
    before the event."""
    return mix(kind, value & 0xFFFFF, value >> 20) ^ mix(19, key & 0xFFFFF, key >> 20) * 3


cdef inline bint hidden_decision(Core* c, int player) noexcept nogil:
    """information.hidden_decision: another player deciding on a boost."""
    return c.phase == BOOST and c.actor != player


cdef long long seen_move(Core* c, int player, int move) noexcept nogil:
    """information.seen_move and its actor, as a number (-1: not seen): another player's
    draw into hand and secret choice lose their card, their pass is not seen at all."""
    cdef int kind = move >> SHIFT
    cdef bint own = c.actor == player
    if kind == M_PASS and not own:
        return -1
    if not own and (kind == M_PLAY or (kind == M_DRAW and c.phase != TIEBREAK)):
        move = kind << SHIFT
    return move | (0 if kind == M_TOSS else c.actor + 1) << 24


cdef u64 remember(KState* s, Core* before, int player, int move) noexcept nogil:
    """``player``'s record after the ply that plays ``move`` in ``before``: their view
    there, then the move as they see it (information.ply_record)."""
    cdef u64 key = before.info[player]
    cdef long long seen = seen_move(before, player, move)
    if not hidden_decision(before, player):
        key = chain(key, VIEW_EVENT, view_key(s, before, player))
    if seen >= 0:
        key = chain(key, MOVE_EVENT, <u64>seen)
    return key


cdef inline bint unordered(KState* s, Core* c) noexcept nogil:
    """Whether the outcome of chance node ``c`` joins the unordered run of chance outcomes
    since the last node the players saw act: every deck is shuffled uniformly, so the order
    of draws between two decisions tells nothing about anything hidden and leaves the same
    position. Not a tie-break draw with tie-boosts=yes: a boost (or a hidden pass, §5)
    may be decided between its draws, after seeing them in their order."""
    return is_chance(c.phase) and not (c.phase == TIEBREAK and s.d.tie_boosts)


cdef inline u64 settled(u64 key, u64 pending) noexcept nogil:
    """The set record with its pending run of chance outcomes closed."""
    return chain(key, CHANCE_EVENTS, pending) if pending else key


cdef void remember_set(KState* s, Core* before, Core* now, int player, int move) noexcept nogil:
    """``player``'s information set after the ply that plays ``move`` in ``before``, as
    remember, except that within a run of unordered chance outcomes only the first node's
    view is kept (the run's later views show partial draws, in their order) and the
    outcomes as the player sees them are summed, an order-free multiset closed into the
    record at the next node the player sees (settled). Nothing at another player's
    hidden boost decision unless they boost: a pass looks like no decision (§5)."""
    cdef u64 key = before.set_info[player], pending = before.pending[player]
    cdef long long seen = seen_move(before, player, move)
    if unordered(s, before):
        if not pending:
            key = chain(key, VIEW_EVENT, view_key(s, before, player))
        pending += mix(20, <u64>seen & 0xFFFFF, <u64>seen >> 20) | 1
    elif not hidden_decision(before, player) or seen >= 0:
        key = settled(key, pending)
        pending = 0
        if not hidden_decision(before, player):
            key = chain(key, VIEW_EVENT, view_key(s, before, player))
        if seen >= 0:
            key = chain(key, MOVE_EVENT, <u64>seen)
    now.set_info[player] = key
    now.pending[player] = pending


cdef void record(KState* s, int player) noexcept nogil:
    """Bring ``player``'s records up to the current Core. make only notes its move (a
    search that never asks pays nothing, and one that asks for one player pays for that
    player's only); the first question extends the records from the last Core that has
    them, through the history, whose Cores keep what they learn (unmake restores a Core
    with its records, and the Core a kernel is built from has empty ones)."""
    cdef int first = s.ply, k, mask = 1 << player
    cdef Core* before
    cdef Core* now
    if s.c.recorded & mask:
        return
    while first > 0 and not s.history[first - 1].recorded & mask:
        first -= 1
    for k in range(first, s.ply + 1):
        before = &s.history[k - 1]
        now = &s.history[k] if k < s.ply else &s.c
        now.info[player] = remember(s, before, player, now.last_move)
        remember_set(s, before, now, player, now.last_move)
        now.recorded |= mask


cdef u64 information_key(KState* s, int player) noexcept nogil:
    """The record closed by the view of the current node (information.events)."""
    record(s, player)
    if hidden_decision(&s.c, player):
        return s.c.info[player]
    return chain(s.c.info[player], VIEW_EVENT, view_key(s, &s.c, player))


cdef u64 set_record_key(KState* s, int player) noexcept nogil:
    """The set record closed as information_key closes the record: its pending run, then
    the view of the current node."""
    record(s, player)
    cdef u64 key = settled(s.c.set_info[player], s.c.pending[player])
    if hidden_decision(&s.c, player):
        return key
    return chain(key, VIEW_EVENT, view_key(s, &s.c, player))


# -- the position key (zobrist.py) -----------------------------------------------------------

cdef inline u64 mix(u64 kind, u64 a, u64 b) noexcept nogil:
    cdef u64 z = (kind << 40 | a << 20 | b) + 0x9E3779B97F4A7C15ULL
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline u64 mix_pile(KState* s, u64 kind, int p, u64 cards) noexcept nogil:
    cdef u64 key = 0
    cdef int card
    while cards:
        card = lowest(cards)
        cards &= cards - 1
        key ^= mix(kind, p, s.d.number[p][card])
    return key


cdef inline int card_number(KState* s, int p, int card) noexcept nogil:
    return s.d.number[p][card] if card >= 0 else 0


cdef u64 position_key(KState* s) noexcept nogil:
    cdef u64 key = 0
    cdef int p, flags
    for p in range(SEATS):
        key ^= mix_pile(s, 1, p, s.c.hand[p]) ^ mix_pile(s, 2, p, s.c.deck[p])
        key ^= mix_pile(s, 3, p, s.c.discard[p]) ^ mix_pile(s, 4, p, s.c.table[p])
        flags = (s.c.contending[p] | s.c.boosted[p] << 1 | s.c.passed[p] << 2
                 | s.c.out[p] << 3 | s.c.mulligan[p] << 4)
        key ^= mix(5, p, card_number(s, p, s.c.chosen[p]))
        key ^= mix(6, p, card_number(s, p, s.c.tie[p]))
        key ^= mix(7, p, s.c.value[p]) ^ mix(8, p, flags) ^ mix(9, p, s.c.won[p])
        key ^= mix(10, p, s.c.tokens[p]) ^ mix(11, p, s.c.left[p])
    key ^= mix(12, s.c.phase, s.c.actor) ^ mix(13, s.c.caller, s.c.attribute + 1)
    key ^= mix(14, s.c.round, s.c.ply) ^ mix(15, s.c.tiebreak, s.c.result + 2)
    return key ^ s.d.start_key


# -- Python boundary -------------------------------------------------------------------------

cdef void load(KState* s, object pos, object cardset, object options):
    cdef Data* d = s.d
    cdef Core* c = &s.c
    memset(d, 0, sizeof(Data))
    memset(c, 0, sizeof(Core))
    families = {}
    for card in cardset.cards.values():
        for family in card.families:
            families.setdefault(family, len(families) % 64)
    d.attributes = len(cardset.attributes)
    d.draw_for_creature = options.draw_for_creature
    d.lowest_first = options.lowest_first
    d.tie_creature_only = options.tie_creature_only
    d.tie_boosts = options.tie_boosts
    d.refill = REFILLS.index(options.refill)
    d.reshuffle = options.reshuffle
    d.stake = options.stake
    d.target, d.hand, d.max_rounds = options.target, options.hand, options.max_rounds
    d.start_key = cardset.digest
    for p, seat in enumerate(pos.seats):
        owned = seat.cards()
        d.count[p] = len(owned)
        for i, number in enumerate(owned):
            card = cardset.card(number)
            d.number[p][i] = number
            d.index_of[p][number] = i
            if card.is_creature:
                d.creatures[p] |= bit(i)
            if card.neutral:
                d.neutral[p] |= bit(i)
            for family in card.families:
                d.families[p][i] |= bit(families[family])
            for a, v in enumerate(card.values):
                d.values[p][i][a] = v
        index = {number: i for i, number in enumerate(owned)}
        for name, pile in (("hand", seat.hand), ("deck", seat.deck), ("discard", seat.discard),
                           ("table", seat.table)):
            mask = 0
            for number in pile:
                mask |= 1 << index[number]
            if name == "hand":
                c.hand[p] = mask
            elif name == "deck":
                c.deck[p] = mask
            elif name == "discard":
                c.discard[p] = mask
            else:
                c.table[p] = mask
        c.chosen[p] = index[seat.chosen] if seat.chosen else -1
        c.tie[p] = index[seat.tie_card] if seat.tie_card else -1
        c.value[p], c.boosted[p], c.passed[p] = seat.value, seat.boosted, seat.passed
        c.contending[p], c.out[p], c.mulligan[p] = seat.contending, seat.out, seat.mulligan
        c.won[p], c.tokens[p], c.left[p] = seat.won, seat.tokens, seat.refill_left
    c.phase, c.actor, c.caller, c.attribute = pos.phase, pos.actor, pos.caller, pos.attribute
    c.tiebreak, c.round, c.ply, c.result = pos.tiebreak, pos.round, pos.ply, pos.result
    c.recorded = (1 << SEATS) - 1             # nothing seen yet: empty records
    c.viewed = 0


cdef class Kernel(GameKernel):
    """Owns one C position; the Python-facing :class:`FastState` wraps it."""

    def __cinit__(self):
        self.s.history = NULL       # __init__ or clone allocates it, to the size each needs
        self.s.d = NULL             # and shares the data (Kernel.data)
        self.s.capacity = 0
        self.s.ply = 0

    def __dealloc__(self):
        free(self.s.history)

    def __init__(self, position, cardset, options):
        if any(len(seat.cards()) > MAX_CARDS for seat in position.seats):
            raise ValueError(f"a player owns more than {MAX_CARDS} cards")
        self.s.history = <Core*>malloc(FIRST_CAPACITY * sizeof(Core))
        if self.s.history == NULL:
            raise MemoryError()
        self.s.capacity = FIRST_CAPACITY
        self.data = bytearray(sizeof(Data))
        self.s.d = <Data*><char*>self.data
        load(&self.s, position, cardset, options)
        self.cardset = cardset

    # -- the C-level game interface (engine/kernel.pxd) --
    cdef int player(self) noexcept nogil:
        return current_player(&self.s)

    cdef long long move_count(self) noexcept nogil:
        return generate(&self.s, NULL)

    cdef long long moves(self, int* out, long long capacity) noexcept nogil:
        cdef long long count = generate(&self.s, NULL)
        if count <= capacity:
            generate(&self.s, out)
        return count

    cdef int sample_outcome(self, u64* rng) noexcept nogil:
        """generate's outcome drawn by its probability without listing them: the toss is
        one of the seats, every other chance event a card of the actor's deck, uniformly."""
        cdef KState* s = &self.s
        cdef int p = s.c.actor, k
        cdef u64 deck = s.c.deck[p]
        if not is_chance(s.c.phase):
            return -1
        if s.c.phase == TOSS:
            return M_TOSS << SHIFT | <int>random_below(rng, SEATS)
        if not deck:
            return -1
        for k in range(<int>random_below(rng, popcount(deck))):
            deck &= deck - 1
        return M_DRAW << SHIFT | s.d.number[p][lowest(deck)]

    cdef long long outcome_probabilities(self, double* out, long long capacity) noexcept nogil:
        cdef long long count = generate(&self.s, NULL)
        if not is_chance(self.s.c.phase):
            return 0
        if count <= capacity:
            probabilities(&self.s, out)
        return count

    cdef void make(self, int move) noexcept nogil:
        make_move(&self.s, move)

    cdef void unmake(self) noexcept nogil:
        unmake_move(&self.s)

    cdef u64 hash_key(self) noexcept nogil:
        return position_key(&self.s)

    cdef double terminal_value(self) noexcept nogil:
        cdef int result = self.s.c.result
        return 0.0 if result < 0 else (1.0 if result == 0 else -1.0)

    cdef int plies(self) noexcept nogil:
        return self.s.ply

    cdef bint history_full(self) noexcept nogil:
        return False                # push_history grows it

    cdef int determinize(self, int player, u64* rng) noexcept nogil:
        cdef int q = 1 - player, p
        cdef u64 unseen
        for p in range(SEATS):                # the records of the real history, first
            record(&self.s, p)
        push_history(&self.s)
        determinize_state(&self.s, player, rng)
        if 0 <= player < SEATS and self.known_count[player]:   # -1: everyone's redrawn
            unseen = self.s.c.hand[q] | self.s.c.deck[q]
            if unseen == self.known_unseen[player]:   # the position the hands were found for
                self.s.c.hand[q] = self.known[player][self.known_index(player, rng)]
                self.s.c.deck[q] = unseen & ~self.s.c.hand[q]
        self.s.c.viewed = 0                   # the other hand (and its view) changed
        return 0

    cdef u64 observation_key(self, int player) noexcept nogil:
        return observed_key(&self.s, &self.s.c, player)

    cdef u64 information_state_key(self, int player) noexcept nogil:
        return information_key(&self.s, player)

    cdef u64 information_set_key(self, int player) noexcept nogil:
        return set_record_key(&self.s, player)

    # -- Python side (the generic methods are GameKernel's) --
    def information_prefix_keys(self, int player):
        """information_state_key of each beginning of ``player``'s record, one per event
        (information.events, as information_key chains them), the whole record last: a
        history's record begins this one exactly when its key is among them."""
        cdef KState* s = &self.s
        cdef Core* before
        cdef Core* now
        cdef int k
        record(s, player)
        keys = []
        for k in range(1, s.ply + 1):
            before = &s.history[k - 1]
            now = &s.history[k] if k < s.ply else &s.c
            if not hidden_decision(before, player):
                keys.append(chain(before.info[player], VIEW_EVENT, view_key(s, before, player)))
            if seen_move(before, player, now.last_move) >= 0:
                keys.append(now.info[player])
        if not hidden_decision(&s.c, player):
            keys.append(information_key(s, player))
        return keys

    def clone(self):
        """An independent kernel; only the history in use is copied, with room for
        CLONE_ROOM more plies (it grows as any history does): a range's walk holds a clone
        per world, thousands of them (search/ranges.py)."""
        cdef Kernel twin = Kernel.__new__(Kernel)
        cdef int capacity = self.s.ply + CLONE_ROOM
        twin.s.history = <Core*>malloc(capacity * sizeof(Core))
        if twin.s.history == NULL:
            raise MemoryError()
        twin.s.capacity = capacity
        twin.s.d, twin.data = self.s.d, self.data
        twin.s.c = self.s.c
        twin.s.ply = self.s.ply
        memcpy(twin.s.history, self.s.history, self.s.ply * sizeof(Core))
        twin.cardset = self.cardset
        twin.known_buffers = self.known_buffers
        for p in range(SEATS):
            twin.known_count[p], twin.known_unseen[p] = self.known_count[p], self.known_unseen[p]
            twin.known[p], twin.known_cumulative[p] = self.known[p], self.known_cumulative[p]
        return twin

    cdef int known_index(self, int player, u64* rng) noexcept nogil:
        """A hand known to ``player`` drawn by its weight: a binary search in the
        cumulative weights."""
        cdef double draw
        cdef int low = 0, high = self.known_count[player] - 1, middle
        cdef const double* cumulative = self.known_cumulative[player]
        if high == 0:
            return 0
        if cumulative == NULL:
            return <int>random_below(rng, high + 1)
        draw = random_unit(rng) * cumulative[high]
        while low < high:
            middle = (low + high) >> 1
            if cumulative[middle] <= draw:
                low = middle + 1
            else:
                high = middle
        return low

    def know_hands(self, int player, unseen, hands, weights=None):
        """From now on ``determinize(player)`` draws the other hand from ``hands`` (card
        numbers), each as likely as it is repeated or, with ``weights``, by its weight (a
        range: search/ranges.py), while the other player's unseen cards (hand, deck, a secret
        choice taken back) are ``unseen``: the hands ``player``'s whole record allows here
        (knowledge.py), not only their view."""
        cdef int q = 1 - player, i
        cdef const char* buffer
        if player not in (0, 1):
            raise ValueError(f"player must be 0 or 1, got {player}")
        index = {self.s.d.number[q][i]: i for i in range(self.s.d.count[q])}

        def mask(cards):
            return sum(1 << index[card] for card in cards)
        hands = [mask(hand) for hand in hands]
        if not hands:
            raise ValueError("know_hands needs at least one hand")
        if weights is not None:
            weights = [float(w) for w in weights]
            if len(weights) != len(hands) or min(weights) < 0 or sum(weights) <= 0:
                raise ValueError("one weight per hand, none negative, some positive")
        if len(set(hands)) == 1:
            hands, weights = hands[:1], None    # the record tells the hand: nothing to draw
        cumulative = list(accumulate(weights)) if weights is not None else []
        kept = array("Q", hands).tobytes() + array("d", cumulative).tobytes()
        buffers = list(self.known_buffers or (None,) * SEATS)
        buffers[player] = kept
        self.known_buffers = tuple(buffers)
        buffer = kept
        self.known[player] = <const u64*>buffer
        self.known_cumulative[player] = (<const double*>(buffer + 8 * len(hands))
                                         if weights is not None else NULL)
        self.known_count[player] = len(hands)
        self.known_unseen[player] = mask(unseen)

    def to_position(self):
        cdef Core* c = &self.s.c
        seats = []
        for p in range(SEATS):
            numbers = [self.s.d.number[p][i] for i in range(self.s.d.count[p])]

            def pile(u64 mask):
                return [numbers[i] for i in range(len(numbers)) if (mask >> i) & 1]
            seats.append(Seat(
                hand=pile(c.hand[p]), deck=pile(c.deck[p]), discard=pile(c.discard[p]),
                table=pile(c.table[p]),
                chosen=numbers[c.chosen[p]] if c.chosen[p] >= 0 else 0,
                tie_card=numbers[c.tie[p]] if c.tie[p] >= 0 else 0, value=c.value[p],
                boosted=bool(c.boosted[p]), passed=bool(c.passed[p]),
                contending=bool(c.contending[p]), mulligan=c.mulligan[p], won=c.won[p],
                tokens=c.tokens[p], out=bool(c.out[p]), refill_left=c.left[p]))
        return Position(seats=seats, phase=c.phase, actor=c.actor, caller=c.caller,
                        attribute=c.attribute, tiebreak=bool(c.tiebreak), round=c.round,
                        ply=c.ply, result=c.result)

    def result(self):
        return self.s.c.result

    def private_key(self, int player):
        """ranges.py ``private_key`` of this position without making a Position: a range
        reads it at every world it holds (indices are in card-number order)."""
        cdef Core* c = &self.s.c
        cdef int i, count = self.s.d.count[player]
        hand = tuple([self.s.d.number[player][i] for i in range(count)
                      if (c.hand[player] >> i) & 1])
        if c.phase == CHOOSE and c.chosen[player] >= 0:
            return hand, self.s.d.number[player][c.chosen[player]]
        return hand, 0

    def random_playouts(self, long long games, u64 seed):
        """(plies, [P1 wins, P2 wins, draws]) of ``games`` random games from here, in C."""
        cdef long long results[3]
        cdef long long plies
        results[0] = results[1] = results[2] = 0
        with nogil:
            plies = random_playouts(&self.s, games, seed, results)
        return plies, [results[0], results[1], results[2]]

    def next_booster(self):
        return next_booster(&self.s)

    def top_players(self):
        tops = top_players(&self.s)
        return [p for p in range(SEATS) if (tops >> p) & 1]
