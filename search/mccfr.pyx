# cython: language_level=3
"""External-sampling Monte Carlo CFR (Lanctot et al. 2009) over any GameKernel, run from the
root of the kernel's history (the deal, for a game record) rather than from the current
position, so the strategies it averages are those of the whole game and converge to an
equilibrium, which ISMCTS's do not.

Each iteration updates one player's regrets (the players alternate): the updated player's
every move is walked, the other player's and chance's sampled by their probabilities, so
every move's regret gets an unbiased sampled counterfactual value and no importance weight
divides it; the other player's average strategy takes its current strategy (regret matching,
mixed with ``tremble`` uniform) where it is met. With ``linear`` each iteration counts by its
number in the regrets and the averages (Linear CFR). Regrets and average strategies live in
one open-addressed hash table of information sets keyed by the kernel's
``information_set_key`` (perfect recall by construction, and draws that differ only in their
order merged, engine/kernel.pxd), so the search reads nothing a player cannot see and learns
once what means the same. What it learns is the whole game's strategy, read at the root
player's current information set (``root_slots``) or at any other (``average_strategy``).

An iteration walks the updated player's whole subtree, which only a small game allows: the
stop flag, the deadline and the node limit are checked inside an iteration too, and an
interrupted one is not counted. With a ``horizon`` (and a playout ``policy``), a decision that
many decisions below the root player's own decision is not walked: one playout by the game's
playout moves to the end gives its value (a share ``epsilon`` of them uniform: one fixed line
would make every move that wins along it worth the same, and be exploited; or ``leaves``
gives the values, leaf_values.pxd), so an iteration costs the next few decisions, not
the updated player's whole subtree. With ``continuations`` N > 1 the other player (not the
root player) chooses at each such leaf, at their information set there, among N playouts
that differ in how they play on: the policy with ``epsilon`` up to uniform play (multi-valued
states, Brown, Sandholm and Amos 2018), so the search cannot count on one continuation; from a view (below) that is depth-limited re-solving of
the subgame ahead, sound only as far as the redrawn worlds and the playouts' values are.

The root player's information state is the sequence of their keys along the kernel's
history (``keys``): its last is the information set the search is asked about, and
``continue_at`` goes on with the same table at a later decision of the same game when the new
sequence extends it. Where the kernel's root hides something from the root player (a position
given as a bare view, or a game record that starts from a full position), each iteration
first redraws it with the kernel's ``determinize`` (uniform over what the player's view
allows), or with the playout policy's where there is one (conditioned on what it inferred of
the other player's play, as ISMCTS's ``infer``): the search is then of the game from that
view, as ISMCTS's is. With ``public`` each iteration also redraws the root player's own
hidden part, from the other player's view: always where it updates the other player, half
the time where it updates the root player (the other half keeps the real one, whose
information set is the one asked), so the other player's regrets are those against every
hand they must allow the root player, not against the real one (re-solving from the public
state with both players' ranges), and the root player's stay unbiased per information set (a
hand's sampling weight is the same wherever its information set is met); the root's average
strategy is then taken where the root player is updated. Deterministic for a given seed.
"""
from libc.stdlib cimport malloc, realloc, free

from crystalpick.engine.evaluation cimport PlayoutPolicy
from crystalpick.engine.kernel cimport GameKernel, u64, MAX_PLIES
from crystalpick.engine.rng cimport random_below, random_index, random_unit
from crystalpick.search.leaf_values cimport LeafValues
from crystalpick.search.clock cimport now
from crystalpick.search.stop cimport StopFlag

cdef enum:
    CHECK_EVERY = 16        # iterations between checks of the limits
    CHECK_MADE = 4095       # ... and inside one: once per 4,096 positions
    KEY_ROOM = 64           # keys a bare view's record may take before the root player decides
    UNTRACKED = -1          # a decision whose information set the full table could not take
    PROBE_MOVES = 1024      # moves a bare view's probe lists at a decision it walks through
    MAX_CONTINUATIONS = 8   # the other player's choices at a leaf, at most


