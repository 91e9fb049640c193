# cython: language_level=3
"""Maatatahay in C: flat per-cell arrays, copy-make undo, bulk-counted perft.

The state is ~300 bytes, so make() pushes a copy of it and unmake() pops it: cheaper and
far safer than undoing fights, Spirit moves and automatic steps one by one. Moves are
generated (or only counted, with ``out == NULL``) in the same order as the reference
implementation's, and chance probabilities are computed with the same integer formulas, so
the two agree exactly.

Everything here is nogil C; the :class:`Kernel` class only converts to and from Python.
"""
from libc.string cimport memcpy, memset
from crystalpick.engine.bits cimport bit_count, lowest_bit
from crystalpick.engine.kernel cimport PERFT_OUT_OF_MEMORY, PERFT_STOPPED, ply_overflow

from . import constants as K
from . import moves as N
from . import board as B
from .constants import PLAY_OPTIONS
from .position import EMPTY, Position
from .zobrist import start_key

# Phases, move kinds and rule numbers, copied from the Python modules into C globals once.
cdef int PAIR = K.PAIR, ORDER = K.ORDER, PLACE = K.PLACE, DRAW = K.DRAW
cdef int LOAD = K.LOAD, FIGHT = K.FIGHT, REFILL = K.REFILL, OVER = K.OVER
cdef int LAYOUT = K.LAYOUT, CRYSTALS = K.CRYSTALS, REVEAL = K.REVEAL, TOSS = K.TOSS
cdef int RETURN = K.RETURN
cdef int C_PAIRS_ON_OFFER = K.PAIRS_ON_OFFER
cdef int C_DEATH_LIMIT = K.DEATH_LIMIT, C_RELIC_DRAWS = K.RELIC_DRAWS
cdef int C_STORAGE_LIMIT = K.STORAGE_LIMIT, C_TEMPLE_BASE_COST = K.TEMPLE_BASE_COST
cdef int KIND_SHIFT = N.KIND_SHIFT
cdef int M_PAIR = N.M_PAIR, M_ORDER = N.M_ORDER, M_PLACE = N.M_PLACE, M_LOAD = N.M_LOAD
cdef int M_FIGHT = N.M_FIGHT, M_DRAW = N.M_DRAW, M_DEAL = N.M_DEAL
cdef int M_LAYOUT = N.M_LAYOUT, M_CRYSTAL = N.M_CRYSTAL, M_TOSS = N.M_TOSS
cdef int M_RETURN = N.M_RETURN
cdef int ELDER = 1, CONVERT = 2
cdef int ORTHOGONAL[4]
ORTHOGONAL[:] = B.ORTHOGONAL
cdef int DIAGONAL[4]
DIAGONAL[:] = B.DIAGONAL


# -- small helpers ---------------------------------------------------------------------------

cdef inline bint is_warrior(KState* s, int cell, int player) noexcept nogil:
    """A living warrior of ``player`` (any player if -1) on ``cell`` (off board if < 0)."""
    if cell < 0 or s.c.tile[cell] < 0 or not s.c.alive[cell]:
        return False
    return player < 0 or s.d.tribe[s.c.tile[cell]] == player


cdef inline int placer(KState* s) noexcept nogil:
    if s.c.phase == PLACE:
        return s.d.tribe[s.c.queue[0]]
    return s.d.tribe[s.c.tile[s.c.placed]]


cdef inline int order_chooser(KState* s) noexcept nogil:
    cdef int b = s.d.strength[s.c.chosen[0]], w = s.d.strength[s.c.chosen[1]]
    if b == w:
        return s.c.active
    return 0 if b < w else 1


cdef inline bint is_chance(int phase) noexcept nogil:
    return (phase == DRAW or phase == REFILL or phase == LAYOUT or phase == CRYSTALS
            or phase == REVEAL or phase == TOSS)


cdef int current_player(KState* s) noexcept nogil:
    cdef int phase = s.c.phase
    if phase == OVER:
        return -2
    if is_chance(phase):
        return -1
    if phase == PAIR:
        return s.c.active
    if phase == ORDER:
        return order_chooser(s)
    if phase == FIGHT and not s.d.fight_placer:
        return s.c.active
    return placer(s)


# -- section 5: strength and surrounding -----------------------------------------------------

