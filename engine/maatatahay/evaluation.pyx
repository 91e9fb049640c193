# cython: language_level=3
"""Maatatahay evaluation: the score now, what is at risk, and what each side can still gain.

Points decide the game, so every term is in points' currency: ``POINTS`` evaluation units
per point. Each term is computed for both players from one read-only pass over the kernel's
``KState`` and scored as (side to move) - (opponent); the sum is clamped to +-EVAL_BOUND.
Rule facts (strength, surround status, what a warrior fights, pending fights, support,
temple cost, free cells, the next relic's value, the deaths left before the end) come from
the kernel's own exported functions, and component values (gems, printed strength) from the
tileset loaded into the kernel, so no rule or component number is copied here.

* ``POINTS`` (40 per point): the points the kernel would count now (relics, living
  warriors' gems and Spirit), which decide the game.
* Safety of living warriors (``SAFETY`` = 14 per expected point lost): a warrior not yet
  surrounded fights when its last open side closes, alone against the living enemies beside
  it. It is *killable* when its strength is below what it would face if the enemy closed
  all its open sides: the enemy strength beside it now (``enemy_strength``), plus per open
  side the strongest printed strength the enemy has left and the support that cell gives
  the enemy, plus the Energy in the enemy's storage. The stake of a warrior is its gems, its
  Spirit twice (lost, and the killer may take it) and 1 for the death itself (death limit,
  survivors tie-break). A killable warrior with one open side puts its stake on that cell;
  per owner the worst cell costs 0.9 of its stake and the next 0.3 when the enemy places
  next, 0.3 and 0.6 when the owner does (it can close the worst one with a friend), 0.6
  and 0.45 until the next round's order is known. With 2, 3, 4 open sides the danger is
  0.3, 0.2, 0.1 when the enemy beside it already outweighs it, else 0.12, 0.05, 0.02.
  Warriors that are surrounded and survived are safe for good; a pending fight (draw, load
  or fight step) is lost outright (danger 1) when the strengths now say so.
* Crystals in storage (``STORED_SPIRIT`` = 13, ``STORED_ENERGY`` = 32 per crystal): Spirit
  becomes a point once loaded onto a surviving warrior and pays for temples; Energy becomes
  strength.
* Relic prospects (``RELIC`` = 52 per point of the next relic's value): the points the
  player's next relic would score (``next_relic_value``: the player's count + 1, or the
  game's with ``relic-scoring=order``) times how well storage pays for the cheapest
  unclaimed temple now (``temple_cost``): 1 when it covers the cost, else the share of the
  cost held, and a quarter of that without a Spirit to enter with.
* Remaining tiles (``REMAINING`` = 50 per gem): gems printed on the tiles a player has not
  placed yet, times the share of them the free cells leave room for ((free cells - 1) / 2
  placements each, at most all of them): what later placements can still score.
* Tempo, crystal prospects this round (``CELL_SPIRIT`` = 4, ``CELL_ENERGY`` = 8 per
  crystal): the players whose tile is still to be placed this round collect next, the first
  of them from the richest free cell and the second from the next one; later rounds share
  the cells evenly, so they cancel out.

* Nearness of the end (``*_LATE``, the share of a term lost per unit of progress;
  ``RELIC_LATE`` = 0.9, ``REMAINING_LATE`` = 0.85, the others 0): the game ends when the
  death limit is reached, so the terms about the future are worth less the fewer deaths are
  left. Each term is scaled by 1 - its late weight x progress, progress = 1 - (deaths still
  to come before the limit, ``deaths_to_end``) / ``DEATH_LIMIT``: 0 with no death, 5/6 when
  the next death ends the game.

The weights were fitted by ``bench/experiments/maatatahay_fit.py`` (logistic regression of
game results on the terms over positions of seeded depth-2 self-play with 15% random moves, default
rules) and checked by matches (docs/search.md). ``MaatatahayEvaluator(**weights)``
overrides them, for tuning and tests.
"""
from crystalpick.engine.maatatahay._fast cimport (
    Kernel as MaatatahayKernel, KState, NCELLS, NTILES, scores, strength, open_sides,
    enemy_strength, pending_fighters, support, temple_cost, free_cells, next_relic_value,
    deaths_to_end)
