# cython: language_level=3
"""Mattock in C: flat cell arrays, component labelling, bulk-counted perft.

The key idea for speed: the miner moves available after mining a cell C depend only on which
components of the mover's tile graph (tiles without opponent miners) C joins. One labelling
pass per position gives, per component, its own-miner count m and empty-tile count e; the
number of turns for mine cell C is then 1 + (sum of m*e over all components) - (m*e of the
components C merges) + (merged m)*(merged e), with no move ever generated. ``count_turns``
is that formula; ``generate_turns`` lists the same turns for play.

What keeps the rest cheap: every cell keeps the list of tiles it touches (a tile touches at
most 3), so walks never look at rock; tiles, each player's miners, the "frontier" (rock
touching 1-3 tiles, the only cells that can be mined) and the cells next to a full tile are
kept as bit sets through make/unmake, so the collapse rule for every cell is two word
operations; groups are cell sets too, flooded a ring at a time with per-cell neighbour sets,
and the generator and the turn decoder walk a group's set instead of scanning the tiles.

Labels are cached per player and dated by a position id that unmake restores, in two
stages: the groups holding the player's miners (all that "can they mine?", the removal test
and the evaluation need) and, only for move generation and the sampler, the other groups.
The player who just moved gets their miner groups derived from their complete labels one ply
up (the mine cell joins the groups it touches), so a search leaf floods one player only.

Everything here is nogil C; the :class:`Kernel` class only converts to and from Python.
"""
from libc.stdlib cimport malloc, free
from libc.string cimport memset

from crystalpick.engine.kernel cimport PERFT_OUT_OF_MEMORY, PERFT_STOPPED, ply_overflow
from .encoding cimport move_code, move_mine, move_source, move_target
from .board import SIZES
from .notation import EMPTY, TILE, Position
from .zobrist import KEYS as _PY_KEYS, image_key_tables, start_key

cdef u64 KEYS[3 * MAX_CELLS + 1]
for _i in range(3 * MAX_CELLS + 1):
    KEYS[_i] = _PY_KEYS[_i]
cdef int SIDE_KEY = 3 * MAX_CELLS
# Mixed into a stage's key (a dig whose walk is still to choose), so none is a position's.
cdef u64 STAGE_KEY = 0x8E3AD5C1A7F2B96DULL

# IMAGE_KEYS[size][kind][cell][image]: the key that a tile (kind 0) or a miner of player
# kind - 1 on ``cell`` contributes to the image's key (zobrist.image_key_tables). The image
# index runs fastest, so toggle_images's loop is one contiguous row.
cdef u64 IMAGE_KEYS[2][3][MAX_CELLS][IMAGES]
for _s, _size in enumerate(SIZES):
    for _kind, _rows in enumerate(image_key_tables(_size)):
        for _c, _row in enumerate(_rows):
            for _g in range(IMAGES):
                IMAGE_KEYS[_s][_kind][_c][_g] = _row[_g]


cdef inline u64 tile_key(int cell) noexcept nogil:
    return KEYS[cell]


cdef inline u64 miner_key(int player, int cell) noexcept nogil:
    return KEYS[(1 + player) * MAX_CELLS + cell]


cdef inline void toggle_images(MState* s, int kind, int cell) noexcept nogil:
    """A tile (kind 0) or a miner of player kind - 1 on ``cell`` came or went: the images'
    keys follow, once they are kept (see image_keys)."""
    cdef u64* row
    cdef int g
    if s.imaged:
        row = &IMAGE_KEYS[s.size_index][kind][cell][0]
        for g in range(IMAGES):
            s.images[g] ^= row[g]


cdef inline void toggle_image_sides(MState* s) noexcept nogil:
    cdef int g
    if s.imaged:
        for g in range(IMAGES):
            s.images[g] ^= KEYS[SIDE_KEY]


cdef inline void set_bit(u64* cells, int c) noexcept nogil:
    cells[c >> 6] |= 1ULL << (c & 63)


cdef inline void clear_bit(u64* cells, int c) noexcept nogil:
    cells[c >> 6] &= ~(1ULL << (c & 63))