cdef int strength(KState* s, int cell) noexcept nogil:
    """Printed strength + Energy on it + live Elder/Convert bonus."""
    cdef int tile = s.c.tile[cell], me = s.d.tribe[tile], i, total
    total = s.d.strength[tile] + s.c.warrior_energy[cell]
    if s.d.ability[tile] == ELDER:
        for i in range(4):
            if is_warrior(s, s.d.neighbour[cell][ORTHOGONAL[i]], me):
                total += s.d.elder
    elif s.d.ability[tile] == CONVERT:
        for i in range(4):
            if is_warrior(s, s.d.neighbour[cell][DIAGONAL[i]], 1 - me):
                total += s.d.convert
    return total


cdef int open_sides(KState* s, int cell, int* out) noexcept nogil:
    """Orthogonal sides of ``cell`` still open: an on-board neighbour without a tile (an empty
    cell or a temple still holding its relic). The edge and any tile, living or dead, close a
    side. The open cells go to ``out`` (at most 4) unless it is NULL."""
    cdef int i, nb, count = 0
    for i in range(4):
        nb = s.d.neighbour[cell][ORTHOGONAL[i]]
        if nb >= 0 and s.c.tile[nb] < 0:
            if out != NULL:
                out[count] = nb
            count += 1
    return count


cdef inline bint surrounded(KState* s, int cell) noexcept nogil:
    return open_sides(s, cell, NULL) == 0


cdef int enemy_strength(KState* s, int cell) noexcept nogil:
    """What the warrior on ``cell`` fights against: the summed strength of the living enemy
    warriors orthogonally adjacent to it."""
    cdef int enemy = 1 - s.d.tribe[s.c.tile[cell]], i, nb, against = 0
    for i in range(4):
        nb = s.d.neighbour[cell][ORTHOGONAL[i]]
        if is_warrior(s, nb, enemy):
            against += strength(s, nb)
    return against


cdef int support(KState* s, int cell, int player) noexcept nogil:
    """Arrows aimed at ``cell`` from adjacent living friendly warriors, plus the frame's."""
    cdef int d, source, total = s.d.frame[cell]
    for d in range(8):
        source = s.d.neighbour[cell][d]
        if is_warrior(s, source, player):
            total += s.d.arrows[s.c.tile[source]][s.c.rotation[source]][(d + 4) & 7]
    return total


cdef int temple_cost(KState* s, int cell, int player) noexcept nogil:
    cdef int i, nb, counted = 0, cost
    for i in range(4):
        nb = s.d.neighbour[cell][ORTHOGONAL[i]]
        if nb < 0:
            continue
        if s.d.discount_any:
            counted += s.c.tile[nb] >= 0
        else:
            counted += is_warrior(s, nb, player)
    cost = C_TEMPLE_BASE_COST - counted
    return cost if cost > 1 else 1


# -- move generation (out == NULL: count only) ------------------------------------------------

cdef inline int emit(int* out, int n, int move) noexcept nogil:
    if out != NULL:
        out[n] = move
    return n + 1


cdef int generate_placements(KState* s, int* out) noexcept nogil:
    cdef int tile = s.c.queue[0], player = s.d.tribe[tile]
    cdef int nrot = s.d.rotation_count[tile]
    cdef int spirit = s.c.storage_spirit[player], energy = s.c.storage_energy[player]
    cdef int cell, r, paid, cost, n = 0
    for cell in range(NCELLS):
        if s.c.tile[cell] >= 0:
            continue
        if not s.c.temple[cell]:
            if out == NULL:
                n += nrot
                continue
            for r in range(nrot):
                n = emit(out, n, M_PLACE << KIND_SHIFT | cell << 2 | s.d.rotations[tile][r])
            continue
        cost = temple_cost(s, cell, player)
        for r in range(nrot):
            for paid in range(1, (cost if cost < spirit else spirit) + 1):
                if cost - paid <= energy:
                    n = emit(out, n, M_PLACE << KIND_SHIFT | (cost - paid) << 10 | paid << 7
                             | cell << 2 | s.d.rotations[tile][r])
    return n


cdef int generate_loads(KState* s, int* out) noexcept nogil:
    """Any load under storage-excess=discard (the excess goes back next), else at most 4 may
    stay in storage."""
    cdef int player = placer(s)
    cdef int spirit = s.c.storage_spirit[player], energy = s.c.storage_energy[player]
    cdef int a, b, n = 0
    for a in range(spirit + 1):
        for b in range(energy + 1):
            if s.d.storage_discard or spirit - a + energy - b <= C_STORAGE_LIMIT:
                n = emit(out, n, M_LOAD << KIND_SHIFT | b << 6 | a)
    return n


cdef inline int storage_excess(KState* s, int player) noexcept nogil:
    cdef int excess = s.c.storage_spirit[player] + s.c.storage_energy[player] - C_STORAGE_LIMIT
    return excess if excess > 0 else 0


