# cython: language_level=3, boundscheck=False, wraparound=False
"""A range's walk (ranges.py) in C. ``children``: the hot step of the walk on States (any
Python strategy): which children of a world keep the observer's record a beginning of the
true one, found with the kernel's make, keys and unmake, so that no State is made for a
child the walk drops or merges. ``walk``: the whole walk, for a ``PolicyStrategy``, with no
State and no Python call per world (issue 43: a range at every decision of a 1-s search)."""
from libc.math cimport frexp
from libc.stdlib cimport calloc, free, malloc, realloc

from crystalpick.engine.evaluation cimport PlayoutPolicy
from crystalpick.engine.kernel cimport GameKernel, u64


cdef bint among(const u64[::1] sorted_keys, u64 key) noexcept nogil:
    """Whether ``key`` is in ``sorted_keys`` (increasing): a binary search."""
    cdef Py_ssize_t low = 0, high = sorted_keys.shape[0]
    cdef Py_ssize_t middle
    while low < high:
        middle = (low + high) >> 1
        if sorted_keys[middle] < key:
            low = middle + 1
        else:
            high = middle
    return low < sorted_keys.shape[0] and sorted_keys[low] == key


def children(GameKernel kernel, int observer, const u64[::1] beginnings, tuple others,
             list moves, list probabilities):
    """``(move, probability, (hash key, observer's key, each of ``others``' information set
    key))`` for each child of ``kernel``'s node whose observer key is among ``beginnings``
    (sorted): ``moves`` with ``probabilities`` (another player's decision, by the strategy),
    or where ``moves`` is None chance's outcomes with theirs, or the observer's own moves
    with 1. The kernel is left as it was."""
    cdef long long count = kernel.move_count(), i
    cdef int* buffer = <int*>malloc((count + 1) * sizeof(int))
    cdef double* chances = <double*>malloc((count + 1) * sizeof(double))
    cdef int player = kernel.player(), move
    cdef u64 seen
    cdef double probability
    found = []
    if buffer == NULL or chances == NULL:
        free(buffer)
        free(chances)
        raise MemoryError()
    try:
        if moves is None:
            count = kernel.moves(buffer, count + 1)
            if player == -1:
                kernel.outcome_probabilities(chances, count + 1)
        else:
            count = len(moves)
        for i in range(count):
            if moves is None:
                move, probability = buffer[i], chances[i] if player == -1 else 1.0
            else:
                move, probability = moves[i], probabilities[i]
                if probability <= 0.0:
                    continue
            kernel.make(move)
            seen = kernel.information_state_key(observer)
            if among(beginnings, seen):
                found.append((move, probability,
                              (kernel.hash_key(), seen)
                              + tuple(kernel.information_set_key(p) for p in others)))
            kernel.unmake()
        return found
    finally:
        free(buffer)
        free(chances)


# -- the walk in C (RangeTracker with a PolicyStrategy) -------------------------------------
# A world is a root kernel (a world held before the walk) and the moves played from it: a
# layer's worlds are made and unmade on their root's kernel in turn (layers keep their
# roots' order, so consecutive worlds share most of their moves), never cloned.

cpdef enum:                     # what walk returns instead of its worlds
    WALK_DONE = 0
    WALK_STOPPED = 1
    WALK_TOO_MANY = 2
    WALK_NO_MEMORY = 3
    WALK_HISTORY_FULL = 4


cdef class PolicyStrategy:
    """The game's playout policy's move with probability 1 - ``epsilon``, every legal move
    ``epsilon`` / their number (a policy without a move of its own: uniform), read from the
    kernel in C: the strategy a walk with no Python call per world takes (the bench's greedy
    opponent model). Callable as a Python strategy too (the same probabilities)."""
    cdef readonly PlayoutPolicy policy
    cdef readonly double epsilon
    cdef readonly u64 seed

    def __init__(self, PlayoutPolicy policy, double epsilon, u64 seed=1):
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"epsilon {epsilon} is not a probability")
        self.policy, self.epsilon, self.seed = policy, epsilon, seed

    cdef void shares(self, GameKernel kernel, const int* moves, long long n,
                     double* out) noexcept nogil:
        """Each of the ``n`` legal ``moves``' probability into ``out``."""
        cdef u64 rng = self.seed                  # the same generator at every world
        cdef int chosen = self.policy.playout_move(kernel, &rng)
        cdef long long i
        cdef bint found = False
        for i in range(n):
            found = found or moves[i] == chosen
        for i in range(n):
            out[i] = (self.epsilon if found else 1.0) / n
            if found and moves[i] == chosen:
                out[i] += 1.0 - self.epsilon

    def __call__(self, state):
        """``{move: probability}`` at ``state``, as the walk in C reads them."""
        kernel = self.policy._kernel_of(state)
        moves = state.legal_moves()
        cdef long long n = len(moves), i
        cdef int* buffer = <int*>malloc((n + 1) * sizeof(int))
        cdef double* out = <double*>malloc((n + 1) * sizeof(double))
        try:
            if buffer == NULL or out == NULL:
                raise MemoryError()
            for i in range(n):
                buffer[i] = moves[i]
            self.shares(kernel, buffer, n, out)
            return {moves[i]: out[i] for i in range(n)}
        finally:
            free(buffer)
            free(out)