from crystalpick.engine.maatatahay import constants as _K
from libc.string cimport memset

cdef enum:
    POINTS = 40
    SAFETY = 14
    STORED_SPIRIT = 13
    STORED_ENERGY = 32
    RELIC = 52
    REMAINING = 50
    CELL_SPIRIT = 4
    CELL_ENERGY = 8

# Share of a term lost per unit of progress towards the death limit (see ``late``).
cdef double POINTS_LATE = 0.0, SAFETY_LATE = 0.0, STORED_LATE = 0.0
cdef double RELIC_LATE = 0.9, REMAINING_LATE = 0.85, TEMPO_LATE = 0.0
cdef double DEATH_LIMIT = _K.DEATH_LIMIT

# Danger of a warrior with 2-4 open sides (index): when the enemy beside it already outweighs
# it (any closing kills it), and when the enemy could still add enough. One open side is
# scored by the cell that closes it (see ``compute_terms``).
cdef double OUTWEIGHED[5]
cdef double THREATENED[5]
OUTWEIGHED[:] = [0.0, 0.0, 0.3, 0.2, 0.1]
THREATENED[:] = [0.0, 0.0, 0.12, 0.05, 0.02]
# A cell that closes the last open side of killable warriors: the share of the stake lost
# for the worst such cell and for the next one, by who places next (the enemy, the owner who
# can close the worst one with a friend, unknown until the next round's order).
cdef double WORST[3]
cdef double NEXT[3]
WORST[:] = [0.9, 0.3, 0.6]
NEXT[:] = [0.3, 0.6, 0.45]

cdef int C_PLACE = _K.PLACE, C_LOAD = _K.LOAD, C_DRAW = _K.DRAW, C_FIGHT = _K.FIGHT
cdef int C_RETURN = _K.RETURN

cdef struct Terms:
    double points[2]
    double safety[2]        # minus the expected points at risk, in evaluation units
    double stored[2]
    double relics[2]
    double remaining[2]
    double tempo[2]


cdef inline double clamp_bound(double x) noexcept nogil:
    return max(-<double>EVAL_BOUND, min(<double>EVAL_BOUND, x))


cdef inline bint living(KState* s, int cell) noexcept nogil:
    return s.c.tile[cell] >= 0 and s.c.alive[cell] != 0


cdef double danger(KState* s, int cell, unsigned int pending, int* left, int* best_strength,
                   signed char* support_cache, int* gap) noexcept nogil:
    """How likely the warrior on ``cell`` is to die in a fight, in [0, 1]; for a warrior with
    one open side that the enemy could close to kill it, sets ``gap`` to that cell and returns
    0 (the caller weighs such cells per owner). ``support_cache`` holds support(cell, enemy)
    per cell, -1 until needed."""
    cdef int me = s.d.tribe[s.c.tile[cell]], enemy = 1 - me
    cdef int sides, i, mine, against, reach
    cdef int gaps[4]
    gap[0] = -1
    if (pending >> cell) & 1:
        return 1.0 if strength(s, cell) < enemy_strength(s, cell) else 0.0
    sides = open_sides(s, cell, gaps)
    if sides == 0 or not left[enemy]:
        return 0.0                  # safe for good, or the enemy has no tile to close it
    mine = strength(s, cell)
    against = enemy_strength(s, cell)
    reach = against + s.c.storage_energy[enemy] + sides * best_strength[enemy]
    i = 0
    while mine >= reach and i < sides:      # support only where it can matter
        if support_cache[gaps[i]] < 0:
            support_cache[gaps[i]] = support(s, gaps[i], enemy)
        reach += support_cache[gaps[i]]
        i += 1
    if mine >= reach:
        return 0.0
    if sides == 1:
        gap[0] = gaps[0]
        return 0.0
    return OUTWEIGHED[sides] if mine < against else THREATENED[sides]


cdef inline bint in_placement(int phase) noexcept nogil:
    """A round's placements are under way (its pair and order chosen)."""
    return (phase == C_PLACE or phase == C_LOAD or phase == C_DRAW or phase == C_FIGHT
            or phase == C_RETURN)