cdef int generate_returns(KState* s, int* out) noexcept nogil:
    """Exactly the excess over 4 back to the bag, in every colour mix storage allows."""
    cdef int player = placer(s), excess = storage_excess(s, player)
    cdef int a, n = 0
    for a in range(excess + 1):
        if a <= s.c.storage_spirit[player] and excess - a <= s.c.storage_energy[player]:
            n = emit(out, n, M_RETURN << KIND_SHIFT | (excess - a) << 6 | a)
    return n


cdef int draw_size(KState* s) noexcept nogil:
    cdef int bag = s.c.bag_spirit + s.c.bag_energy
    return C_RELIC_DRAWS if bag > C_RELIC_DRAWS else bag


cdef int generate_draws(KState* s, int* out) noexcept nogil:
    cdef int size = draw_size(s), k, n = 0
    for k in range(size + 1):
        if k <= s.c.bag_spirit and size - k <= s.c.bag_energy:
            n = emit(out, n, M_DRAW << KIND_SHIFT | (size - k) << 6 | k)
    return n


cdef int generate_deals(KState* s, int* out) noexcept nogil:
    cdef unsigned int balan = s.c.deck & s.d.tribe_tiles[0], wazu = s.c.deck & s.d.tribe_tiles[1]
    cdef unsigned int left
    cdef int b, w, n = 0
    if out == NULL:
        return bit_count(balan) * bit_count(wazu)
    while balan:                      # both sets ascending, as the deal's notation lists them
        b = lowest_bit(balan)
        balan &= balan - 1
        left = wazu
        while left:
            w = lowest_bit(left)
            left &= left - 1
            n = emit(out, n, M_DEAL << KIND_SHIFT | w << 6 | b)
    return n


cdef int next_undealt(KState* s) noexcept nogil:
    """The next setup cell waiting for its crystal, or -1."""
    cdef int cell
    for cell in range(NCELLS):
        if (s.c.tile[cell] < 0 and not s.c.temple[cell]
                and s.c.cell_spirit[cell] + s.c.cell_energy[cell] == 0):
            return cell
    return -1


cdef int generate_setup(KState* s, int* out) noexcept nogil:
    """The setup's chance outcomes other than the pairs: layout, crystal, coin toss."""
    cdef int phase = s.c.phase, i, cell, n = 0
    if phase == LAYOUT:
        for i in range(s.d.layout_count):
            n = emit(out, n, M_LAYOUT << KIND_SHIFT | i)
    elif phase == CRYSTALS:
        cell = next_undealt(s)
        if s.c.bag_spirit:
            n = emit(out, n, M_CRYSTAL << KIND_SHIFT | cell << 1)
        if s.c.bag_energy:
            n = emit(out, n, M_CRYSTAL << KIND_SHIFT | cell << 1 | 1)
    elif phase == TOSS:
        n = emit(out, n, M_TOSS << KIND_SHIFT)
        n = emit(out, n, M_TOSS << KIND_SHIFT | 1)
    return n


cdef int generate(KState* s, int* out) noexcept nogil:
    """The legal moves or chance outcomes, in the reference implementation's order."""
    cdef int phase = s.c.phase, i, n = 0
    cdef unsigned int fighters
    if phase == PLACE:
        return generate_placements(s, out)
    if phase == LOAD:
        return generate_loads(s, out)
    if phase == RETURN:
        return generate_returns(s, out)
    if phase == DRAW:
        return generate_draws(s, out)
    if phase == REFILL or phase == REVEAL:
        return generate_deals(s, out)
    if phase == LAYOUT or phase == CRYSTALS or phase == TOSS:
        return generate_setup(s, out)
    if phase == PAIR:
        for i in range(s.c.pair_count):
            n = emit(out, n, M_PAIR << KIND_SHIFT | s.c.pairs[i][1] << 6 | s.c.pairs[i][0])
        return n
    if phase == ORDER:
        n = emit(out, n, M_ORDER << KIND_SHIFT)
        return emit(out, n, M_ORDER << KIND_SHIFT | 1)
    if phase == FIGHT:
        fighters = s.c.fighters
        while fighters:
            n = emit(out, n, M_FIGHT << KIND_SHIFT | lowest_bit(fighters))
            fighters &= fighters - 1
    return n


cdef long long choose2(long long n, int k) noexcept nogil:
    """n choose k for k <= 2 (the relic draws)."""
    if k == 0:
        return 1
    if k == 1:
        return n
    return n * (n - 1) // 2


