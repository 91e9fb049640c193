# C-level Mattock kernel, cimported by the searchers so no Python call happens per node.
from engine.kernel cimport GameKernel, u64

cdef enum:
    MAX_CELLS = 128
    MAX_PLIES = 128
    MAX_MINERS = 6

cdef struct Undo:
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
    signed char tile[MAX_CELLS]       # 1 tile, 0 rock
    signed char miner[MAX_CELLS]      # -1 none, 0 first, 1 second
    int touching[MAX_CELLS]           # how many tiles each cell touches
    # the first touching[c] entries are the tiles c touches, in the order they were dug (so
    # unmake pops the last); rock cells may touch up to 6, tiles at most 3
    unsigned char tile_neighbours[MAX_CELLS][6]
    u64 key
    Undo history[MAX_PLIES]

# Label the connected groups of tiles without an opponent miner (the player's travel graph);
# per group, the player's miners and the empty tiles. Returns the number of groups.
cdef int label_components(MState* s, int player, int* comp, int* comp_miners,
                          int* comp_empty) noexcept nogil
# The collapse rule: rock cell c touches 1-3 tiles and none of them already touches 3.
cdef bint collapse_allows(MState* s, int c) noexcept nogil
cdef int mine_cells(MState* s, int* out) noexcept nogil
cdef long long count_turns(MState* s) noexcept nogil
cdef long long generate_turns(MState* s, int* out, long long capacity) noexcept nogil
cdef void make_move(MState* s, int move) noexcept nogil
cdef void unmake_move(MState* s) noexcept nogil
cdef long long perft_c(MState* s, int depth) noexcept nogil

cdef class Kernel(GameKernel):
    cdef MState s
