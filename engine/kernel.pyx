# cython: language_level=3
"""Base of the fast game kernels (see kernel.pxd for the C contract) and their Python
boundary, written once here on top of the C methods: a game's kernel overrides the C methods
and only the Python methods that really are its own (``clone``, ``to_position``, and any
extra read-outs its State or tests need)."""
from libc.stdlib cimport malloc, free

from crystalpick.engine.rng cimport random_index

# Mixed into the default stage_key, so a stage never shares a position's key.
cdef u64 STAGE_SALT = 0xD6E8FEB86659FD93ULL


cdef class GameKernel:
    cdef int player(self) noexcept nogil:
        return -2

    cdef long long move_count(self) noexcept nogil:
        return 0

    cdef long long moves(self, int* out, long long capacity) noexcept nogil:
        return 0

    cdef long long outcome_probabilities(self, double* out, long long capacity) noexcept nogil:
        return 0

    cdef int sample_outcome(self, u64* rng) noexcept nogil:
        cdef long long n = self.move_count()
        cdef int* outcomes
        cdef double* probabilities
        cdef int outcome = -1
        if self.player() != -1 or n <= 0:
            return -1
        outcomes = <int*>malloc(n * sizeof(int))
        probabilities = <double*>malloc(n * sizeof(double))
        if outcomes != NULL and probabilities != NULL:
            self.moves(outcomes, n)
            self.outcome_probabilities(probabilities, n)
            outcome = outcomes[random_index(probabilities, n, rng)]
        free(outcomes)
        free(probabilities)
        return outcome

    cdef void make(self, int move) noexcept nogil:
        pass

    cdef void unmake(self) noexcept nogil:
        pass

    cdef int plies(self) noexcept nogil:
        return 0

    cdef bint history_full(self) noexcept nogil:
        return self.plies() >= MAX_PLIES

    cdef u64 hash_key(self) noexcept nogil:
        return 0

    cdef u64 canonical_key(self) noexcept nogil:
        return self.hash_key()

    cdef double terminal_value(self) noexcept nogil:
        return 0.0

    cdef long long stages(self, int* out, long long* counts, long long capacity) noexcept nogil:
        cdef long long n = self.moves(out, capacity), i
        if counts != NULL and n <= capacity:
            for i in range(n):
                counts[i] = 1
        return n

    cdef long long stage_moves(self, int stage, int* out, long long capacity) noexcept nogil:
        if capacity > 0:
            out[0] = stage
        return 1

    cdef u64 stage_key(self, int stage) noexcept nogil:
        cdef u64 key
        self.make(stage)
        key = self.hash_key() ^ STAGE_SALT
        self.unmake()
        return key

    cdef long long perft_nodes(self, int depth, const volatile int* stop) noexcept nogil:
        """Generic perft: the last ply bulk-counted, so leaves are never played."""
        cdef long long n, i, sub, total = 0
        cdef int* moves
        if depth <= 0:
            return 1
        n = self.move_count()
        if depth == 1 or n == 0:
            return n
        if stop != NULL and stop[0]:
            return PERFT_STOPPED
        moves = <int*>malloc(n * sizeof(int))
        if moves == NULL:
            return PERFT_OUT_OF_MEMORY
        n = self.moves(moves, n)
        for i in range(n):
            self.make(moves[i])
            sub = self.perft_nodes(depth - 1, stop)
            self.unmake()
            if sub < 0:
                total = sub
                break
            total += sub
        free(moves)
        return total

    cdef int determinize(self, int player, u64* rng) noexcept nogil:
        return -1

    cdef u64 observation_key(self, int player) noexcept nogil:
        return self.hash_key()

    cdef u64 information_state_key(self, int player) noexcept nogil:
        return self.hash_key()

    cdef u64 information_set_key(self, int player) noexcept nogil:
        return self.information_state_key(player)

    # -- Python boundary -----------------------------------------------------------------------

    def current_player(self):
        return self.player()

    def legal_moves(self):
        """The legal moves, or at a chance node the outcomes, in the kernel's order."""
        cdef long long count = self.move_count()
        cdef int* moves = <int*>malloc((count + 1) * sizeof(int))
        cdef long long n
        if moves == NULL:
            raise MemoryError()
        try:
            n = self.moves(moves, count + 1)
            return [moves[i] for i in range(n)]
        finally:
            free(moves)

    def chance_outcomes(self):
        """``(outcome, probability)`` pairs at a chance node, else an empty list."""
        if self.player() != -1:
            return []
        moves = self.legal_moves()
        cdef long long n = len(moves)
        cdef double* probabilities = <double*>malloc((n + 1) * sizeof(double))
        if probabilities == NULL:
            raise MemoryError()
        try:
            self.outcome_probabilities(probabilities, n + 1)
            return [(moves[i], probabilities[i]) for i in range(n)]
        finally:
            free(probabilities)

    def sampled_outcome(self, u64 seed):
        """``sample_outcome`` with a generator seeded by ``seed`` (-1: not a chance node)."""
        cdef u64 rng = seed
        return self.sample_outcome(&rng)

    def play(self, int move):
        """Make ``move`` (not checked for legality); refuses to outgrow the history."""
        if self.history_full():
            raise OverflowError(f"game longer than the kernels' capacity of {MAX_PLIES} plies")
        self.make(move)

    def undo(self):
        if self.plies() == 0:
            raise IndexError("no move to undo")
        self.unmake()

    @property
    def ply(self):
        return self.plies()

    @property
    def key(self):
        return self.hash_key()

    def turn_stages(self):
        """``[(stage, [its moves])]`` from ``stages`` and ``stage_moves``, in the kernel's
        order (the tests check that they partition the legal moves)."""
        cdef long long count = self.move_count()
        cdef int* ids = <int*>malloc((count + 1) * sizeof(int))
        cdef int* moves = <int*>malloc((count + 1) * sizeof(int))
        cdef long long n, i, m
        if ids == NULL or moves == NULL:
            free(ids)
            free(moves)
            raise MemoryError()
        try:
            n = self.stages(ids, NULL, count + 1)
            out = []
            for i in range(n):
                m = self.stage_moves(ids[i], moves, count + 1)
                out.append((ids[i], [moves[j] for j in range(m)]))
            return out
        finally:
            free(ids)
            free(moves)

    def stage_key_of(self, int stage):
        """stage_key(stage) for Python (the tests compare it across move orders)."""
        return self.stage_key(stage)

    @property
    def canonical(self):
        """canonical_key() for Python (the tests compare it across symmetric images)."""
        return self.canonical_key()

    def perft(self, int depth, stop=None):
        """Perft without the GIL (native where the game provides it); None if ``stop`` (a
        stop flag, read through its word's ``address``) was set before the count ended."""
        cdef long long nodes
        cdef const volatile int* word = NULL
        if stop is not None:
            word = <const volatile int*><size_t>stop.address
        with nogil:
            nodes = self.perft_nodes(depth, word)
        if nodes == PERFT_STOPPED:
            return None
        if nodes < 0:
            raise MemoryError()
        return nodes

    def determinized(self, int player, u64 seed):
        """A clone with what ``player`` cannot see drawn at random from ``seed`` (see
        kernel.pxd ``determinize``); ValueError for a game without hidden information."""
        cdef GameKernel twin = self.clone()
        cdef u64 rng = seed
        if twin.history_full():
            raise OverflowError(f"game longer than the kernels' capacity of {MAX_PLIES} plies")
        if twin.determinize(player, &rng) < 0:
            raise ValueError(f"{type(self).__name__}: nothing is hidden from any player")
        return twin

    def observation_key_of(self, int player):
        """observation_key(player) for Python (tests compare it with observations)."""
        return self.observation_key(player)

    def information_state_key_of(self, int player):
        """information_state_key(player) for Python (tests compare it with the strings)."""
        return self.information_state_key(player)

    def information_set_key_of(self, int player):
        """information_set_key(player) for Python (the exact solver's tree keys by it)."""
        return self.information_set_key(player)

    def clone(self):
        """An independent copy of the position and its history (the game's own)."""
        raise NotImplementedError(f"{type(self).__name__} has no clone()")

    def to_position(self):
        """The game's Position object for this state (the game's own)."""
        raise NotImplementedError(f"{type(self).__name__} has no to_position()")
