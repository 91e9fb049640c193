# cython: language_level=3
"""Base per-game search knowledge: scores every position 0 and has no fast sampler.

Games without knowledge of their own (and the test games) still get correct searches:
alpha-beta then only sees proven results and MCTS relies on playouts.
"""


cdef class KernelReader:
    kernel_class = GameKernel          # the kernel class whose C state this reads

    def check(self, GameKernel kernel):
        """Refuse a kernel of another class than the one this reads (searchers call this once
        per kernel, never per node)."""
        if not isinstance(kernel, self.kernel_class):
            raise TypeError(f"{type(self).__name__} reads {self.kernel_class.__name__} kernels "
                            f"(module {self.kernel_class.__module__}), not "
                            f"{type(kernel).__module__}.{type(kernel).__name__}: pair each game's "
                            f"kernel with that game's evaluator and playout policy")

    def _kernel_of(self, state):
        """The checked kernel of ``state``, for the Python entries below."""
        kernel = state.search_kernel()
        self.check(kernel)
        return kernel


cdef class Evaluator(KernelReader):
    cdef double evaluate(self, GameKernel kernel) noexcept nogil:
        return 0.0

    cdef double evaluate_for(self, GameKernel kernel, int player) noexcept nogil:
        cdef int mover = kernel.player()
        if mover < 0:
            return 0.0
        return self.evaluate(kernel) if mover == player else -self.evaluate(kernel)

    def score(self, state):
        """Python entry for tests and tools: evaluate ``state`` for its side to move."""
        return self.evaluate(self._kernel_of(state))

    def score_for(self, state, int player):
        """Python entry for tests and tools: the evaluation from ``player``'s point of view,
        at a chance node too."""
        return self.evaluate_for(self._kernel_of(state), player)


cdef class PlayoutPolicy(KernelReader):
    cdef int sample_move(self, GameKernel kernel, u64* rng) noexcept nogil:
        return NO_SAMPLER

    cdef int playout_move(self, GameKernel kernel, u64* rng) noexcept nogil:
        return self.sample_move(kernel, rng)

    cdef int determinize(self, GameKernel kernel, int player, u64* rng) noexcept nogil:
        return kernel.determinize(player, rng)

    def drawn_worlds(self, GameKernel kernel, int player, int keyed_by, long long count,
                     u64 seed, kept=()):
        """``count`` worlds drawn from ``kernel`` for ``player`` as an information-set
        searcher draws them (:meth:`determinize`, one stream from ``seed``), counted by what
        ``keyed_by`` observes in them: ``{observation key: [draws, first draw's index]}``,
        and a clone of the world at each index of ``kept`` (``{index: world}``; the stream
        ends at the last). A first draw, from another stream and undone, settles what a
        policy keeps between draws (the card battle's pool of fitting hands), so the same
        call draws the same worlds again: a caller counts first, then clones the few it
        reads (search/assumed.py)."""
        self.check(kernel)
        cdef GameKernel twin = kernel.clone()
        cdef u64 rng = seed, settle = seed ^ 0x9E3779B97F4A7C15ULL, key
        cdef long long i
        if twin.history_full():
            raise OverflowError("game longer than the kernels' capacity of plies")
        if self.determinize(twin, player, &settle) < 0:
            raise ValueError(f"{type(kernel).__name__}: nothing is hidden from any player")
        twin.unmake()
        wanted = set(kept)
        if wanted:
            count = min(count, max(wanted) + 1)
        counts, worlds = {}, {}
        for i in range(count):
            self.determinize(twin, player, &rng)
            key = twin.observation_key(keyed_by)
            group = counts.get(key)
            if group is None:
                counts[key] = [1, i]
            else:
                group[0] += 1
            if i in wanted:
                worlds[i] = twin.clone()
            twin.unmake()
        return counts, worlds

    def infer(self, GameKernel kernel, int observer):
        """Condition ``determinize`` for ``observer`` on what their view of ``kernel``'s game
        so far (its history) shows, if the other players play this policy; return what was
        inferred. Nothing by default."""
        return []

    def playout(self, state, unsigned long long seed):
        """Python entry for tests: ``playout_move`` with a generator seeded by ``seed``."""
        cdef u64 rng = seed
        return self.playout_move(self._kernel_of(state), &rng)

    def sample(self, state, unsigned long long seed):
        """Python entry for tests: ``sample_move`` with a generator seeded by ``seed``."""
        cdef u64 rng = seed
        return self.sample_move(self._kernel_of(state), &rng)
