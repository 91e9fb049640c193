# C-level Mattock kernel: the searchers reach it as a GameKernel (engine/kernel.pxd), and the
# game's evaluation and playout policy cimport it to read its state without a Python call.
from crystalpick.engine.bits cimport bit_count, lowest_bit
from crystalpick.engine.kernel cimport GameKernel, u64, MAX_PLIES

cdef enum:
    MAX_CELLS = 128
    WORDS = 2                         # u64 words in a cell set
    MAX_MINERS = 6
    IMAGES = 12                       # rotations and reflections of the hexagon

# The connected groups of tiles without an opponent miner (a player's travel graph), with the
# player's miners and the empty tiles per group.
cdef struct Labels:
    int count
    int group[MAX_CELLS]             # group of each tile, -1 for opponent-held tiles (rock: unset)
    int miners[MAX_CELLS]
    int empty[MAX_CELLS]
    u64 members[MAX_CELLS][WORDS]    # the tiles of each group
    u64 reach[WORDS]                 # the tiles of the groups holding one of the player's miners

cdef struct Undo:
    long long parent_id           # the position id (MState.changes) before the move
    int mine, source, target      # source/target -1 when no miner moved
    int placed                    # 1 if a miner came back onto the mine cell
    int removed_count
    int removed[MAX_MINERS]
    u64 key

cdef struct MState:
    int size, cells, miners_per_player, literal
    int to_move, ply
    int on_board[2]
    int neighbour_count[MAX_CELLS]
    int neighbours[MAX_CELLS][6]
    u64 around[MAX_CELLS][WORDS]      # the neighbours of each cell as a cell set
    signed char tile[MAX_CELLS]       # 1 tile, 0 rock
    signed char miner[MAX_CELLS]      # -1 none, 0 first, 1 second
    int touching[MAX_CELLS]           # how many tiles each cell touches
    # the first touching[c] entries are the tiles c touches, in the order they were dug (so
    # unmake pops the last); rock cells may touch up to 6, tiles at most 3
    unsigned char tile_neighbours[MAX_CELLS][6]
    # cell sets (bit c of word c / 64), walked in ascending order by the generators:
    u64 tiles[WORDS]
    u64 frontier[WORDS]               # rock touching 1-3 tiles: the only possible mine cells
    u64 full[WORDS]                   # tiles touching 3 tiles: their rock neighbours collapse
    int full_neighbours[MAX_CELLS]    # how many full tiles each cell touches
    u64 near_full[WORDS]              # the cells touching a full tile
    u64 miners_of[2][WORDS]           # each player's miners
    u64 key
    u64 rules_key                     # the part of every key that the rule options make
    # The keys of the position's 12 symmetric images (canonical_key), kept up to date by
    # make and unmake once ``imaged`` is set (by the first canonical_key: other searches pay
    # one test per make); size_index picks the board's image tables.
    int size_index
    bint imaged
    u64 images[IMAGES]
    # The current position's id, which dates cached labels: each make gives the new position
    # a fresh id (serial counts them), each unmake brings the parent's id back, so what was
    # computed for a parent is still valid when a search returns to it.
    long long changes
    long long serial
    # Labels of the current position per player, in two stages: the groups of the player's
    # miners (valid while labelled_at[p] == changes), which answer "can they mine?", the
    # removal test and the evaluation, and all groups (completed_at[p] == changes), which
    # move generation and the sampler need. make_move labels the next mover's miner groups
    # to test removals, and they serve the next node too: a leaf of a search never labels
    # the groups without miners.
    Labels labels[2]
    long long labelled_at[2]
    long long completed_at[2]
    # The miner groups of the player who just moved, derived from their complete labels one
    # ply up (valid while derived_at == changes): a search leaf's evaluation needs them, and
    # the parent's labels serve every sibling.
    Labels derived
    long long derived_at
    int mover                         # player() of the position dated mover_at
    long long mover_at
    Undo history[MAX_PLIES]

# The labels of the player's miner groups (count, members, miners, empty and reach of those
# groups; group[] of the player's miners only), and the complete labels.
cdef Labels* miner_labels_of(MState* s, int player) noexcept nogil
cdef Labels* labels_of(MState* s, int player) noexcept nogil
# The two tests of a mine cell (rules: collapse, and reach), inline here so that the evaluation
# inlines them too.
cdef inline void collapse_allowed(MState* s, u64* out) noexcept nogil:
    """The collapse rule for every cell at once: rock touching 1-3 tiles (the frontier) of
    which none already touches 3 (no neighbour of a full tile)."""
    out[0] = s.frontier[0] & ~s.near_full[0]
    out[1] = s.frontier[1] & ~s.near_full[1]


cdef inline bint joins_own_miner(MState* s, int c, Labels* own) noexcept nogil:
    """Whether a tile next to ``c`` is in a group holding one of the labelled player's miners
    (``own`` may be either player's labels)."""
    return ((s.around[c][0] & own.reach[0]) | (s.around[c][1] & own.reach[1])) != 0

# The functions below take the mover's labels. mine_cells stops after ``limit`` cells.
cdef int mine_cells(MState* s, Labels* own, int* out, int limit) noexcept nogil
# The mine cells (ascending, as mine_cells) and the number of turns mining each, from the
# counting formula, none generated; returns how many cells. count_turns is their sum.
cdef int mine_cell_turns(MState* s, Labels* own, int* cells, long long* turns) noexcept nogil
# The ``index``-th turn mining cell c (0 <= index < its count): "no move" first, then the moves
# within the group c forms by merging (by source, then target: c itself first where it is a
# source or target, then ascending), then the other groups' in group order.
cdef int turn_at(MState* s, Labels* own, int c, long long index) noexcept nogil
cdef long long count_turns(MState* s, Labels* own) noexcept nogil
cdef long long generate_turns(MState* s, Labels* own, int* out, long long capacity) noexcept nogil
cdef void make_move(MState* s, int move) noexcept nogil
cdef void unmake_move(MState* s) noexcept nogil
cdef long long perft_c(MState* s, int depth, const volatile int* stop) noexcept nogil

cdef class Kernel(GameKernel):
    cdef MState s