cdef inline void update_frontier(MState* s, int c) noexcept nogil:
    """c's entries in the frontier, the full tiles and (if c's fullness changed) its
    neighbours' count of full tiles, after its tile or touching changed."""
    cdef u64 bit = 1ULL << (c & 63)
    cdef bint full = s.tile[c] and s.touching[c] >= 3
    cdef int i, y
    if not s.tile[c] and 0 < s.touching[c] <= 3:
        s.frontier[c >> 6] |= bit
    else:
        s.frontier[c >> 6] &= ~bit
    if full == ((s.full[c >> 6] & bit) != 0):
        return
    s.full[c >> 6] ^= bit
    for i in range(s.neighbour_count[c]):
        y = s.neighbours[c][i]
        if full:
            s.full_neighbours[y] += 1
            set_bit(s.near_full, y)
        else:
            s.full_neighbours[y] -= 1
            if s.full_neighbours[y] == 0:
                clear_bit(s.near_full, y)


cdef inline void dig(MState* s, int mine) noexcept nogil:
    """Rock ``mine`` becomes a tile: the last entry of its neighbours' tile lists."""
    cdef int i, x
    s.tile[mine] = 1
    s.tiles[mine >> 6] |= 1ULL << (mine & 63)
    update_frontier(s, mine)
    for i in range(s.neighbour_count[mine]):
        x = s.neighbours[mine][i]
        s.tile_neighbours[x][s.touching[x]] = mine
        s.touching[x] += 1
        update_frontier(s, x)


cdef inline void fill(MState* s, int mine) noexcept nogil:
    """Undo ``dig``."""
    cdef int i, x
    s.tile[mine] = 0
    s.tiles[mine >> 6] &= ~(1ULL << (mine & 63))
    update_frontier(s, mine)
    for i in range(s.neighbour_count[mine]):
        x = s.neighbours[mine][i]
        s.touching[x] -= 1
        update_frontier(s, x)


# -- components ------------------------------------------------------------------------------

cdef inline int nth_bit(u64* cells, long long n) noexcept nogil:
    """The n-th cell of a set, ascending (-1 if it holds fewer)."""
    cdef int w, count
    cdef u64 bits
    for w in range(WORDS):
        bits = cells[w]
        count = bit_count(bits)
        if n < count:
            while n:
                bits &= bits - 1
                n -= 1
            return w * 64 + lowest_bit(bits)
        n -= count
    return -1


cdef inline void around_all(MState* s, u64* cells, u64* out) noexcept nogil:
    """``out``: every cell beside a cell of ``cells``. Gathered in locals: ``out`` might
    alias the neighbour sets for all the compiler knows, so it would store at every cell."""
    cdef u64 bits, low = 0, high = 0
    cdef int w, x
    for w in range(WORDS):
        bits = cells[w]
        while bits:
            x = w * 64 + lowest_bit(bits)
            bits &= bits - 1
            low |= s.around[x][0]
            high |= s.around[x][1]
    out[0] = low
    out[1] = high


cdef inline void flood(MState* s, int start, u64* open_cells, u64* out) noexcept nogil:
    """``out``: ``start`` and the cells of ``open_cells`` connected to it through
    ``open_cells``, grown a ring at a time with the neighbour sets (no stack, few branches)."""
    cdef u64 ring[WORDS]
    cdef u64 grown[WORDS]
    cdef int w
    out[0] = out[1] = ring[0] = ring[1] = 0
    set_bit(out, start)
    set_bit(ring, start)
    while ring[0] | ring[1]:
        around_all(s, ring, grown)
        for w in range(WORDS):
            ring[w] = grown[w] & open_cells[w] & ~out[w]
            out[w] |= ring[w]


cdef inline void add_group(MState* s, int player, int start, u64* left, Labels* out) noexcept nogil:
    """Flood a new group from ``start`` through ``left`` (which loses it) and count it."""
    cdef u64* members = out.members[out.count]
    cdef int w, m = 0, n = 0
    flood(s, start, left, members)
    for w in range(WORDS):
        left[w] &= ~members[w]
        m += bit_count(members[w] & s.miners_of[player][w])
        n += bit_count(members[w])
    out.miners[out.count] = m
    out.empty[out.count] = n - m
    out.count += 1


cdef void label_miner_groups(MState* s, int player, Labels* out) noexcept nogil:
    """The first stage of the labels: only the groups holding the player's miners, in the
    order of their lowest miner, with ``reach`` and the group of each of those miners. That
    is all "can they mine?", the removal test and the evaluation ask."""
    cdef u64 left[WORDS]
    cdef u64 bits
    cdef int w, x, k
    out.count = 0
    for w in range(WORDS):
        left[w] = s.tiles[w] & ~s.miners_of[1 - player][w]
        out.reach[w] = 0
    for w in range(WORDS):
        bits = s.miners_of[player][w]
        while bits:
            x = w * 64 + lowest_bit(bits)
            bits &= bits - 1
            if not (out.reach[w] >> (x & 63)) & 1:
                add_group(s, player, x, left, out)
                for k in range(WORDS):
                    out.reach[k] |= out.members[out.count - 1][k]
            for k in range(out.count):
                if (out.members[k][w] >> (x & 63)) & 1:
                    out.group[x] = k
                    break