cdef int probabilities(KState* s, double* out) noexcept nogil:
    """Exact chance probabilities in the order of generate(): hypergeometric bag draws, the
    bag's colour shares for setup crystals, uniform otherwise."""
    cdef int size, k, n = 0
    cdef long long total
    cdef double uniform
    if s.c.phase == DRAW:
        size = draw_size(s)
        total = choose2(s.c.bag_spirit + s.c.bag_energy, size)
        for k in range(size + 1):
            if k <= s.c.bag_spirit and size - k <= s.c.bag_energy:
                out[n] = <double>(choose2(s.c.bag_spirit, k)
                                  * choose2(s.c.bag_energy, size - k)) / <double>total
                n += 1
        return n
    if s.c.phase == CRYSTALS:
        total = s.c.bag_spirit + s.c.bag_energy
        if s.c.bag_spirit:
            out[n] = <double>s.c.bag_spirit / <double>total
            n += 1
        if s.c.bag_energy:
            out[n] = <double>s.c.bag_energy / <double>total
            n += 1
        return n
    if is_chance(s.c.phase):                  # refills, reveals, layout, toss: uniform
        n = generate(s, NULL)
        uniform = 1.0 / n
        for k in range(n):
            out[k] = uniform
    return n


# -- playing ---------------------------------------------------------------------------------

cdef void place(KState* s, int cell, int rotation, int paid_spirit, int paid_energy) noexcept nogil:
    cdef int tile = s.c.queue[0], player = s.d.tribe[tile], gift
    s.c.queue[0] = s.c.queue[1]
    s.c.queue_length -= 1
    s.c.tile[cell] = tile
    s.c.rotation[cell] = rotation
    s.c.alive[cell] = 1
    s.c.placed = cell
    if s.c.temple[cell]:
        s.c.storage_spirit[player] -= paid_spirit
        s.c.storage_energy[player] -= paid_energy
        s.c.bag_spirit += paid_spirit
        s.c.bag_energy += paid_energy
        s.c.relics[s.c.relic_count] = player
        s.c.relic_count += 1
        s.c.phase = DRAW
    else:
        s.c.storage_spirit[player] += s.c.cell_spirit[cell]
        s.c.storage_energy[player] += s.c.cell_energy[cell]
        s.c.cell_spirit[cell] = 0
        s.c.cell_energy[cell] = 0
        s.c.phase = LOAD
    gift = support(s, cell, player)
    if gift > s.c.supply_energy:
        gift = s.c.supply_energy
    s.c.supply_energy -= gift
    s.c.warrior_energy[cell] += gift


cdef unsigned int new_fighters(KState* s, int cell) noexcept nogil:
    """The warriors that the tile just placed on ``cell`` makes fight (as a bit mask of cells):
    itself if surrounded, and each living orthogonal neighbour it closed in."""
    cdef int i, nb
    cdef unsigned int mask = 0
    if surrounded(s, cell):
        mask |= 1u << cell
    for i in range(4):
        nb = s.d.neighbour[cell][ORTHOGONAL[i]]
        if is_warrior(s, nb, -1) and surrounded(s, nb):
            mask |= 1u << nb
    return mask


cdef unsigned int pending_fighters(KState* s) noexcept nogil:
    """Warriors that must still fight this turn: the fights of the warrior being placed before
    its load decides them (draw, load, return), the fights still to resolve (fight), else
    none."""
    if s.c.phase == FIGHT:
        return s.c.fighters
    if (s.c.phase == DRAW or s.c.phase == LOAD or s.c.phase == RETURN) and s.c.placed >= 0:
        return new_fighters(s, s.c.placed)
    return 0


cdef void load(KState* s, int spirit, int energy) noexcept nogil:
    cdef int player = placer(s), cell = s.c.placed
    s.c.storage_spirit[player] -= spirit
    s.c.storage_energy[player] -= energy
    s.c.warrior_spirit[cell] += spirit
    s.c.warrior_energy[cell] += energy
    if storage_excess(s, player):
        s.c.phase = RETURN
    else:
        s.c.fighters = new_fighters(s, cell)
        s.c.phase = FIGHT


cdef void return_to_bag(KState* s, int spirit, int energy) noexcept nogil:
    cdef int player = placer(s)
    s.c.storage_spirit[player] -= spirit
    s.c.storage_energy[player] -= energy
    s.c.bag_spirit += spirit
    s.c.bag_energy += energy
    s.c.fighters = new_fighters(s, s.c.placed)
    s.c.phase = FIGHT