cdef inline u64 spread(u64 key) noexcept nogil:
    key = (key ^ (key >> 30)) * 0xBF58476D1CE4E5B9ULL
    key = (key ^ (key >> 27)) * 0x94D049BB133111EBULL
    return key ^ (key >> 31)


cdef class Worlds:
    """Worlds as (root, moves from it, weight, merge key), merged by key in an
    open-addressed table: the layers of a walk and the worlds a tracker holds."""
    cdef readonly long long count
    cdef readonly int width                   # u64s in a merge key
    cdef long long room, path_room, path_used, slots
    cdef int* root
    cdef long long* start                     # each world's moves in ``path``
    cdef int* length
    cdef int* path
    cdef double* weight
    cdef u64* key
    cdef long long* table                     # world index + 1, 0: empty

    def __cinit__(self, int width):
        self.width = width

    def __dealloc__(self):
        free(self.root)
        free(self.start)
        free(self.length)
        free(self.path)
        free(self.weight)
        free(self.key)
        free(self.table)

    cdef bint grow(self, long long moves) noexcept nogil:
        """Room for one more world of ``moves`` moves; False when out of memory."""
        cdef long long room = 2 * self.room + 64, slots, i, j
        cdef void* p
        if self.count >= self.room:
            p = realloc(self.root, room * sizeof(int))
            if p == NULL: return False
            self.root = <int*>p
            p = realloc(self.start, room * sizeof(long long))
            if p == NULL: return False
            self.start = <long long*>p
            p = realloc(self.length, room * sizeof(int))
            if p == NULL: return False
            self.length = <int*>p
            p = realloc(self.weight, room * sizeof(double))
            if p == NULL: return False
            self.weight = <double*>p
            p = realloc(self.key, room * self.width * sizeof(u64))
            if p == NULL: return False
            self.key = <u64*>p
            self.room = room
        if self.path_used + moves > self.path_room:
            room = 2 * self.path_room + moves + 256
            p = realloc(self.path, room * sizeof(int))
            if p == NULL: return False
            self.path, self.path_room = <int*>p, room
        if 2 * (self.count + 1) > self.slots:
            slots = 1024 if self.slots == 0 else 2 * self.slots
            free(self.table)
            self.table = <long long*>calloc(slots, sizeof(long long))
            if self.table == NULL:
                self.slots = 0
                return False
            self.slots = slots
            for i in range(self.count):
                j = self.slot(&self.key[i * self.width])
                self.table[j] = i + 1
        return True

    cdef long long slot(self, const u64* key) noexcept nogil:
        """The table slot of ``key``: its world's, or the empty one it would take."""
        cdef u64 h = 0
        cdef long long j, w
        cdef int k
        cdef bint same
        for k in range(self.width):
            h = spread(h ^ key[k])
        j = <long long>(h & <u64>(self.slots - 1))
        while self.table[j]:
            w = self.table[j] - 1
            same = True
            for k in range(self.width):
                same = same and self.key[w * self.width + k] == key[k]
            if same:
                return j
            j = (j + 1) & (self.slots - 1)
        return j

    cdef long long add(self, const u64* key, double weight, int root, const int* moves,
                       int length, int move) noexcept nogil:
        """Merge ``weight`` into the world of ``key``, or hold a new one: ``root``'s moves
        then ``move`` (-1: none); the world's index, -1 when out of memory."""
        cdef long long j, w
        cdef int k
        if not self.grow(length + 1):
            return -1
        j = self.slot(key)
        if self.table[j]:
            w = self.table[j] - 1
            self.weight[w] += weight
            return w
        w = self.count
        self.count += 1
        self.table[j] = w + 1
        for k in range(self.width):
            self.key[w * self.width + k] = key[k]
        self.root[w], self.weight[w], self.start[w] = root, weight, self.path_used
        for k in range(length):
            self.path[self.path_used + k] = moves[k]
        if move >= 0:
            self.path[self.path_used + length] = move
            length += 1
        self.length[w] = length
        self.path_used += length
        return w

    cdef void scale(self, double factor) noexcept nogil:
        cdef long long i
        for i in range(self.count):
            self.weight[i] *= factor

    cdef double total(self) noexcept nogil:
        cdef double total = 0.0
        cdef long long i
        for i in range(self.count):
            total += self.weight[i]
        return total

    def normalised(self):
        """The total weight, after dividing every weight by it (unless it is 0)."""
        cdef double total = self.total()
        if total > 0.0:
            self.scale(1.0 / total)
        return total

    def hold(self, int root, double weight):
        """One more world: ``root`` itself (keyed by it: the walk keys the worlds it finds)."""
        cdef u64* key = <u64*>calloc(self.width, sizeof(u64))
        cdef long long added = -1
        if key != NULL:
            key[0] = <u64>root
            added = self.add(key, weight, root, NULL, 0, -1)
            free(key)
        if added < 0:
            raise MemoryError()

    def weights(self):
        return [self.weight[i] for i in range(self.count)]

    def roots(self):
        return [self.root[i] for i in range(self.count)]

    def moves(self, long long i):
        """World ``i``'s moves from its root."""
        return [self.path[self.start[i] + k] for k in range(self.length[i])]

    def positioned(self, list kernels):
        """Each world's index with its root's kernel (of ``kernels``) at it, in turn; the
        kernels are left as they were."""
        cdef Cursor cursor = Cursor()
        cdef long long i
        try:
            for i in range(self.count):
                if cursor.kernel is not kernels[self.root[i]]:
                    cursor.leave()
                    cursor.enter(kernels[self.root[i]])
                if cursor.go(cursor.kernel, &self.path[self.start[i]],
                             self.length[i]) != WALK_DONE:
                    raise OverflowError("a world is longer than the kernel's history")
                yield i
        finally:
            cursor.leave()