cdef inline int lowest_cell(u64* cells) noexcept nogil:
    return lowest_bit(cells[0]) if cells[0] else 64 + lowest_bit(cells[1])


cdef void complete_labels(MState* s, int player, Labels* out) noexcept nogil:
    """The second stage: the groups without the player's miners too, every group numbered
    by its lowest cell (so the labels depend on the position only) and every tile's group
    (-1 under an opponent miner; rock entries are left as they were: nothing reads them)."""
    cdef u64 left[WORDS]
    cdef u64 bits
    cdef int order[MAX_CELLS]
    cdef int low[MAX_CELLS]
    cdef int miners[MAX_CELLS]
    cdef int empty[MAX_CELLS]
    cdef u64 members[MAX_CELLS][WORDS]
    cdef int w, k, j, g, count
    for w in range(WORDS):
        left[w] = s.tiles[w] & ~s.miners_of[1 - player][w] & ~out.reach[w]
        bits = s.miners_of[1 - player][w]
        while bits:
            out.group[w * 64 + lowest_bit(bits)] = -1
            bits &= bits - 1
    for w in range(WORDS):
        while left[w]:
            add_group(s, player, w * 64 + lowest_bit(left[w]), left, out)
    count = out.count
    for k in range(count):              # insertion sort of the groups by their lowest cell
        low[k] = lowest_cell(out.members[k])
        j = k
        while j > 0 and low[order[j - 1]] > low[k]:
            order[j] = order[j - 1]
            j -= 1
        order[j] = k
    for k in range(count):
        if order[k] != k:               # the miner groups were found out of order
            for j in range(count):
                g = order[j]
                miners[j] = out.miners[g]
                empty[j] = out.empty[g]
                members[j][0] = out.members[g][0]
                members[j][1] = out.members[g][1]
            for j in range(count):
                out.miners[j] = miners[j]
                out.empty[j] = empty[j]
                out.members[j][0] = members[j][0]
                out.members[j][1] = members[j][1]
            break
    for k in range(count):
        for w in range(WORDS):
            bits = out.members[k][w]
            while bits:
                out.group[w * 64 + lowest_bit(bits)] = k
                bits &= bits - 1


cdef void derive_after_move(MState* s, int player, Undo* u, Labels* parent,
                            Labels* out) noexcept nogil:
    """The miner groups of ``player``, who just made move ``u`` without removing anyone, from
    their complete labels before it: their travel graph only gained the mine cell, which
    joins the groups it touches; a miner move stays within one group, so only a re-entered
    miner changes a count. Groups in the parent's order, the merged one last."""
    cdef int merged[3]
    cdef int c = u.mine, k, w, x, j
    cdef u64* joined
    cdef u64 bits
    merged_groups(s, c, parent, merged)
    out.count = 0
    out.reach[0] = out.reach[1] = 0
    for k in range(parent.count):
        if parent.miners[k] == 0 or in_merged(k, merged):
            continue
        out.miners[out.count] = parent.miners[k]
        out.empty[out.count] = parent.empty[k]
        for w in range(WORDS):
            out.members[out.count][w] = parent.members[k][w]
            out.reach[w] |= parent.members[k][w]
        out.count += 1
    joined = out.members[out.count]
    joined[0] = joined[1] = 0
    set_bit(joined, c)
    out.miners[out.count] = u.placed
    out.empty[out.count] = 1 - u.placed
    for j in range(3):
        if merged[j] >= 0:
            out.miners[out.count] += parent.miners[merged[j]]
            out.empty[out.count] += parent.empty[merged[j]]
            for w in range(WORDS):
                joined[w] |= parent.members[merged[j]][w]
    for w in range(WORDS):
        out.reach[w] |= joined[w]
    out.count += 1
    for w in range(WORDS):
        bits = s.miners_of[player][w]
        while bits:
            x = w * 64 + lowest_bit(bits)
            bits &= bits - 1
            for k in range(out.count):
                if (out.members[k][w] >> (x & 63)) & 1:
                    out.group[x] = k
                    break