cdef struct InfoSet:        # one information set: its moves are slots first .. first+count-1
    u64 key                 # 0: an empty table entry
    int first
    int count

cdef struct Slot:           # one move of an information set
    int move
    double regret           # cumulative counterfactual regret
    double average          # cumulative reach-weighted strategy: the average strategy
    double value            # sum of the mover's results in [0, 1] over the walks of it
    long long visits        # ... at the root player's current information set


cdef u64 LEAF_SALT = 0xD1B54A32D192ED03ULL     # a leaf's key apart from a decision's


cdef inline u64 set_key(u64 information, int player) noexcept nogil:
    cdef u64 z = information ^ ((<u64>(player + 2)) * 0x9E3779B97F4A7C15ULL)
    z = (z ^ (z >> 31)) * 0xBF58476D1CE4E5B9ULL
    z = z ^ (z >> 29)
    return z if z else 1


cdef class MCCFR:
    """The search for ``root_player`` of the kernel's current position; the kernel (a clone
    the caller gives up) is unwound to the root of its history."""
    cdef GameKernel kernel
    cdef readonly int root_player
    cdef readonly double tremble        # every current strategy's uniform share
    cdef readonly bint determinizes     # each iteration redraws what the root hides
    cdef readonly bint public           # ... and the root player's own, from the other's view
    cdef readonly int horizon           # decisions walked before a playout
    cdef PlayoutPolicy policy           # ... by the game's playout moves estimates the rest
                                        # (and its determinize redraws a view's hidden part)
    cdef LeafValues leaves              # ... or values given there (leaf_values.pxd)
    cdef readonly double epsilon        # a playout move's chance of being uniform instead
    cdef readonly int continuations     # the other player's choices at a leaf (1: none)
    cdef double chosen[MAX_CONTINUATIONS]   # ... their average strategies there, summed
    cdef bint unvalued                  # a leaf the given values did not know
    cdef readonly bint linear           # regrets and averages weighted by the iteration
                                        # (Linear CFR)
    cdef double deadline                # the run's limits, checked inside an iteration too
    cdef long long node_limit
    cdef bint aborted                   # an iteration stopped or out of memory
    cdef bint out_of_memory
    cdef double* values                 # the walk's stack: per walked decision,
    cdef int* stacked_moves             # its moves, current strategy and child values
    cdef long long stack_size, stack_top
    cdef readonly int history_plies     # plies from the root to the current position
    cdef u64 root_hash                  # the root position's hash: continue_at's same game
    cdef u64 rng
    cdef u64* keys                      # the root player's keys along the real history
    cdef int key_count
    cdef u64 root_set                   # the table key of the current information set
    cdef InfoSet* table
    cdef long long table_size
    cdef readonly long long infoset_count
    cdef long long max_infosets
    cdef Slot* slots
    cdef long long slot_count, slot_capacity
    cdef int* moves
    cdef long long buffer_size
    cdef readonly long long simulations
    cdef readonly long long made
    cdef readonly long long reached     # walks of the current information set
    cdef readonly int max_depth
    cdef StopFlag stop

    def __cinit__(self):
        self.stop = StopFlag()
        self.keys = NULL
        self.table = NULL
        self.slots = NULL
        self.moves = NULL
        self.values = NULL
        self.stacked_moves = NULL

    def __init__(self, GameKernel kernel, int root_player, unsigned long long seed=0,
                 long long max_infosets=2_000_000, double tremble=0.0, bint linear=True,
                 int horizon=0, PlayoutPolicy policy=None, LeafValues leaves=None,
                 double epsilon=0.0, int continuations=1, bint public=False):
        if root_player not in (0, 1):
            raise ValueError(f"root player must be 0 or 1, got {root_player}")
        if not 0.0 <= tremble < 1.0:
            raise ValueError(f"tremble is a share in [0, 1), got {tremble}")
        if horizon < 0 or (horizon and policy is None and leaves is None):
            raise ValueError(f"a horizon needs a playout policy or leaf values and is at "
                             f"least 0; got {horizon}")
        if policy is not None:
            policy.check(kernel)
        self.policy = policy
        self.leaves = leaves
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"epsilon is a share in [0, 1], got {epsilon}")
        self.epsilon = epsilon
        if not 1 <= continuations <= MAX_CONTINUATIONS or (continuations > 1 and (
                not horizon or policy is None or leaves is not None)):
            raise ValueError(f"continuations is 1..{MAX_CONTINUATIONS}, more than 1 only with "
                             f"a horizon and playouts; got {continuations}")
        self.continuations = continuations
        for k in range(MAX_CONTINUATIONS):
            self.chosen[k] = 0.0
        self.horizon = horizon
        self.kernel = kernel
        self.root_player = root_player
        self.tremble = tremble
        self.linear = linear
        self.rng = seed
        self.max_infosets = max_infosets
        self.history_plies = kernel.plies()
        self.key_count = 0
        self.keys = <u64*>malloc((self.history_plies + KEY_ROOM) * sizeof(u64))
        if self.keys == NULL:
            raise MemoryError()
        self.record_keys()
        self.root_hash = kernel.hash_key()
        self.probe_root(seed)
        self.root_set = set_key(self.keys[self.key_count - 1], root_player)
        self.check_public(public)
        self.table_size = 4096
        self.slot_capacity = 16384
        self.buffer_size = 256
        self.table = <InfoSet*>malloc(self.table_size * sizeof(InfoSet))
        self.slots = <Slot*>malloc(self.slot_capacity * sizeof(Slot))
        self.moves = <int*>malloc(self.buffer_size * sizeof(int))
        self.stack_size = 1024
        self.stack_top = 0
        self.values = <double*>malloc(self.stack_size * sizeof(double))
        self.stacked_moves = <int*>malloc(self.stack_size * sizeof(int))
        if not (self.table and self.slots and self.moves and self.values and
                self.stacked_moves):
            raise MemoryError()
        for i in range(self.table_size):
            self.table[i].key = 0

    def __dealloc__(self):
        free(self.keys)
        free(self.table)
        free(self.slots)
        free(self.moves)
        free(self.values)
        free(self.stacked_moves)

    @staticmethod
    def bytes_per_infoset():
        """An information set, its share of the table and a few moves."""
        return 2 * sizeof(InfoSet) + 3 * sizeof(Slot)

    def set_stop(self, StopFlag flag=None):
        self.stop = StopFlag() if flag is None else flag

    def continue_at(self, GameKernel kernel, unsigned long long seed):
        """Go on searching the same game at the root player's later decision ``kernel``
        (a clone the caller gives up), the table kept: its regrets and averages are of the
        whole game, so what earlier decisions learnt of the rest of it is not thrown away.
        False (nothing changed) unless ``kernel``'s history starts at the same root and the
        player's information state there extends the one searched until now (its keys along
        the history begin with the old ones). A root that hides something is compared as it
        really is (its hash before any redraw), and a bare view's keys rebuilt by
        ``probe_root`` are never such a beginning."""
        cdef u64* old_keys = self.keys
        cdef int old_count = self.key_count, old_plies = self.history_plies, i
        cdef GameKernel old_kernel = self.kernel
        if kernel.plies() < old_plies:
            return False
        self.keys = <u64*>malloc((kernel.plies() + KEY_ROOM) * sizeof(u64))
        if self.keys == NULL:
            self.keys = old_keys
            raise MemoryError()
        self.kernel = kernel
        self.history_plies = kernel.plies()
        self.key_count = 0
        self.record_keys()
        extends = kernel.hash_key() == self.root_hash and self.key_count >= old_count
        for i in range(old_count if extends else 0):
            if self.keys[i] != old_keys[i]:
                extends = False
                break
        if not extends:
            free(self.keys)
            self.keys, self.key_count = old_keys, old_count
            self.kernel, self.history_plies = old_kernel, old_plies
            return False
        free(old_keys)
        self.root_set = set_key(self.keys[self.key_count - 1], self.root_player)
        self.rng = seed
        return True

    cdef void add_key(self, u64 key) noexcept:
        if self.key_count == 0 or self.keys[self.key_count - 1] != key:
            self.keys[self.key_count] = key
            self.key_count += 1

    cdef void record_keys(self):
        """The root player's keys along the history, oldest first (a key repeated by plies
        they do not see kept once); the kernel is left at the root."""
        cdef int n = self.history_plies, i
        cdef u64* keys = <u64*>malloc((n + 1) * sizeof(u64))
        if keys == NULL:
            raise MemoryError()
        for i in range(n, -1, -1):
            keys[i] = self.kernel.information_set_key(self.root_player)
            if i:
                self.kernel.unmake()
        for i in range(n + 1):
            self.add_key(keys[i])
        free(keys)

    cdef void probe_root(self, u64 seed):
        """Whether the root hides anything to redraw (``determinize`` works), and that the
        root player's record still starts the keys after a redraw. A bare view at another
        player's secret choice takes that choice back: the keys then are the record along
        one way through the choices they wait on (all look the same to the root player)."""
        cdef u64 probe = seed
        cdef int moves[PROBE_MOVES]
        cdef long long n
        cdef GameKernel twin = <GameKernel>self.kernel.clone()
        self.determinizes = twin.determinize(self.root_player, &probe) == 0
        if not self.determinizes or \
                twin.information_set_key(self.root_player) == self.keys[0]:
            return
        if self.history_plies:
            raise ValueError("the history starts at another player's secret choice: search "
                             "from the position alone")
        self.key_count = 0
        self.add_key(twin.information_set_key(self.root_player))
        while twin.player() >= 0 and twin.player() != self.root_player:
            n = twin.moves(moves, PROBE_MOVES)      # written only if all of them fit
            if n < 1 or n > PROBE_MOVES:
                break
            twin.make(moves[0])
            if self.key_count == KEY_ROOM - 1:
                break
            self.add_key(twin.information_set_key(self.root_player))
        if twin.player() != self.root_player:
            raise ValueError("the root player's decision is not reached from this view")

    cdef void check_public(self, bint public):
        """``public`` needs a position that hides something from each player."""
        cdef u64 probe = self.rng ^ 0x5851F42D4C957F2DULL
        cdef GameKernel twin
        if public:
            twin = <GameKernel>self.kernel.clone()
            if not self.determinizes or twin.determinize(1 - self.root_player, &probe) != 0:
                raise ValueError("public needs a position that hides something from both "
                                 "players")
        self.public = public

    # -- the table of information sets -------------------------------------------------------

    cdef long long load_moves(self) noexcept nogil:
        """The legal moves (or chance outcomes) into ``moves``; -1 if out of memory."""
        cdef long long n = self.kernel.moves(self.moves, self.buffer_size)
        cdef int* grown
        if n > self.buffer_size:
            grown = <int*>realloc(self.moves, 2 * n * sizeof(int))
            if grown == NULL:
                return -1
            self.moves = grown
            self.buffer_size = 2 * n
            self.kernel.moves(self.moves, n)
        return n

    cdef long long slot_of(self, u64 key) noexcept nogil:
        cdef long long i = <long long>(key & <u64>(self.table_size - 1))
        while self.table[i].key != 0 and self.table[i].key != key:
            i = (i + 1) & (self.table_size - 1)
        return i

    cdef bint grow_table(self) noexcept nogil:
        cdef long long size = 2 * self.table_size, i, j
        cdef InfoSet* old = self.table
        cdef InfoSet* grown = <InfoSet*>malloc(size * sizeof(InfoSet))
        if grown == NULL:
            return False
        for i in range(size):
            grown[i].key = 0
        self.table = grown
        self.table_size, size = size, self.table_size
        for i in range(size):
            if old[i].key != 0:
                j = self.slot_of(old[i].key)
                self.table[j] = old[i]
        free(old)
        return True

    cdef long long create(self, u64 key, long long n) noexcept nogil:
        """A new table entry for ``key`` with the ``n`` moves loaded; UNTRACKED if the table
        is full or memory runs out."""
        cdef long long i, k
        cdef Slot* grown
        if self.infoset_count >= self.max_infosets:
            return UNTRACKED
        if 2 * (self.infoset_count + 1) > self.table_size and not self.grow_table():
            return UNTRACKED
        if self.slot_count + n > self.slot_capacity:
            grown = <Slot*>realloc(self.slots, 2 * (self.slot_count + n) * sizeof(Slot))
            if grown == NULL:
                return UNTRACKED
            self.slots = grown
            self.slot_capacity = 2 * (self.slot_count + n)
        i = self.slot_of(key)
        self.table[i].key = key
        self.table[i].first = <int>self.slot_count
        self.table[i].count = <int>n
        for k in range(n):
            self.slots[self.slot_count + k].move = self.moves[k]
            self.slots[self.slot_count + k].regret = 0.0
            self.slots[self.slot_count + k].average = 0.0
            self.slots[self.slot_count + k].value = 0.0
            self.slots[self.slot_count + k].visits = 0
        self.slot_count += n
        self.infoset_count += 1
        return i

    cdef void current_strategy(self, Slot* s, long long n, double* out) noexcept nogil:
        """Regret matching over the slots ``s``: in proportion to the positive regrets
        (uniform if none is); uniform for an untracked set (NULL)."""
        cdef double total = 0.0, r
        cdef long long k
        if s == NULL:
            for k in range(n):
                out[k] = 1.0 / n
            return
        for k in range(n):
            r = s[k].regret
            out[k] = r if r > 0 else 0.0
            total += out[k]
        for k in range(n):
            out[k] = out[k] / total if total > 0 else 1.0 / n
            out[k] = (1.0 - self.tremble) * out[k] + self.tremble / n

    # -- running -----------------------------------------------------------------------------

    def run(self, long long simulations, double deadline=0.0, long long node_limit=0):
        """Run up to ``simulations`` more iterations, stopping early at the monotonic
        ``deadline``, at ``node_limit`` positions entered or when the stop flag is set;
        return how many were completed (an iteration cut short by a limit is not counted).
        The stop flag and the deadline are checked before the first iteration too: a
        root-parallel worker's share of a chunk may be no more than ``CHECK_EVERY``
        iterations (64 workers, 1,024 iterations), and a stop set before it starts must
        still end it with fewer than asked, or the engine's chunks never end (issue 46).
        MemoryError if memory runs out, LookupError if the leaf values lack one."""
        cdef long long done = 0
        cdef bint ok = True
        self.deadline = deadline
        self.node_limit = node_limit
        self.unvalued = False
        with nogil:
            while done < simulations:
                if node_limit > 0 and self.made >= node_limit and done:
                    break
                if done % CHECK_EVERY == 0 and (self.limit_reached() if done
                                                else self.stopped_or_late()):
                    break
                ok = self.iterate(<int>(self.simulations & 1))
                if self.aborted or not ok:
                    break
                done += 1
                self.simulations += 1
        if self.unvalued:
            raise LookupError("the leaf values know no value for a position at the horizon")
        if not ok:
            raise MemoryError()
        return done

    cdef inline bint stopped_or_late(self) noexcept nogil:
        return self.stop.word[0] or (self.deadline > 0 and now() > self.deadline)

    cdef inline bint limit_reached(self) noexcept nogil:
        return self.stopped_or_late() or (
            self.node_limit > 0 and self.made >= self.node_limit)

    cdef bint iterate(self, int update) noexcept nogil:
        """One iteration from the root for ``update``; False if out of memory (``aborted``
        is set too when a limit cut it short)."""
        cdef int base = self.kernel.plies()
        self.aborted = False
        self.out_of_memory = False
        if self.determinizes and self.policy is not None:
            self.policy.determinize(self.kernel, self.root_player, &self.rng)
        elif self.determinizes:
            self.kernel.determinize(self.root_player, &self.rng)
        if self.public and (update != self.root_player or random_unit(&self.rng) < 0.5):
            self.kernel.determinize(1 - self.root_player, &self.rng)
        self.walk(update, 0, 0)
        self.stack_top = 0
        return self.unwind(base, not self.out_of_memory)

    cdef bint reserve(self, long long n) noexcept nogil:
        """Room for ``n`` more entries on the walk's stack."""
        cdef long long size = self.stack_size
        cdef double* v
        cdef int* m
        while self.stack_top + n > size:
            size *= 2
        if size == self.stack_size:
            return True
        v = <double*>realloc(self.values, size * sizeof(double))
        if v == NULL:
            return False
        self.values = v
        m = <int*>realloc(self.stacked_moves, size * sizeof(int))
        if m == NULL:
            return False
        self.stacked_moves = m
        self.stack_size = size
        return True

    cdef long long push(self, long long n) noexcept nogil:
        """Room on the walk's stack for a decision of ``n`` moves (their strategy, then
        their values); its first index, or -1 (``aborted``: no moves, or out of memory)."""
        cdef long long top = self.stack_top
        if n <= 0 or not self.reserve(2 * n):
            self.aborted = self.out_of_memory = True
            return -1
        self.stack_top += 2 * n
        return top

    cdef inline double weight(self) noexcept nogil:
        """An iteration's weight in the regrets and averages: its number with ``linear``
        (Linear CFR, Brown and Sandholm 2019: early, poor strategies fade), else 1."""
        return <double>(self.simulations + 1) if self.linear else 1.0

    cdef double walk(self, int update, int depth, int turns) noexcept nogil:
        """The sampled counterfactual value for ``update`` (in -1..1) of the subtree here:
        every move of ``update``'s decisions walked and its regret updated, one move of the
        other player's (by its current strategy, which its average takes) and one chance
        outcome drawn; ``turns`` decisions below the root player's first decision (those
        before it, the other player's secret choice a redraw took back, not counted): at the
        ``horizon``, one playout's result instead. Stack entries ``top .. top+n-1`` hold a decision's moves and current
        strategy, ``top+n .. top+2n-1`` its children's values (indices, since the stack may
        move when it grows)."""
        cdef int player = self.kernel.player()
        cdef long long n, k, top, first = UNTRACKED
        cdef double value, node, r
        cdef u64 key
        cdef Slot* s
        if self.aborted:
            return 0.0
        if player == -2:
            if depth > self.max_depth:
                self.max_depth = depth
            r = self.kernel.terminal_value()
            return r if update == 0 else -r
        if (self.made & CHECK_MADE) == 0 and self.made and self.limit_reached():
            self.aborted = True
            return 0.0
        if player == -1:
            k = self.kernel.sample_outcome(&self.rng)
            if k < 0:
                self.aborted = self.out_of_memory = True
                return 0.0
            self.kernel.make(<int>k)
            self.made += 1
            value = self.walk(update, depth + 1, turns)
            self.kernel.unmake()
            return value
        if self.horizon and turns >= self.horizon:
            if self.continuations > 1:
                return self.leaf_choice(update)
            r = (self.leaves.value(self.kernel) if self.leaves is not None
                 else self.playout(self.epsilon))
            if r != r:
                self.aborted = self.out_of_memory = True
                self.unvalued = self.leaves is not None
                return 0.0
            return r if update == 0 else -r
        key = set_key(self.kernel.information_set_key(player), player)
        top = self.open_decision(key, 0, &n, &first)
        if top < 0:
            return 0.0
        if turns or player == self.root_player:
            turns += 1                      # the horizon counts from the root player's decision
        if player != update:
            k = self.sample_decision(first, top, n)
            self.kernel.make(self.stacked_moves[top + k])
            self.made += 1
            value = self.walk(update, depth + 1, turns)
            self.kernel.unmake()
            self.stack_top = top
            return value
        node = 0.0
        for k in range(n):
            self.kernel.make(self.stacked_moves[top + k])
            self.made += 1
            value = self.walk(update, depth + 1, turns)
            self.kernel.unmake()
            if self.aborted:
                self.stack_top = top
                return 0.0
            self.values[top + n + k] = value
            node += self.values[top + k] * value
        self.add_regrets(first, top, n, node)
        if first != UNTRACKED and key == self.root_set:
            s = &self.slots[first]          # the slots may have moved while walking
            if self.public:                 # the real hand is kept only when updating it
                r = self.weight()
                for k in range(n):
                    s[k].average += r * self.values[top + k]
            self.reached += 1
            for k in range(n):
                s[k].visits += 1
                s[k].value += (1.0 + self.values[top + n + k]) / 2
        self.stack_top = top
        return node

    cdef double leaf_choice(self, int update) noexcept nogil:
        """A leaf as the other player's decision among ``continuations`` playouts, the k-th
        with their moves uniform with probability ``epsilon + (1 - epsilon) k / (N - 1)``
        (the root player's with ``epsilon``), keyed by their information set here: walked
        as any decision (all of them for the updated player, one drawn otherwise)."""
        cdef int chooser = 1 - self.root_player, k
        cdef long long n, top, first = UNTRACKED
        cdef u64 key = set_key(self.kernel.information_set_key(chooser) ^ LEAF_SALT, chooser)
        cdef double node = 0.0, value, r
        top = self.open_decision(key, self.continuations, &n, &first)
        if top < 0:
            return 0.0
        if update != chooser:
            if first != UNTRACKED:
                r = self.weight()
                for k in range(n):
                    self.chosen[k] += r * self.values[top + k]
            k = <int>self.sample_decision(first, top, n)
            self.stack_top = top
            return self.continuation(k, update)
        for k in range(n):
            value = self.continuation(k, update)
            if self.aborted:
                self.stack_top = top
                return 0.0
            self.values[top + n + k] = value
            node += self.values[top + k] * value
        self.add_regrets(first, top, n, node)
        self.stack_top = top
        return node

    cdef long long open_decision(self, u64 key, int choices, long long* n,
                                 long long* first) noexcept nogil:
        """A decision's set-up (``walk``'s and ``leaf_choice``'s): the information set of
        ``key`` found, or created with ``choices`` moves numbered from 0 (0: the legal moves
        here); its moves and current strategy pushed on the walk's stack. Returns the stack
        index (-1: aborted) and sets ``n`` to the number of moves and ``first`` to the first
        slot (UNTRACKED: the table is full and the set is not kept)."""
        cdef long long index = self.slot_of(key), k, top
        cdef Slot* s = NULL
        if self.table[index].key == key:
            n[0] = self.table[index].count
        else:
            if choices:
                n[0] = choices
                for k in range(choices):
                    self.moves[k] = <int>k
            else:
                n[0] = self.load_moves()
            index = self.create(key, n[0]) if n[0] > 0 else UNTRACKED
        top = self.push(n[0])
        if top < 0:
            return -1
        first[0] = UNTRACKED
        if index != UNTRACKED:
            first[0] = self.table[index].first
            s = &self.slots[first[0]]
            for k in range(n[0]):
                self.stacked_moves[top + k] = s[k].move
        else:
            for k in range(n[0]):
                self.stacked_moves[top + k] = self.moves[k]
        self.current_strategy(s, n[0], &self.values[top])
        return top

    cdef long long sample_decision(self, long long first, long long top,
                                   long long n) noexcept nogil:
        """A move of a decision not being updated, drawn by its current strategy (on the
        stack at ``top``), which its average strategy takes: the move's index."""
        cdef Slot* s
        cdef double r
        cdef long long k
        if first != UNTRACKED:
            s = &self.slots[first]
            r = self.weight()
            for k in range(n):
                s[k].average += r * self.values[top + k]
        return random_index(&self.values[top], n, &self.rng)

    cdef void add_regrets(self, long long first, long long top, long long n,
                          double node) noexcept nogil:
        """The updated decision's regrets: each move's value (on the stack after its
        strategy) less the decision's ``node`` value, weighted."""
        cdef Slot* s
        cdef double r
        cdef long long k
        if first == UNTRACKED:
            return
        s = &self.slots[first]              # the slots may have moved while walking
        r = self.weight()
        for k in range(n):
            s[k].regret += r * (self.values[top + n + k] - node)

    cdef double continuation(self, int k, int update) noexcept nogil:
        """The k-th continuation's playout, for ``update`` (in -1..1)."""
        cdef double value = self.playout(
            self.epsilon + (1.0 - self.epsilon) * k / (self.continuations - 1),
            1 - self.root_player)
        if value != value:
            self.aborted = self.out_of_memory = True
            return 0.0
        return value if update == 0 else -value

    cdef double playout(self, double chooser_epsilon, int chooser=-1) noexcept nogil:
        """Player 0's result of one game played out from here by the playout policy's moves
        (uniform where it has none; each uniform with probability ``epsilon``, or
        ``chooser_epsilon`` for ``chooser``'s), the position restored; NaN if out of
        memory."""
        cdef int base = self.kernel.plies(), player, move
        cdef long long n
        cdef double result = 0.0, epsilon
        while self.kernel.plies() - base < MAX_PLIES - 1:
            player = self.kernel.player()
            if player == -2:
                result = self.kernel.terminal_value()
                break
            if player == -1:
                move = self.kernel.sample_outcome(&self.rng)
            else:
                move = -1
                epsilon = chooser_epsilon if player == chooser else self.epsilon
                if epsilon == 0 or random_unit(&self.rng) >= epsilon:
                    move = self.policy.playout_move(self.kernel, &self.rng)
                if move < 0:
                    n = self.load_moves()
                    move = self.moves[random_below(&self.rng, n)] if n > 0 else -1
            if move < 0:
                result = 0.0 / 0.0
                break
            self.kernel.make(move)
            self.made += 1
        self.unwind(base, True)
        return result

    cdef bint unwind(self, int base, bint ok) noexcept nogil:
        while self.kernel.plies() > base:
            self.kernel.unmake()
        return ok

    # -- what the search found -------------------------------------------------------------

    def root_slots(self):
        """``(move, average-strategy sum, regret, value sum, visits)`` per move of the root
        player's current information set (empty if no iteration reached it)."""
        cdef long long i = self.slot_of(self.root_set), k
        cdef Slot* s
        if self.table[i].key != self.root_set:
            return []
        s = &self.slots[self.table[i].first]
        return [(s[k].move, s[k].average, s[k].regret, s[k].value, s[k].visits)
                for k in range(self.table[i].count)]

    def average_strategy(self, u64 information_key, int player):
        """``{move: probability}`` of the average strategy at ``player``'s information set
        of that key (its kernel ``information_set_key``), None if no iteration met it: the
        whole game's strategy."""
        return normalised(self.average_sums(information_key, player))

    def average_sums(self, u64 information_key, int player):
        """``{move: cumulative average-strategy weight}`` there (None: never met), the sums
        that root-parallel workers add up (search/regret_workers.py)."""
        cdef u64 key = set_key(information_key, player)
        cdef long long i = self.slot_of(key), k
        cdef Slot* s
        if self.table[i].key != key:
            return None
        s = &self.slots[self.table[i].first]
        return {s[k].move: s[k].average for k in range(self.table[i].count)}

    def continuation_shares(self):
        """How the other player chose among the continuations at the leaves, over every
        leaf and iteration: the shares of their summed average strategies (the first is
        the playout policy's own)."""
        total = sum(self.chosen[k] for k in range(self.continuations))
        return [self.chosen[k] / total if total > 0 else 1.0 / self.continuations
                for k in range(self.continuations)]

    def reset_counters(self):
        self.simulations = 0
        self.made = 0
        self.reached = 0
        self.max_depth = 0


def normalised(sums):
    """Average-strategy sums as probabilities (uniform where nothing was added), or None."""
    if sums is None:
        return None
    total = sum(sums.values())
    return {move: (weight / total if total > 0 else 1.0 / len(sums))
            for move, weight in sums.items()}