cdef class Cursor:
    """One root kernel moved from world to world of a layer: unmakes back to the moves
    two worlds share, then makes the rest."""
    cdef GameKernel kernel
    cdef int* moves
    cdef int depth, room

    def __dealloc__(self):
        free(self.moves)

    cdef void enter(self, GameKernel kernel):
        self.kernel, self.depth = kernel, 0

    cdef void leave(self) noexcept:
        if self.kernel is not None:
            self.go(self.kernel, NULL, 0)
            self.kernel = None

    cdef int go(self, GameKernel kernel, const int* moves, int length) noexcept nogil:
        """Bring ``kernel`` (the one entered) to its root's position, then ``moves``."""
        cdef int same = 0
        cdef void* p
        if length > self.room:
            p = realloc(self.moves, (length + 64) * sizeof(int))
            if p == NULL:
                return WALK_NO_MEMORY
            self.moves, self.room = <int*>p, length + 64
        while same < self.depth and same < length and self.moves[same] == moves[same]:
            same += 1
        while self.depth > same:
            kernel.unmake()
            self.depth -= 1
        while self.depth < length:
            if kernel.history_full():
                return WALK_HISTORY_FULL
            kernel.make(moves[self.depth])
            self.moves[self.depth] = moves[self.depth]
            self.depth += 1
        return WALK_DONE


cdef void keyed(GameKernel kernel, u64 seen, const int[::1] others, u64* key) noexcept nogil:
    """A world's merge key: position, observer's record, each of ``others``' set."""
    cdef Py_ssize_t k
    key[0], key[1] = kernel.hash_key(), seen
    for k in range(others.shape[0]):
        key[2 + k] = kernel.information_set_key(others[k])


