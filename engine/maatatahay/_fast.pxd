# C-level Maatatahay kernel: the searchers reach it as a GameKernel (engine/kernel.pxd), and
# the game's evaluation cimports it to read its state without a Python call.
from crystalpick.engine.kernel cimport GameKernel, u64, MAX_PLIES

cdef enum:
    NCELLS = 25
    NTILES = 24
    MAX_PAIRS = 3
    MAX_RELICS = 5
    MAX_MOVES = 1024      # loads are bounded by (15+1) * (45+1) crystals, placements by 400
    MAX_LAYOUTS = 32

# Component data and rule options: fixed for the life of a kernel.
cdef struct Data:
    int strength[NTILES]
    int gems[NTILES]
    int tribe[NTILES]
    int ability[NTILES]           # 0 none, 1 Elder, 2 Convert
    int arrows[NTILES][4][8]      # support arrows per rotation and direction
    int rotation_count[NTILES]    # rotations with distinct arrow patterns ...
    int rotations[NTILES][4]      # ... and which they are
    unsigned int tribe_tiles[2]   # bitmask of each tribe's tiles
    int frame[NCELLS]             # frame arrows pointing at each cell
    int elder, convert            # bonus per counted neighbour
    int layout_count
    int layouts[MAX_LAYOUTS][5]   # the temple cells of each named layout
    int discount_any, death_either, relic_order   # the non-default option values
    int fight_placer, spirit_remove, storage_discard
    int option_choice[6]          # choice index of each play option
    u64 start_key                 # play options and tileset, in every key (zobrist.py)
    int neighbour[NCELLS][8]

# Everything that changes during play; make() pushes a copy of it, unmake() pops it.
cdef struct Core:
    signed char tile[NCELLS]      # tile index or -1
    signed char rotation[NCELLS]
    signed char alive[NCELLS]
    signed char temple[NCELLS]    # set by the layout (a setup chance event)
    unsigned char warrior_spirit[NCELLS]
    unsigned char warrior_energy[NCELLS]
    unsigned char cell_spirit[NCELLS]
    unsigned char cell_energy[NCELLS]
    int storage_spirit[2]
    int storage_energy[2]
    int bag_spirit, bag_energy, supply_energy, removed_spirit
    int relic_count
    int relics[MAX_RELICS]
    int deaths[2]
    unsigned int deck             # bitmask of tile indices left in the decks
    int pair_count
    int pairs[MAX_PAIRS][2]
    int active, phase
    int chosen[2]
    int queue_length
    int queue[2]
    int placed                    # cell of this turn's warrior or -1
    unsigned int fighters         # bitmask of cells still to fight

cdef struct KState:
    Data d
    Core c
    int ply
    Core history[MAX_PLIES]

cdef int current_player(KState* s) noexcept nogil
cdef int generate(KState* s, int* out) noexcept nogil
cdef int probabilities(KState* s, double* out) noexcept nogil
cdef int strength(KState* s, int cell) noexcept nogil
# Read-only rule facts for evaluations (the kernel's own code, so search/ copies no rule):
cdef int open_sides(KState* s, int cell, int* out) noexcept nogil   # 0 = surrounded
cdef int enemy_strength(KState* s, int cell) noexcept nogil    # what the warrior fights
cdef unsigned int pending_fighters(KState* s) noexcept nogil   # cells still to fight now
cdef int support(KState* s, int cell, int player) noexcept nogil   # Energy a new warrior gets
cdef int temple_cost(KState* s, int cell, int player) noexcept nogil
cdef int free_cells(KState* s) noexcept nogil                  # the end condition's count
cdef int deaths_to_end(KState* s) noexcept nogil               # deaths before the limit ends it
cdef int next_relic_value(KState* s, int player) noexcept nogil
cdef void make_move(KState* s, int move) noexcept nogil
cdef void unmake_move(KState* s) noexcept nogil
cdef u64 position_key(KState* s) noexcept nogil
cdef void scores(KState* s, int* points) noexcept nogil      # points[0], points[1] now
cdef int winner(KState* s) noexcept nogil
cdef long long perft_c(KState* s, int depth, const volatile int* stop) noexcept nogil

cdef class Kernel(GameKernel):
    cdef KState s
    cdef object tileset           # for converting back to a Position