cdef Labels* miner_labels_of(MState* s, int player) noexcept nogil:
    cdef Undo* u
    if s.labelled_at[player] == s.changes:
        return &s.labels[player]
    if s.derived_at == s.changes and player != s.to_move:
        return &s.derived
    if s.ply > 0 and player != s.to_move:
        u = &s.history[s.ply - 1]
        if u.removed_count == 0 and s.completed_at[player] == u.parent_id:
            derive_after_move(s, player, u, &s.labels[player], &s.derived)
            s.derived_at = s.changes
            return &s.derived
    label_miner_groups(s, player, &s.labels[player])
    s.labelled_at[player] = s.changes
    s.completed_at[player] = -1        # the slot held another position's complete labels
    return &s.labels[player]


cdef Labels* labels_of(MState* s, int player) noexcept nogil:
    cdef Labels* out = &s.labels[player]
    if s.labelled_at[player] != s.changes:
        label_miner_groups(s, player, out)
        s.labelled_at[player] = s.changes
        s.completed_at[player] = -1
    if s.completed_at[player] != s.changes:
        complete_labels(s, player, out)
        s.completed_at[player] = s.changes
    return out


cdef inline int merged_groups(MState* s, int c, Labels* own, int* out) noexcept nogil:
    """The distinct groups that mining ``c`` joins (at most 3 by the collapse rule);
    unused entries of ``out[0..2]`` are set to -3, which matches no group."""
    cdef int i, k, n = 0
    out[0] = out[1] = out[2] = -3
    for i in range(s.touching[c]):
        k = own.group[s.tile_neighbours[c][i]]
        if k >= 0 and k != out[0] and k != out[1]:
            out[n] = k
            n += 1
    return n


cdef inline bint in_merged(int k, int* merged) noexcept nogil:
    return k == merged[0] or k == merged[1] or k == merged[2]


# -- move generation -------------------------------------------------------------------------

cdef inline void empty_tiles(MState* s, u64* out) noexcept nogil:
    cdef int w
    for w in range(WORDS):
        out[w] = s.tiles[w] & ~(s.miners_of[0][w] | s.miners_of[1][w])


cdef int mine_cells(MState* s, Labels* own, int* out, int limit) noexcept nogil:
    cdef int c, w, n = 0
    cdef u64 bits
    cdef u64 allowed[WORDS]
    collapse_allowed(s, allowed)
    for w in range(WORDS):
        bits = allowed[w]
        while bits and n < limit:
            c = w * 64 + lowest_bit(bits)
            bits &= bits - 1
            if joins_own_miner(s, c, own):
                out[n] = c
                n += 1
    return n


cdef inline long long miner_moves(Labels* own) noexcept nogil:
    cdef int k
    cdef long long base = 0
    for k in range(own.count):
        base += own.miners[k] * own.empty[k]
    return base


cdef inline int merged_size(MState* s, Labels* own, int* merged, int count, int* m,
                            int* e) noexcept nogil:
    """Own miners ``m`` and empty tiles ``e`` of the group that mining the cell makes from
    the ``count`` groups in ``merged``, the cell included (a re-entered miner's source while
    miners are off the board, else an empty tile); returns whether a miner re-enters."""
    cdef int j, k, placed = s.on_board[s.to_move] < s.miners_per_player
    m[0] = placed
    e[0] = 1 - placed
    for j in range(count):
        k = merged[j]
        m[0] += own.miners[k]
        e[0] += own.empty[k]
    return placed


cdef inline long long turns_at(MState* s, Labels* own, int c, long long base) noexcept nogil:
    """Turns that mine cell c, none generated: 1 (no move) + the miner moves of the unmerged
    groups (``base`` minus the merged ones) + those of the merged group."""
    cdef int merged[3]
    cdef int j, m, e, count = merged_groups(s, c, own, merged)
    cdef long long turns = 1 + base
    for j in range(count):
        turns -= own.miners[merged[j]] * own.empty[merged[j]]
    merged_size(s, own, merged, count, &m, &e)
    return turns + <long long>m * e


cdef inline int nth_of(u64* cells, u64* within, long long n, int first) noexcept nogil:
    """The n-th cell of ``cells & within``, ascending, after ``first`` if >= 0."""
    cdef u64 both[WORDS]
    cdef int w
    if first >= 0:
        if n == 0:
            return first
        n -= 1
    for w in range(WORDS):
        both[w] = cells[w] & within[w]
    return nth_bit(both, n)