cdef int expand(Cursor cursor, GameKernel kernel, Worlds layer, long long i,
                Worlds following, Worlds found, int observer, const u64[::1] beginnings,
                u64 target, const int[::1] others, PolicyStrategy strategy,
                long long max_worlds, int* moves, double* chances, u64* key,
                long long room) noexcept nogil:
    """World ``i`` of ``layer`` into ``found`` if its record is the true one, else its
    children whose records begin it into ``following``, weighted. ``moves`` and ``chances``
    hold ``room`` entries (at least the world's move count)."""
    cdef int status = cursor.go(kernel, &layer.path[layer.start[i]], layer.length[i])
    cdef int player, j
    cdef long long count
    cdef u64 seen
    cdef double weight = layer.weight[i], probability
    if status != WALK_DONE:
        return status
    seen = kernel.information_state_key(observer)
    if seen == target:
        keyed(kernel, seen, others, key)
        if found.add(key, weight, layer.root[i], &layer.path[layer.start[i]],
                     layer.length[i], -1) < 0:
            return WALK_NO_MEMORY
        return WALK_DONE
    player = kernel.player()
    if player == -2:
        return WALK_DONE
    count = kernel.moves(moves, room)
    if player == -1:
        kernel.outcome_probabilities(chances, room)
    elif player == observer:
        for j in range(count):
            chances[j] = 1.0
    else:
        strategy.shares(kernel, moves, count, chances)
    if kernel.history_full():
        return WALK_HISTORY_FULL
    for j in range(count):
        probability = chances[j]
        if probability <= 0.0:
            continue
        kernel.make(moves[j])
        seen = kernel.information_state_key(observer)
        if among(beginnings, seen):
            keyed(kernel, seen, others, key)
            if following.add(key, weight * probability, layer.root[i], cursor.moves,
                             cursor.depth, moves[j]) < 0:
                kernel.unmake()
                return WALK_NO_MEMORY
        kernel.unmake()
        if following.count > max_worlds:
            return WALK_TOO_MANY
    return WALK_DONE


def walk(list kernels, Worlds held, int observer, const u64[::1] beginnings, u64 target,
         const int[::1] others, PolicyStrategy strategy, long long max_worlds, stop=None):
    """ranges.py's walk in C: from the ``held`` worlds (on ``kernels``, their roots), ply by
    ply, keep the children whose observer record begins the true one (``beginnings``,
    sorted), weighted by chance and ``strategy``, merged by key; stop each at the true
    record (``target``). Returns (found worlds, most held at one ply), or a status code
    (WALK_*: stopped by ``stop``'s word, more than ``max_worlds``, out of memory, a history
    full). The kernels are left as they were; each layer's worlds of one root are walked
    without the GIL."""
    cdef const volatile int* word = NULL
    cdef int width = 2 + others.shape[0], status = WALK_DONE
    cdef Worlds layer = held, following, found = Worlds(width)
    cdef Cursor cursor = Cursor()
    cdef long long i, end, most = 1, room = 0
    cdef int* moves = NULL
    cdef double* chances = NULL
    cdef u64* key = <u64*>malloc(width * sizeof(u64))
    cdef double total
    cdef int exponent
    cdef GameKernel kernel
    if stop is not None:
        word = <const volatile int*><size_t>stop.address
    for kernel in kernels:
        strategy.policy.check(kernel)
    try:
        while layer.count and status == WALK_DONE:
            following = Worlds(width)
            i = 0
            while i < layer.count and status == WALK_DONE:
                kernel = kernels[layer.root[i]]
                cursor.enter(kernel)
                end = i
                while end < layer.count and layer.root[end] == layer.root[i]:
                    end += 1
                with nogil:
                    while i < end and status == WALK_DONE:
                        if word != NULL and word[0]:
                            status = WALK_STOPPED
                            break
                        if kernel.move_count() + 1 > room:
                            free(moves)
                            free(chances)
                            room = 2 * kernel.move_count() + 64
                            moves = <int*>malloc(room * sizeof(int))
                            chances = <double*>malloc(room * sizeof(double))
                        if moves == NULL or chances == NULL or key == NULL:
                            status = WALK_NO_MEMORY
                            break
                        status = expand(cursor, kernel, layer, i, following, found, observer,
                                        beginnings, target, others, strategy, max_worlds,
                                        moves, chances, key, room)
                        i += 1
                cursor.leave()
            if status != WALK_DONE:
                break
            most = max(most, following.count)
            total = following.total() + found.total()
            if following.count and not 2.0 ** -256 < total < 2.0 ** 256:
                frexp(total, &exponent)
                following.scale(2.0 ** -exponent)
                found.scale(2.0 ** -exponent)
            layer = following
    finally:
        cursor.leave()
        free(moves)
        free(chances)
        free(key)
    if status != WALK_DONE:
        return status
    return found, most
