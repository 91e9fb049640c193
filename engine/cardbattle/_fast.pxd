# C-level card battle kernel: every pile is a 64-bit set of the player's card indices (a
# player's cards are indexed 0..n-1 in card-number order), so rules are bit operations.
from crystalpick.engine.bits cimport bit_count as popcount, lowest_bit as lowest
from crystalpick.engine.kernel cimport GameKernel, u64

cdef enum:
    SEATS = 2
    MAX_CARDS = 64          # per player: the kernel refuses a player owning more
    _KNOWN_HANDS = 256      # other hands a player's record allows, drawn by determinize
    MAX_ATTRIBUTES = 8
    MAX_NUMBER = 4096

# Component data and rule options: fixed for the life of a kernel.
cdef struct Data:
    int count[SEATS]
    int number[SEATS][MAX_CARDS]
    unsigned char index_of[SEATS][MAX_NUMBER]
    u64 creatures[SEATS]
    u64 neutral[SEATS]
    u64 families[SEATS][MAX_CARDS]           # a bit per family of the card set
    int values[SEATS][MAX_CARDS][MAX_ATTRIBUTES]
    int attributes
    int draw_for_creature, lowest_first, tie_creature_only, tie_boosts
    int refill, reshuffle, stake, target, hand, max_rounds
    u64 start_key

# Card-set helpers (a pile is a set of card indices), shared with playout.pyx.
cdef inline u64 bit(int i) noexcept nogil:
    return (<u64>1) << i


# Everything that changes during play; make() pushes a copy of it, unmake() pops it.
cdef struct Core:
    u64 hand[SEATS]
    u64 deck[SEATS]
    u64 discard[SEATS]
    u64 table[SEATS]
    int chosen[SEATS]                         # card index or -1
    int tie[SEATS]
    int value[SEATS]
    int boosted[SEATS]
    int passed[SEATS]
    int contending[SEATS]
    int out[SEATS]
    int mulligan[SEATS]
    int won[SEATS]
    int tokens[SEATS]
    int left[SEATS]
    int phase, actor, caller, attribute, tiebreak, round, ply, result
    # Each player's information state up to this node (its view here not yet in it), valid
    # where bit p of ``recorded`` is set; the move that led here extends the previous
    # Core's (_fast.pyx record).
    u64 info[SEATS]
    # ... and its information set (_fast.pyx remember_set): the record with the order of
    # the chance outcomes since the player's last seen node forgotten, whose sum is pending
    u64 set_info[SEATS]
    u64 pending[SEATS]
    int recorded, last_move
    # Each player's observed_key here, computed once for the records (bit p of ``viewed``:
    # view[p] is valid); whatever changes the Core other than make clears ``viewed``.
    u64 view[SEATS]
    int viewed

# The history grows on the heap with the game (grow_history): a card game has no useful
# length bound (void rounds, tie-break chains), so no fixed MAX_PLIES array could hold it.
cdef struct KState:
    Data* d                                   # shared by a kernel's clones (Kernel.data)
    Core c
    int ply
    int capacity                              # Cores the history has room for
    Core* history

cdef int current_player(KState* s) noexcept nogil
cdef int generate(KState* s, int* out) noexcept nogil
cdef void make_move(KState* s, int move) noexcept nogil
cdef void push_history(KState* s) noexcept nogil   # the current Core onto the history
cdef void unmake_move(KState* s) noexcept nogil
cdef u64 position_key(KState* s) noexcept nogil
# The combat checks, read-only: what a boost card adds, who boosts next, who is on top.
cdef void redraw_hand(KState* s, int p, u64* rng) noexcept nogil   # p's hand from their unseen cards
cdef int boost_bonus(KState* s, int p, int card, int target) noexcept nogil
cdef int next_booster(KState* s) noexcept nogil
cdef int top_players(KState* s) noexcept nogil      # bit p set for each player on top

cdef class Kernel(GameKernel):
    cdef KState s
    cdef bytearray data                       # owns s.d: the rules and cards never change
    cdef object cardset
    # know_hands(p): determinize(p) draws the other hand from known[p] (what p's record
    # allows, knowledge.py; or a range's hands, by known_cumulative[p]'s weights) while the
    # other's unseen cards are known_unseen[p]; clones share the hands' buffers.
    cdef tuple known_buffers
    cdef const u64* known[2]
    cdef const double* known_cumulative[2]  # NULL: every hand as likely
    cdef int known_index(self, int player, u64* rng) noexcept nogil
    cdef int known_count[2]
    cdef u64 known_unseen[2]