cdef void die(KState* s, int cell) noexcept nogil:
    cdef int spirit = s.c.warrior_spirit[cell], placed = s.c.placed
    s.c.alive[cell] = 0
    s.c.rotation[cell] = 0
    s.c.deaths[s.d.tribe[s.c.tile[cell]]] += 1
    s.c.supply_energy += s.c.warrior_energy[cell]
    s.c.warrior_energy[cell] = 0
    s.c.warrior_spirit[cell] = 0
    if not s.d.spirit_remove and cell != placed and s.c.alive[placed]:
        s.c.warrior_spirit[placed] += spirit
    else:
        s.c.removed_spirit += spirit


cdef void fight(KState* s, int cell) noexcept nogil:
    """The fighter alone against the summed strength of living enemies beside it."""
    cdef int against = enemy_strength(s, cell)
    s.c.fighters &= ~(1u << cell)
    if strength(s, cell) < against:
        die(s, cell)


cdef int free_cells(KState* s) noexcept nogil:
    """Cells without a tile, not counting the temples still holding their relic."""
    cdef int cell, count = 0
    for cell in range(NCELLS):
        if s.c.tile[cell] < 0 and not s.c.temple[cell]:
            count += 1
    return count


cdef int deaths_to_end(KState* s) noexcept nogil:
    """Deaths still to come before the death limit ends the game (``death-limit``: the total,
    or either tribe's own count)."""
    if s.d.death_either:
        return C_DEATH_LIMIT - max(s.c.deaths[0], s.c.deaths[1])
    return C_DEATH_LIMIT - s.c.deaths[0] - s.c.deaths[1]


cdef bint game_over(KState* s) noexcept nogil:
    if deaths_to_end(s) <= 0:
        return True
    if s.c.deck == 0 and s.c.pair_count == 0:
        return True
    return free_cells(s) <= 1


cdef void end_placement(KState* s) noexcept nogil:
    s.c.placed = -1
    s.c.fighters = 0
    if s.c.queue_length:
        s.c.phase = PLACE
        return
    s.c.active = 1 - s.c.active
    if game_over(s):
        s.c.phase = OVER
    elif s.c.deck:
        s.c.phase = REFILL
    else:
        s.c.phase = PAIR


cdef void take_pair(KState* s, int balan, int wazu) noexcept nogil:
    cdef int i, j
    for i in range(s.c.pair_count):
        if s.c.pairs[i][0] == balan and s.c.pairs[i][1] == wazu:
            for j in range(i, s.c.pair_count - 1):
                s.c.pairs[j][0] = s.c.pairs[j + 1][0]
                s.c.pairs[j][1] = s.c.pairs[j + 1][1]
            s.c.pair_count -= 1
            break
    s.c.chosen[0] = balan
    s.c.chosen[1] = wazu
    s.c.phase = ORDER


cdef void apply(KState* s, int move) noexcept nogil:
    cdef int kind = move >> KIND_SHIFT, low = move & 63, high = (move >> 6) & 63, player, i, cell
    if kind == M_PLACE:
        place(s, (move >> 2) & 31, move & 3, (move >> 7) & 7, (move >> 10) & 7)
    elif kind == M_LOAD:
        load(s, low, high)
    elif kind == M_RETURN:
        return_to_bag(s, low, high)
    elif kind == M_FIGHT:
        fight(s, low)
    elif kind == M_PAIR:
        take_pair(s, low, high)
    elif kind == M_ORDER:
        s.c.queue[0] = s.c.chosen[low]
        s.c.queue[1] = s.c.chosen[1 - low]
        s.c.queue_length = 2
        s.c.phase = PLACE
    elif kind == M_DRAW:
        player = placer(s)
        s.c.bag_spirit -= low
        s.c.bag_energy -= high
        s.c.storage_spirit[player] += low
        s.c.storage_energy[player] += high
        s.c.phase = LOAD
    elif kind == M_DEAL:
        s.c.pairs[s.c.pair_count][0] = low
        s.c.pairs[s.c.pair_count][1] = high
        s.c.pair_count += 1
        s.c.deck &= ~((1u << low) | (1u << high))
        if s.c.phase != REVEAL:
            s.c.phase = PAIR
        elif s.c.pair_count >= C_PAIRS_ON_OFFER:
            s.c.phase = TOSS
    elif kind == M_LAYOUT:
        for i in range(5):
            s.c.temple[s.d.layouts[move & 63][i]] = 1
        s.c.phase = CRYSTALS
    elif kind == M_CRYSTAL:
        cell = (move & 63) >> 1
        if move & 1:
            s.c.bag_energy -= 1
            s.c.cell_energy[cell] += 1
        else:
            s.c.bag_spirit -= 1
            s.c.cell_spirit[cell] += 1
        if next_undealt(s) < 0:
            s.c.phase = REVEAL
    elif kind == M_TOSS:
        s.c.active = low
        s.c.phase = PAIR