cdef int next_placer(KState* s) noexcept nogil:
    """Who places the next tile, -1 until the next round's order is chosen."""
    if in_placement(s.c.phase):
        if s.c.queue_length:
            return s.d.tribe[s.c.queue[0]]
    return -1


cdef inline void top_two(double value, double* first, double* second) noexcept nogil:
    if value > first[0]:
        second[0] = first[0]
        first[0] = value
    elif value > second[0]:
        second[0] = value


cdef void compute_terms(KState* s, Weights* w, Terms* t) noexcept nogil:
    cdef int points[2]
    cdef int left[2]              # tiles not placed yet
    cdef int gems_left[2]
    cdef int best_strength[2]     # strongest printed strength among them
    cdef int temples[5]           # unclaimed temples
    cdef int threat[2][NCELLS]    # stake of each side's killable warriors per closing cell
    cdef int gaps[2][NCELLS]      # the cells with a threat, per side
    cdef int gap_count[2]
    cdef signed char support_cache[2][NCELLS]
    cdef int side, cell, tile, k, cost, held, free, gap, stake, mover, temple_count = 0
    cdef double first = 0.0, second = 0.0
    cdef unsigned int pending, on_board = 0
    cdef double a, best, share
    cdef bint in_round = in_placement(s.c.phase)
    scores(s, points)
    for cell in range(NCELLS):
        if s.c.tile[cell] >= 0:
            on_board |= 1u << s.c.tile[cell]
        elif s.c.temple[cell]:
            temples[temple_count] = cell
            temple_count += 1
        elif in_round:          # the richest free cells, for the tempo term
            top_two(w.cell_spirit * s.c.cell_spirit[cell]
                    + w.cell_energy * s.c.cell_energy[cell], &first, &second)
    for side in range(2):
        left[side] = gems_left[side] = best_strength[side] = gap_count[side] = 0
        t.points[side] = w.points * points[side]
        t.safety[side] = 0.0
        t.stored[side] = (w.stored_spirit * s.c.storage_spirit[side]
                          + w.stored_energy * s.c.storage_energy[side])
        t.relics[side] = t.remaining[side] = t.tempo[side] = 0.0
    for tile in range(NTILES):
        if not (on_board >> tile) & 1:
            side = s.d.tribe[tile]
            left[side] += 1
            gems_left[side] += s.d.gems[tile]
            if s.d.strength[tile] > best_strength[side]:
                best_strength[side] = s.d.strength[tile]

    # tempo: who still places this round collects the richest free cells next
    if in_round:
        for k in range(s.c.queue_length):
            t.tempo[s.d.tribe[s.c.queue[k]]] += first if k == 0 else second

    # safety of living warriors
    pending = pending_fighters(s)
    memset(support_cache, -1, sizeof(support_cache))
    for cell in range(NCELLS):
        if living(s, cell):
            side = s.d.tribe[s.c.tile[cell]]
            stake = s.d.gems[s.c.tile[cell]] + 2 * s.c.warrior_spirit[cell] + 1
            t.safety[side] -= w.safety * stake * danger(s, cell, pending, left, best_strength,
                                                      support_cache[1 - side], &gap)
            if gap >= 0:
                for k in range(gap_count[side]):
                    if gaps[side][k] == gap:
                        break
                else:
                    gaps[side][gap_count[side]] = gap
                    gap_count[side] += 1
                    threat[side][gap] = 0
                threat[side][gap] += stake
    mover = next_placer(s)
    for side in range(2):
        if gap_count[side]:
            first = second = 0.0
            for k in range(gap_count[side]):
                top_two(threat[side][gaps[side][k]], &first, &second)
            k = 2 if mover < 0 else (0 if mover != side else 1)
            t.safety[side] -= w.safety * (WORST[k] * first + NEXT[k] * second)

    # relic prospects: the cheapest unclaimed temple each player could pay for
    for side in range(2):
        held = s.c.storage_spirit[side] + s.c.storage_energy[side]
        best = 0.0
        for k in range(temple_count):
            cost = temple_cost(s, temples[k], side)
            a = 1.0 if held >= cost else <double>held / cost
            if a > best:
                best = a
        if s.c.storage_spirit[side] == 0:
            best *= 0.25
        if best > 0.0:
            t.relics[side] = w.relic * next_relic_value(s, side) * best

    # remaining tiles: the gems later placements can still bring in
    free = free_cells(s) - 1
    for side in range(2):
        if left[side]:
            share = (free / 2.0) / left[side]
            t.remaining[side] = w.remaining * gems_left[side] * (share if share < 1.0 else 1.0)

    # the nearer the death limit, the less the future is worth
    late(s, w, t)


