# The C-level game interface: every fast game kernel subclasses GameKernel, and the searchers
# call these methods through Cython's vtable, so no Python call happens per node.
# Codes and meanings are those of engine/game.py (players 0/1, CHANCE = -1, TERMINAL = -2).
from libc.stdio cimport fprintf, stderr
from libc.stdlib cimport abort

ctypedef unsigned long long u64

# The one ply capacity: a fixed kernel history and the searchers' stacks hold this many plies,
# and every game's max_game_length fits in it (tests/test_kernel_contract.py), so a legal line
# of play never runs out of room; a game without a length bound (max_game_length None) grows
# its history instead, and the searchers count their plies from their root. Exported to Python as crystalpick.engine.kernel.MAX_PLIES.
cpdef enum:
    MAX_PLIES = 256

# What perft_nodes returns instead of a count: stopped by its stop word, or out of memory.
cdef enum:
    PERFT_STOPPED = -2
    PERFT_OUT_OF_MEMORY = -1


# The observer of observation_key() that stands for what every player sees.
cpdef enum:
    PUBLIC_VIEW = -1


cdef inline void ply_overflow() noexcept nogil:
    """A make past MAX_PLIES: only a rules bug (a game longer than its max_game_length) gets
    here; stop before the history is overrun rather than corrupt memory."""
    fprintf(stderr, b"crystalpick: kernel history full (MAX_PLIES plies); aborting\n")
    abort()


cdef class GameKernel:
    # 0 or 1 to move, -1 at a chance node, -2 when the game is over.
    cdef int player(self) noexcept nogil
    # Number of legal moves (or chance outcomes) in this state.
    cdef long long move_count(self) noexcept nogil
    # Write the legal moves (or chance outcomes) to out if they fit in capacity; return their
    # number either way (a caller whose buffer was too small allocates that many and retries).
    cdef long long moves(self, int* out, long long capacity) noexcept nogil
    # At a chance node: the probability of each outcome, in the order of moves(); else 0.
    cdef long long outcome_probabilities(self, double* out, long long capacity) noexcept nogil
    # At a chance node: one outcome drawn with ``rng`` by its probability, -1 elsewhere (or
    # out of memory). Default: from moves() and outcome_probabilities(); a game may draw it
    # without listing the outcomes (the searchers' playouts meet a chance node at every draw).
    cdef int sample_outcome(self, u64* rng) noexcept nogil
    # make pushes onto the kernel's history (at most MAX_PLIES entries), unmake pops.
    cdef void make(self, int move) noexcept nogil
    cdef void unmake(self) noexcept nogil
    # Plies on the history now (makes not yet unmade since the kernel was built).
    cdef int plies(self) noexcept nogil
    # Whether one more make would outgrow the history: plies() >= MAX_PLIES by default; a
    # kernel whose history grows with the game (the card battle's) is never full.
    cdef bint history_full(self) noexcept nogil
    cdef u64 hash_key(self) noexcept nogil
    # Turns in stages (engine/features.py StagedTurns): a move as two decisions of the mover,
    # its first stage (Mattock: the dig) and the rest (the walk, or none), so a searcher may
    # choose the stage before listing the rest. ``stages`` writes the distinct first stages
    # of the legal moves (ids >= 0) and, where ``counts`` is not NULL, how many moves begin
    # with each, if they fit in ``capacity``; returns their number either way. Default:
    # every move a stage of its own.
    cdef long long stages(self, int* out, long long* counts, long long capacity) noexcept nogil
    # The legal moves that begin with ``stage``, the first ``capacity`` of them written;
    # returns how many there are. Default: the stage itself (a move).
    cdef long long stage_moves(self, int stage, int* out, long long capacity) noexcept nogil
    # A key of the position after ``stage`` alone, the same player still to choose the rest:
    # equal for equal such positions (however reached), never a position's hash_key.
    # Default: hash_key() after the stage as a move, mixed with a constant.
    cdef u64 stage_key(self, int stage) noexcept nogil
    # The least key over the images of this position under the game's symmetries (board
    # rotations and reflections, players exchanged where the rules allow): equal for
    # positions that are one game seen differently, whose value for the player to move is
    # the same, so a searcher's table may share their entry. Default: hash_key() (no symmetry).
    cdef u64 canonical_key(self) noexcept nogil
    # Player 0's result at a terminal state: +1 win, -1 loss, 0 draw.
    cdef double terminal_value(self) noexcept nogil
    # Leaves of the move tree ``depth`` plies deep (chance outcomes count as plies); the
    # default walks the methods above, a game may bulk-count natively. ``stop`` (NULL: none)
    # is a stop flag's word, read at every interior node: once it is nonzero the walk unwinds
    # (the position restored) and returns PERFT_STOPPED; PERFT_OUT_OF_MEMORY if a list fails.
    cdef long long perft_nodes(self, int depth, const volatile int* stop) noexcept nogil
    # Hidden information, for information-set searchers. determinize: replace what ``player``
    # cannot see by a random assignment consistent with that player's observation, drawn with
    # ``rng``, and push the old state on the history like a move (unmake restores it); where
    # other players made secret choices of a simultaneous step that ``player`` waits on, the
    # new state is the one before those choices (the searcher lets its model of those
    # players make them). Returns 0, or -1 for a game without hidden information (default).
    cdef int determinize(self, int player, u64* rng) noexcept nogil
    # A 64-bit key of what ``player`` observes here (PUBLIC_VIEW: what every player sees);
    # equal observations give equal keys. Default: hash_key() (perfect information).
    cdef u64 observation_key(self, int player) noexcept nogil
    # A 64-bit key of ``player``'s information state (engine/game.py information_state:
    # everything that player has observed since the kernel was built, in order); equal
    # information states give equal keys. A game with hidden information keeps it as a
    # running hash that make updates and unmake restores. Default: hash_key(). With perfect
    # information the information state is the history, and the position is all of it that
    # matters to play, so searchers merge transpositions on purpose.
    cdef u64 information_state_key(self, int player) noexcept nogil
    # A 64-bit key of ``player``'s information set: the information state with what the
    # rules make strategically irrelevant forgotten (the card battle: the order of chance
    # outcomes between two decisions, which uniformly shuffled decks make uninformative), so
    # equal keys are histories the player can tell apart only by such an order, with the
    # same legal moves; searchers that learn per information set (mccfr, solvers/exact's tree)
    # key by it, or what they learn is spread over orders that mean nothing. Default:
    # information_state_key(player).
    cdef u64 information_set_key(self, int player) noexcept nogil