cdef void settle(KState* s) noexcept nogil:
    """Play the steps that offer no choice (as the reference's _settle does)."""
    cdef int out[MAX_MOVES]
    cdef int phase, player
    while True:
        phase = s.c.phase
        if phase == PAIR and s.c.pair_count == 1:
            take_pair(s, s.c.pairs[0][0], s.c.pairs[0][1])
        elif is_chance(phase) and generate(s, NULL) == 1:
            generate(s, out)
            apply(s, out[0])
        elif phase == LOAD:
            player = placer(s)
            if s.c.storage_spirit[player] + s.c.storage_energy[player]:
                return
            load(s, 0, 0)
        elif phase == RETURN and generate_returns(s, NULL) == 1:
            generate_returns(s, out)
            apply(s, out[0])
        elif phase == FIGHT and s.c.fighters == 0:
            end_placement(s)
        elif phase == FIGHT and bit_count(s.c.fighters) == 1:
            fight(s, lowest_bit(s.c.fighters))
        else:
            return


cdef void make_move(KState* s, int move) noexcept nogil:
    if s.ply >= MAX_PLIES:
        ply_overflow()
    s.history[s.ply] = s.c
    s.ply += 1
    apply(s, move)
    settle(s)


cdef void unmake_move(KState* s) noexcept nogil:
    s.ply -= 1
    s.c = s.history[s.ply]


# -- section 7: scoring ----------------------------------------------------------------------

cdef void scores(KState* s, int* points) noexcept nogil:
    cdef int k, cell
    cdef int counts[2]
    points[0] = points[1] = 0
    counts[0] = counts[1] = 0
    for k in range(s.c.relic_count):
        counts[s.c.relics[k]] += 1
        if s.d.relic_order:
            points[s.c.relics[k]] += k + 1
    if not s.d.relic_order:
        for k in range(2):
            points[k] = counts[k] * (counts[k] + 1) // 2
    for cell in range(NCELLS):
        if is_warrior(s, cell, -1):
            points[s.d.tribe[s.c.tile[cell]]] += (s.d.gems[s.c.tile[cell]]
                                                  + s.c.warrior_spirit[cell])


cdef int next_relic_value(KState* s, int player) noexcept nogil:
    """The points ``player``'s next relic would add: the next place in the global order
    (``relic-scoring=order``), or one more than the relics they hold (progressive)."""
    cdef int k, held = 0
    if s.d.relic_order:
        return s.c.relic_count + 1
    for k in range(s.c.relic_count):
        held += s.c.relics[k] == player
    return held + 1


cdef int winner(KState* s) noexcept nogil:
    """0 or 1, or -1 for a draw: points, then surviving warriors, then the latest relic."""
    cdef int points[2]
    cdef int survivors[2]
    cdef int cell
    scores(s, points)
    if points[0] != points[1]:
        return 0 if points[0] > points[1] else 1
    survivors[0] = survivors[1] = 0
    for cell in range(NCELLS):
        if is_warrior(s, cell, -1):
            survivors[s.d.tribe[s.c.tile[cell]]] += 1
    if survivors[0] != survivors[1]:
        return 0 if survivors[0] > survivors[1] else 1
    if s.c.relic_count:
        return s.c.relics[s.c.relic_count - 1]
    return -1


# -- the position key (the same facts as zobrist.py) -----------------------------------------