cdef void late(KState* s, Weights* w, Terms* t) noexcept nogil:
    """Scale each term by 1 - (its ``*_late`` weight) x progress, where progress = 1 - the
    deaths still to come before the death limit ends the game / DEATH_LIMIT (the kernel's
    ``deaths_to_end``, under either ``death-limit`` option)."""
    cdef double progress = 1.0 - deaths_to_end(s) / DEATH_LIMIT
    cdef int side
    if progress <= 0.0:
        return
    for side in range(2):
        t.points[side] *= 1.0 - w.points_late * progress
        t.safety[side] *= 1.0 - w.safety_late * progress
        t.stored[side] *= 1.0 - w.stored_late * progress
        t.relics[side] *= 1.0 - w.relic_late * progress
        t.remaining[side] *= 1.0 - w.remaining_late * progress
        t.tempo[side] *= 1.0 - w.tempo_late * progress


cdef double total_for(Terms* t, int player) noexcept nogil:
    cdef int side
    cdef double total = 0.0
    for side in range(2):
        total += (1 if side == player else -1) * (
            t.points[side] + t.safety[side] + t.stored[side] + t.relics[side]
            + t.remaining[side] + t.tempo[side])
    return clamp_bound(total)


cdef class MaatatahayEvaluator(Evaluator):
    """The evaluation with the documented weights; keyword arguments override them (for
    tuning and tests), e.g. ``MaatatahayEvaluator(safety=0)``."""

    kernel_class = MaatatahayKernel

    def __init__(self, **weights):
        values = dict(points=POINTS, safety=SAFETY, stored_spirit=STORED_SPIRIT,
                      stored_energy=STORED_ENERGY, relic=RELIC, remaining=REMAINING,
                      cell_spirit=CELL_SPIRIT, cell_energy=CELL_ENERGY,
                      points_late=POINTS_LATE, safety_late=SAFETY_LATE,
                      stored_late=STORED_LATE, relic_late=RELIC_LATE,
                      remaining_late=REMAINING_LATE, tempo_late=TEMPO_LATE)
        for name, value in weights.items():
            if name not in values:
                raise TypeError(f"unknown weight {name!r}; known: {', '.join(values)}")
            values[name] = float(value)
        self.w = values

    @property
    def weights(self):
        return dict(self.w)

    cdef double evaluate(self, GameKernel kernel) noexcept nogil:
        cdef Terms t
        cdef int p = kernel.player()
        if p < 0:
            return 0.0
        compute_terms(&(<MaatatahayKernel>kernel).s, &self.w, &t)
        return total_for(&t, p)

    cdef double evaluate_for(self, GameKernel kernel, int player) noexcept nogil:
        """Any node, a chance node too (a refill or relic draw beyond alpha-beta's horizon)."""
        cdef Terms t
        compute_terms(&(<MaatatahayKernel>kernel).s, &self.w, &t)
        return total_for(&t, player)

    def terms(self, state):
        """Python entry for tests and tools: each term for (Balan, Wazu), evaluation units."""
        cdef Terms t
        compute_terms(&(<MaatatahayKernel>self._kernel_of(state)).s, &self.w, &t)
        return {"points": (t.points[0], t.points[1]), "safety": (t.safety[0], t.safety[1]),
                "stored": (t.stored[0], t.stored[1]), "relics": (t.relics[0], t.relics[1]),
                "remaining": (t.remaining[0], t.remaining[1]),
                "tempo": (t.tempo[0], t.tempo[1])}