cdef int turn_at(MState* s, Labels* own, int c, long long index) noexcept nogil:
    cdef int merged[3]
    cdef u64 merged_cells[WORDS]
    cdef u64 empty[WORDS]
    cdef u64* mine = s.miners_of[s.to_move]
    cdef int m, e, j, k = 0, placed, source, target, w
    cdef long long pairs
    if index == 0:
        return move_code(c, -1, -1)
    index -= 1
    empty_tiles(s, empty)
    placed = merged_size(s, own, merged, merged_groups(s, c, own, merged), &m, &e)
    pairs = <long long>m * e
    if index < pairs:
        merged_cells[0] = merged_cells[1] = 0
        for j in range(3):
            if merged[j] >= 0:
                for w in range(WORDS):
                    merged_cells[w] |= own.members[merged[j]][w]
        source = nth_of(mine, merged_cells, index // e, c if placed else -1)
        target = nth_of(empty, merged_cells, index % e, -1 if placed else c)
        return move_code(c, source, target)
    index -= pairs
    for k in range(own.count):
        if in_merged(k, merged):
            continue
        pairs = own.miners[k] * own.empty[k]
        if index < pairs:
            break
        index -= pairs
    source = nth_of(mine, own.members[k], index // own.empty[k], -1)
    target = nth_of(empty, own.members[k], index % own.empty[k], -1)
    return move_code(c, source, target)


cdef int mine_cell_turns(MState* s, Labels* own, int* cells, long long* turns) noexcept nogil:
    cdef int c, w, n = 0
    cdef u64 bits
    cdef long long base = miner_moves(own)
    cdef u64 allowed[WORDS]
    collapse_allowed(s, allowed)
    for w in range(WORDS):
        bits = allowed[w]
        while bits:
            c = w * 64 + lowest_bit(bits)
            bits &= bits - 1
            if joins_own_miner(s, c, own):
                cells[n] = c
                turns[n] = turns_at(s, own, c, base)
                n += 1
    return n


cdef long long count_turns(MState* s, Labels* own) noexcept nogil:
    cdef int cells[MAX_CELLS]
    cdef long long turns[MAX_CELLS]
    cdef int i
    cdef long long total = 0
    for i in range(mine_cell_turns(s, own, cells, turns)):
        total += turns[i]
    return total


cdef inline long long turns_mining(MState* s, Labels* own, int c, u64* empty, int* out,
                                   long long capacity, long long n) noexcept nogil:
    """Append the turns mining ``c`` (no move first, then source, target ascending) to
    ``out[n:]`` while they fit in ``capacity``; return the new count.

    A source's targets are the empty tiles of its group, where the groups the cell merges
    count as one (holding the cell itself: a re-entered miner's source, else a target);
    groups are cell sets, so only the targets are visited."""
    cdef int* group = own.group
    cdef int merged[3]
    cdef u64 merged_cells[WORDS]
    cdef u64 sources[WORDS]
    cdef u64 targets[WORDS]
    cdef u64* within
    cdef u64 bits, source_bits
    cdef int p = s.to_move
    cdef int placed = s.on_board[p] < s.miners_per_player
    cdef int j, w, v, source, target
    if n < capacity:
        out[n] = c
    n += 1
    merged_groups(s, c, own, merged)
    merged_cells[0] = merged_cells[1] = 0
    for j in range(3):
        if merged[j] >= 0:
            for w in range(WORDS):
                merged_cells[w] |= own.members[merged[j]][w]
    # c is a source when a miner re-enters on it, else a target of the merged group
    for w in range(WORDS):
        sources[w] = s.miners_of[p][w]
    if placed:
        set_bit(sources, c)
    for v in range(WORDS):
        source_bits = sources[v]
        while source_bits:
            source = v * 64 + lowest_bit(source_bits)
            source_bits &= source_bits - 1
            if source == c or in_merged(group[source], merged):
                within = &merged_cells[0]
            else:
                within = &own.members[group[source]][0]
            for w in range(WORDS):
                targets[w] = empty[w] & within[w]
            if not placed and within == &merged_cells[0]:
                set_bit(targets, c)
            for w in range(WORDS):
                bits = targets[w]
                while bits:
                    target = w * 64 + lowest_bit(bits)
                    bits &= bits - 1
                    if n < capacity:
                        out[n] = move_code(c, source, target)
                    n += 1
    return n


cdef long long generate_turns(MState* s, Labels* own, int* out, long long capacity) noexcept nogil:
    """Write the turns (mine cell ascending, each cell's as ``turns_mining``) to ``out``
    while they fit in ``capacity``; return how many there are in all."""
    cdef u64 empty[WORDS]
    cdef long long n = 0
    cdef int cells[MAX_CELLS]
    cdef int k
    empty_tiles(s, empty)
    for k in range(mine_cells(s, own, cells, MAX_CELLS)):
        n = turns_mining(s, own, cells[k], empty, out, capacity, n)
    return n


cdef inline u64 stage_key_of(MState* s, int c) noexcept nogil:
    """The key of the position after digging ``c`` (and a re-entered miner placed on it),
    the walk still to choose: the tile and the miner as make_move keys them, and the side
    not yet passed, mixed with STAGE_KEY."""
    cdef u64 key = s.key ^ tile_key(c) ^ STAGE_KEY
    if s.on_board[s.to_move] < s.miners_per_player:
        key ^= miner_key(s.to_move, c)
    return key


# -- make / unmake ---------------------------------------------------------------------------

cdef int miners_reached(MState* s, int x, int mover, bint through_mover) noexcept nogil:
    """How many of the mover's miners the walk from opponent miner ``x`` meets: through empty
    tiles (and through the mover's miners too if ``through_mover``). A miner the walk stops at
    is one beside the walked cells."""
    cdef u64 open_cells[WORDS]
    cdef u64 region[WORDS]
    cdef u64 touched[WORDS]
    cdef int w, met = 0
    for w in range(WORDS):
        open_cells[w] = s.tiles[w] & ~(s.miners_of[0][w] | s.miners_of[1][w])
        if through_mover:
            open_cells[w] |= s.miners_of[mover][w]
    flood(s, x, open_cells, region)
    if not through_mover:
        around_all(s, region, touched)
    for w in range(WORDS):
        met += bit_count((region[w] if through_mover else touched[w]) & s.miners_of[mover][w])
    return met


cdef void make_move(MState* s, int move) noexcept nogil:
    cdef int p = s.to_move, q = 1 - s.to_move
    cdef int mine = move_mine(move)
    cdef int source = move_source(move)
    cdef int target = move_target(move)
    cdef Undo* u
    cdef int i, x, w
    cdef u64 bits
    cdef Labels* travel
    if s.ply >= MAX_PLIES:
        ply_overflow()
    u = &s.history[s.ply]
    u.mine = mine
    u.source = source
    u.target = target
    u.key = s.key
    u.removed_count = 0
    u.parent_id = s.changes
    s.serial += 1
    s.changes = s.serial
    dig(s, mine)
    s.key ^= tile_key(mine)
    toggle_images(s, 0, mine)
    u.placed = s.on_board[p] < s.miners_per_player
    if u.placed:
        s.miner[mine] = p
        set_bit(s.miners_of[p], mine)
        s.on_board[p] += 1
        s.key ^= miner_key(p, mine)
        toggle_images(s, 1 + p, mine)
    if source >= 0:
        s.miner[source] = -1
        s.miner[target] = p
        clear_bit(s.miners_of[p], source)
        set_bit(s.miners_of[p], target)
        s.key ^= miner_key(p, source) ^ miner_key(p, target)
        toggle_images(s, 1 + p, source)
        toggle_images(s, 1 + p, target)
    # Removal: X has a friend through empty tiles exactly when X's group in q's travel graph
    # holds another q miner (the first one on a path to it is reached through empty tiles).
    # Those labels also serve the next node, unless a removal changes the position. The turn
    # passes first, so the labelling sees q to move and this move on top of the history.
    s.to_move = q
    s.key ^= KEYS[SIDE_KEY]
    toggle_image_sides(s)
    s.ply += 1
    travel = miner_labels_of(s, q)
    for w in range(WORDS):
        bits = s.miners_of[q][w]
        while bits:
            x = w * 64 + lowest_bit(bits)
            bits &= bits - 1
            if travel.miners[travel.group[x]] >= 2:
                continue
            if miners_reached(s, x, p, s.literal) >= 2:
                u.removed[u.removed_count] = x
                u.removed_count += 1
    if u.removed_count:
        s.labelled_at[q] = s.completed_at[q] = -1
    for i in range(u.removed_count):
        x = u.removed[i]
        s.miner[x] = -1
        clear_bit(s.miners_of[q], x)
        s.on_board[q] -= 1
        s.key ^= miner_key(q, x)
        toggle_images(s, 1 + q, x)


cdef void unmake_move(MState* s) noexcept nogil:
    s.ply -= 1
    cdef Undo* u = &s.history[s.ply]
    s.changes = u.parent_id
    cdef int q = s.to_move, p = 1 - s.to_move
    cdef int i
    for i in range(u.removed_count):
        s.miner[u.removed[i]] = q
        set_bit(s.miners_of[q], u.removed[i])
        s.on_board[q] += 1
        toggle_images(s, 1 + q, u.removed[i])
    if u.source >= 0:
        s.miner[u.target] = -1
        s.miner[u.source] = p
        clear_bit(s.miners_of[p], u.target)
        set_bit(s.miners_of[p], u.source)
        toggle_images(s, 1 + p, u.source)
        toggle_images(s, 1 + p, u.target)
    if u.placed:
        s.miner[u.mine] = -1
        clear_bit(s.miners_of[p], u.mine)
        s.on_board[p] -= 1
        toggle_images(s, 1 + p, u.mine)
    fill(s, u.mine)
    toggle_images(s, 0, u.mine)
    s.to_move = p
    s.key = u.key
    toggle_image_sides(s)


cdef long long perft_c(MState* s, int depth, const volatile int* stop) noexcept nogil:
    cdef long long count, sub, total = 0
    cdef int* moves
    cdef int i, n
    cdef Labels* own
    if depth <= 0:
        return 1
    own = labels_of(s, s.to_move)
    count = count_turns(s, own)
    if depth == 1 or count == 0:
        return count
    if stop != NULL and stop[0]:
        return PERFT_STOPPED
    moves = <int*>malloc(count * sizeof(int))
    if moves == NULL:
        return PERFT_OUT_OF_MEMORY
    n = generate_turns(s, own, moves, count)
    for i in range(n):
        make_move(s, moves[i])
        sub = perft_c(s, depth - 1, stop)
        unmake_move(s)
        if sub < 0:
            total = sub
            break
        total += sub
    free(moves)
    return total


cdef void image_keys(MState* s) noexcept nogil:
    """The keys of the position's images under the board's 12 symmetries (notation.py's
    symmetric_images says why the players are never exchanged), computed afresh; from now
    on make and unmake keep them (``toggle_images``)."""
    cdef u64 bits
    cdef int g, w, c, kind
    for g in range(IMAGES):
        s.images[g] = s.rules_key ^ (KEYS[SIDE_KEY] if s.to_move == 1 else 0)
    s.imaged = True
    for kind in range(3):
        for w in range(WORDS):
            bits = s.tiles[w] if kind == 0 else s.miners_of[kind - 1][w]
            while bits:
                c = w * 64 + lowest_bit(bits)
                bits &= bits - 1
                toggle_images(s, kind, c)


cdef u64 canonical_key_of(MState* s) noexcept nogil:
    """The least key over the position's images."""
    cdef u64 best
    cdef int g
    if not s.imaged:
        image_keys(s)
    best = s.images[0]
    for g in range(1, IMAGES):
        if s.images[g] < best:
            best = s.images[g]
    return best


# -- Python boundary -------------------------------------------------------------------------

cdef class Kernel:
    """Owns one C position; the Python-facing :class:`FastState` wraps it."""

    def __init__(self, position):
        cdef int c, i, nb
        b = position.board
        memset(&self.s, 0, sizeof(MState))
        self.s.labelled_at[0] = self.s.labelled_at[1] = -1
        self.s.completed_at[0] = self.s.completed_at[1] = self.s.mover_at = -1
        self.s.derived_at = -1
        self.s.size = position.size
        self.s.cells = b.cell_count
        self.s.miners_per_player = b.miners_per_player
        self.s.literal = position.removal == "literal"
        self.s.to_move = position.to_move
        self.s.key = self.s.rules_key = start_key(position)
        self.s.size_index = SIZES.index(position.size)
        for c in range(b.cell_count):
            self.s.neighbour_count[c] = len(b.neighbours[c])
            for i, nb in enumerate(b.neighbours[c]):
                self.s.neighbours[c][i] = nb
                set_bit(self.s.around[c], nb)
            self.s.tile[c] = position.tiles[c] == TILE
            self.s.miner[c] = position.miners[c]
            if self.s.tile[c]:
                self.s.key ^= tile_key(c)
            if position.miners[c] != EMPTY:
                set_bit(self.s.miners_of[position.miners[c]], c)
                self.s.on_board[position.miners[c]] += 1
                self.s.key ^= miner_key(position.miners[c], c)
        for c in range(b.cell_count):
            for i in range(self.s.neighbour_count[c]):
                nb = self.s.neighbours[c][i]
                if self.s.tile[nb]:
                    self.s.tile_neighbours[c][self.s.touching[c]] = nb
                    self.s.touching[c] += 1
        for c in range(b.cell_count):
            if self.s.tile[c]:
                self.s.tiles[c >> 6] |= 1ULL << (c & 63)
            update_frontier(&self.s, c)
        if self.s.to_move:
            self.s.key ^= KEYS[SIDE_KEY]

    # -- the C-level game interface (engine/kernel.pxd) --
    cdef int player(self) noexcept nogil:
        cdef int cell
        if self.s.mover_at != self.s.changes:     # a searcher asks again on re-entry
            self.s.mover = self.s.to_move if mine_cells(
                &self.s, miner_labels_of(&self.s, self.s.to_move), &cell, 1) else -2
            self.s.mover_at = self.s.changes
        return self.s.mover

    cdef long long move_count(self) noexcept nogil:
        return count_turns(&self.s, labels_of(&self.s, self.s.to_move))

    cdef long long moves(self, int* out, long long capacity) noexcept nogil:
        return generate_turns(&self.s, labels_of(&self.s, self.s.to_move), out, capacity)

    cdef void make(self, int move) noexcept nogil:
        make_move(&self.s, move)

    cdef void unmake(self) noexcept nogil:
        unmake_move(&self.s)

    cdef u64 hash_key(self) noexcept nogil:
        return self.s.key

    cdef u64 canonical_key(self) noexcept nogil:
        return canonical_key_of(&self.s)

    # Turns in stages: the dig (a mine cell's id is the cell, which is also its turn
    # without a walk), then the walk or none.
    cdef long long stages(self, int* out, long long* counts, long long capacity) noexcept nogil:
        cdef int cells[MAX_CELLS]
        cdef long long turns[MAX_CELLS]
        cdef Labels* own = labels_of(&self.s, self.s.to_move)
        cdef int i, n
        if counts == NULL:
            n = mine_cells(&self.s, own, cells, MAX_CELLS)
        else:
            n = mine_cell_turns(&self.s, own, cells, turns)
        if n <= capacity:
            for i in range(n):
                out[i] = cells[i]
                if counts != NULL:
                    counts[i] = turns[i]
        return n

    cdef long long stage_moves(self, int stage, int* out, long long capacity) noexcept nogil:
        cdef u64 empty[WORDS]
        empty_tiles(&self.s, empty)
        return turns_mining(&self.s, labels_of(&self.s, self.s.to_move), stage, empty, out,
                            capacity, 0)

    cdef u64 stage_key(self, int stage) noexcept nogil:
        return stage_key_of(&self.s, stage)

    cdef double terminal_value(self) noexcept nogil:
        return 1.0 if self.s.to_move == 1 else -1.0

    cdef int plies(self) noexcept nogil:
        return self.s.ply

    cdef long long perft_nodes(self, int depth, const volatile int* stop) noexcept nogil:
        return perft_c(&self.s, depth, stop)

    # -- Python side (the generic methods are GameKernel's) --
    def clone(self):
        cdef Kernel twin = Kernel.__new__(Kernel)
        twin.s = self.s
        return twin

    def to_position(self):
        tiles = [TILE if self.s.tile[c] else 0 for c in range(self.s.cells)]
        miners = [self.s.miner[c] for c in range(self.s.cells)]
        return Position(self.s.size, tiles, miners, self.s.to_move,
                        "literal" if self.s.literal else "blocking")

    @property
    def to_move(self):
        return self.s.to_move

    def has_mine_cell(self):
        return self.player() >= 0

    def mine_cells(self):
        cdef int cells[MAX_CELLS]
        cdef int n = mine_cells(&self.s, miner_labels_of(&self.s, self.s.to_move), cells,
                                MAX_CELLS)
        return [cells[i] for i in range(n)]

    def turns_by_cell(self):
        """{mine cell: its turns in turn_at's order}, decoded one by one from the counts of
        mine_cell_turns: the sampler's view, checked against the generator by the tests."""
        cdef int cells[MAX_CELLS]
        cdef long long turns[MAX_CELLS]
        cdef Labels* own = labels_of(&self.s, self.s.to_move)
        cdef int n = mine_cell_turns(&self.s, own, cells, turns)
        return {cells[i]: [turn_at(&self.s, own, cells[i], k) for k in range(turns[i])]
                for i in range(n)}