cdef inline u64 mix(u64 kind, u64 a, u64 b) noexcept nogil:
    cdef u64 z = (kind << 40 | a << 20 | b) + 0x9E3779B97F4A7C15ULL
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef u64 position_key(KState* s) noexcept nogil:
    cdef u64 key = 0
    cdef int c, p, i
    cdef unsigned int deck
    for c in range(NCELLS):
        if s.c.tile[c] >= 0:
            key ^= mix(1, c, s.c.tile[c] * 8 + s.c.rotation[c] * 2 + s.c.alive[c])
        if s.c.warrior_spirit[c]:
            key ^= mix(2, c, s.c.warrior_spirit[c])
        if s.c.warrior_energy[c]:
            key ^= mix(3, c, s.c.warrior_energy[c])
        if s.c.cell_spirit[c]:
            key ^= mix(4, c, s.c.cell_spirit[c])
        if s.c.cell_energy[c]:
            key ^= mix(5, c, s.c.cell_energy[c])
        if s.c.temple[c]:
            key ^= mix(6, c, 0)
        if (s.c.fighters >> c) & 1:
            key ^= mix(19, c, 0)
    for p in range(2):
        key ^= mix(7, p, s.c.storage_spirit[p]) ^ mix(8, p, s.c.storage_energy[p])
    key ^= mix(9, 0, s.c.bag_spirit) ^ mix(9, 1, s.c.bag_energy) ^ mix(10, 0, s.c.supply_energy)
    for i in range(s.c.relic_count):
        key ^= mix(11, i, s.c.relics[i])
    deck = s.c.deck
    while deck:
        key ^= mix(12, lowest_bit(deck), 0)
        deck &= deck - 1
    for i in range(s.c.pair_count):
        key ^= mix(13, i, s.c.pairs[i][0] * 32 + s.c.pairs[i][1])
    key ^= mix(14, 0, s.c.active) ^ mix(15, s.c.phase, 0)
    if s.c.phase == ORDER:
        key ^= mix(16, s.c.chosen[0], s.c.chosen[1])
    for i in range(s.c.queue_length):
        key ^= mix(17, i, s.c.queue[i])
    if s.c.placed >= 0:
        key ^= mix(18, s.c.placed, 0)
    return key ^ s.d.start_key


# -- perft -----------------------------------------------------------------------------------

cdef long long perft_c(KState* s, int depth, const volatile int* stop) noexcept nogil:
    """Paths through decisions and chance outcomes alike; the last ply is only counted."""
    cdef int moves[MAX_MOVES]
    cdef int i, n
    cdef long long sub, total = 0
    if depth <= 0:
        return 1
    if depth == 1:
        return generate(s, NULL)
    if stop != NULL and stop[0]:
        return PERFT_STOPPED
    n = generate(s, moves)
    for i in range(n):
        make_move(s, moves[i])
        sub = perft_c(s, depth - 1, stop)
        unmake_move(s)
        if sub < 0:
            return sub
        total += sub
    return total


# -- Python boundary -------------------------------------------------------------------------

cdef void load_data(Data* d, object position):
    """Component data and options from the position's tileset and options."""
    tileset = position.tileset
    memset(d, 0, sizeof(Data))
    for t, tile in enumerate(tileset.tiles):
        d.strength[t] = tile.strength
        d.gems[t] = tile.gems
        d.tribe[t] = tile.tribe
        d.ability[t] = {None: 0, "elder": ELDER, "convert": CONVERT}[tile.ability]
        d.tribe_tiles[tile.tribe] |= 1u << t
        for r in range(4):
            for direction, count in enumerate(tile.arrows_at(r)):
                d.arrows[t][r][direction] = count
        d.rotation_count[t] = len(tile.rotations)
        for i, r in enumerate(tile.rotations):
            d.rotations[t][i] = r
    for c, energy in enumerate(tileset.frame_energy):
        d.frame[c] = energy
    d.elder = tileset.elder
    d.convert = tileset.convert
    d.layout_count = len(tileset.layouts)
    for k, cells in enumerate(tileset.layouts.values()):
        for i, c in enumerate(cells):
            d.layouts[k][i] = c
    for c in range(NCELLS):
        for direction in range(8):
            d.neighbour[c][direction] = B.NEIGHBOUR[c][direction]
    options = position.options
    d.discount_any = options["temple-discount"] == "any"
    d.death_either = options["death-limit"] == "either"
    d.relic_order = options["relic-scoring"] == "order"
    d.fight_placer = options["fight-order"] == "placer"
    d.spirit_remove = options["dead-spirit"] == "remove"
    d.storage_discard = options["storage-excess"] == "discard"
    for i, option in enumerate(PLAY_OPTIONS):
        d.option_choice[i] = option.choices.index(options[option.name])
    d.start_key = start_key(tileset, options)


cdef void load_core(Core* c, object pos):
    memset(c, 0, sizeof(Core))
    for cell in range(NCELLS):
        c.tile[cell] = pos.tile[cell]
        c.rotation[cell] = pos.rotation[cell]
        c.alive[cell] = pos.alive[cell]
        c.warrior_spirit[cell] = pos.warrior_spirit[cell]
        c.warrior_energy[cell] = pos.warrior_energy[cell]
        c.cell_spirit[cell] = pos.cell_spirit[cell]
        c.cell_energy[cell] = pos.cell_energy[cell]
        if pos.tile[cell] != EMPTY and not pos.alive[cell]:
            c.deaths[pos.tribe(cell)] += 1
    for p in range(2):
        c.storage_spirit[p] = pos.storage_spirit[p]
        c.storage_energy[p] = pos.storage_energy[p]
    c.bag_spirit, c.bag_energy = pos.bag_spirit, pos.bag_energy
    c.supply_energy, c.removed_spirit = pos.supply_energy, pos.removed_spirit
    for cell in pos.temples:
        c.temple[cell] = 1
    c.relic_count = len(pos.relics)
    for i, owner in enumerate(pos.relics):
        c.relics[i] = owner
    for t in pos.deck:
        c.deck |= 1u << t
    c.pair_count = len(pos.pairs)
    for i, (b, w) in enumerate(pos.pairs):
        c.pairs[i][0], c.pairs[i][1] = b, w
    c.active, c.phase = pos.active, pos.phase
    if pos.chosen is not None:
        c.chosen[0], c.chosen[1] = pos.chosen
    c.queue_length = len(pos.queue)
    for i, t in enumerate(pos.queue):
        c.queue[i] = t
    c.placed = pos.placed
    for cell in pos.fighters:
        c.fighters |= 1u << cell


cdef class Kernel:
    """Owns one C position; the Python-facing :class:`FastState` wraps it."""

    def __init__(self, position):
        self.s.ply = 0
        load_data(&self.s.d, position)
        load_core(&self.s.c, position)
        self.tileset = position.tileset

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
        cdef int best = winner(&self.s)
        return 0.0 if best < 0 else (1.0 if best == 0 else -1.0)

    cdef int plies(self) noexcept nogil:
        return self.s.ply

    cdef long long perft_nodes(self, int depth, const volatile int* stop) noexcept nogil:
        return perft_c(&self.s, depth, stop)

    # -- Python side (the generic methods are GameKernel's) --
    def clone(self):
        """An independent kernel; only the history in use is copied (searchers clone often)."""
        cdef Kernel twin = Kernel.__new__(Kernel)
        twin.s.d = self.s.d
        twin.s.c = self.s.c
        twin.s.ply = self.s.ply
        memcpy(twin.s.history, self.s.history, self.s.ply * sizeof(Core))
        twin.tileset = self.tileset
        return twin

    def to_position(self):
        cdef Core* c = &self.s.c
        cells = range(NCELLS)
        fighters = [cell for cell in cells if (c.fighters >> cell) & 1]
        return Position(
            tileset=self.tileset,
            tile=[c.tile[x] for x in cells], rotation=[c.rotation[x] for x in cells],
            alive=[bool(c.alive[x]) for x in cells],
            warrior_spirit=[c.warrior_spirit[x] for x in cells],
            warrior_energy=[c.warrior_energy[x] for x in cells],
            cell_spirit=[c.cell_spirit[x] for x in cells],
            cell_energy=[c.cell_energy[x] for x in cells],
            temples=tuple(x for x in cells if self.s.c.temple[x]),
            storage_spirit=[c.storage_spirit[0], c.storage_spirit[1]],
            storage_energy=[c.storage_energy[0], c.storage_energy[1]],
            bag_spirit=c.bag_spirit, bag_energy=c.bag_energy, supply_energy=c.supply_energy,
            removed_spirit=c.removed_spirit, relics=[c.relics[i] for i in range(c.relic_count)],
            deck=[t for t in range(NTILES) if (c.deck >> t) & 1],
            pairs=[(c.pairs[i][0], c.pairs[i][1]) for i in range(c.pair_count)],
            active=c.active, phase=c.phase,
            chosen=(c.chosen[0], c.chosen[1]) if c.phase == ORDER else None,
            queue=[c.queue[i] for i in range(c.queue_length)], placed=c.placed,
            fighters=fighters,
            options={o.name: o.choices[self.s.d.option_choice[i]]
                     for i, o in enumerate(PLAY_OPTIONS)})

    def winner(self):
        best = winner(&self.s)
        return None if best < 0 else best

    def scores(self):
        cdef int points[2]
        scores(&self.s, points)
        return [points[0], points[1]]

    def crystal_totals(self):
        """(Spirit, Energy) counted over bag, storages, cells, warriors, supply and removed."""
        cdef Core* c = &self.s.c
        spirit = c.bag_spirit + c.storage_spirit[0] + c.storage_spirit[1] + c.removed_spirit
        energy = c.bag_energy + c.storage_energy[0] + c.storage_energy[1] + c.supply_energy
        for x in range(NCELLS):
            spirit += c.warrior_spirit[x] + c.cell_spirit[x]
            energy += c.warrior_energy[x] + c.cell_energy[x]
        return spirit, energy

    def deaths(self):
        return [self.s.c.deaths[0], self.s.c.deaths[1]]
