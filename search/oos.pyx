# cython: language_level=3
"""Online Outcome Sampling (Lisy, Lanctot, Bowling 2015, "Online Monte Carlo Counterfactual
Regret Minimization for Search in Imperfect Information Games") over any GameKernel.

Outcome-sampling MCCFR (Lanctot et al. 2009) run from the root of the kernel's history (the
deal, for a game record) rather than from the current position, so the strategies it
averages are those of the whole game and converge to an equilibrium, which ISMCTS's do not.
Each iteration samples one history to its end and updates one player's regrets (the players
alternate): at that player's decisions a move is drawn by the current strategy (regret
matching) mixed with ``epsilon`` uniform, elsewhere by the current strategy, chance by its
probabilities. Regrets and average strategies live in one open-addressed hash table of
information sets keyed by the kernel's ``information_set_key`` (perfect recall by
construction, and draws that differ only in their order merged, engine/kernel.pxd), so the
search reads nothing a player cannot see and learns once what means the same.

Targeting: with probability ``targeting`` an iteration samples only histories consistent with
the root player's current information state, which the kernel's history gives as a
sequence of keys (the player's key after every ply of the real history): at each chance node
and decision on the way, the moves whose child keeps the player's key on that sequence,
drawn in proportion to the chance probabilities, or at a decision to the strategy mixed with
``epsilon`` uniform (for every player: another's secret choice must match what is revealed
of it later, which a pure strategy rarely does); past the current information set, nothing
is restricted. Every update is weighted by the probability of the sampled history
under the mixture of the two schemes (OOS's ``delta q_targeted + (1 - delta) q_untargeted``,
both tracked along the path, chance factored out because it cancels), so the estimates stay
unbiased; a targeted iteration that meets a node with no consistent move updates nothing.

With ``baselines`` the estimates are VR-MCCFR's (Schmid et al. 2019): walking back from the
end, each node's value for the updated player comes from a learnt baseline per move (keyed by
the position, hidden cards and all), the sampled move's corrected by its importance-weighted
difference, so every move's regret learns (``learn_with_baselines``).

With ``external`` the iterations are external-sampling MCCFR's (Lanctot et al. 2009) from
the root instead: the updated player's every move is walked, the other player's and chance's
sampled by their probabilities, so every move's regret gets an unbiased sampled
counterfactual value and no importance weight divides it; the other player's average
strategy takes its current strategy where it is met. With ``linear`` each iteration counts
by its number in the regrets and the averages (Linear CFR). Its variance is far below outcome
sampling's (hidden-3: docs/cardbattle.md), but an iteration walks the updated player's whole
subtree, which only a small game allows: the stop flag, the deadline and the node limit are
checked inside an iteration too, and an interrupted one is not counted. It has no targeting:
what it learns is the whole game's, read at the information set asked. With a ``horizon``
(and a playout ``policy``), a decision that many decisions below the root player's own
decision is not walked: one playout by the game's playout moves to the end gives its value,
so an iteration costs the next few decisions, not the updated player's whole subtree; from a view (below) that is
depth-limited re-solving of the subgame ahead, sound only as far as the redrawn worlds and
the playouts' values are.

Where the kernel's root hides something from the root player (a position given as a bare
view, or a game record that starts from a full position), each iteration first redraws it
with the kernel's ``determinize`` (uniform over what the player's view allows), or with the
playout policy's where external sampling has one (conditioned on what it inferred of the
other player's play, as ISMCTS's ``infer``): the search is then of the game from that view,
as ISMCTS's is. Deterministic for a given seed; time
and the stop flag are checked between iterations.
"""
from libc.stdlib cimport malloc, realloc, free

from crystalpick.engine.evaluation cimport PlayoutPolicy
from crystalpick.engine.kernel cimport GameKernel, u64, MAX_PLIES
from crystalpick.engine.rng cimport random_below, random_index, random_unit
from crystalpick.search.clock cimport now
from crystalpick.search.stop cimport StopFlag

cdef enum:
    CHECK_EVERY = 16
    CHECK_MADE = 4095       # external sampling: checks the limits once per 4,096 positions
    CHANCE_STEP = -1        # a chance node on the target, kept for the baselines' estimates
    TARGET_ROOM = 64        # keys a bare view's target may take before the root player decides
    UNTRACKED = -1          # a decision whose information set the full table could not take
    PROBE_MOVES = 1024      # moves a bare view's probe lists at a decision it walks through

DEF BASELINE_RATE = 0.1     # the baselines' exponentially decaying average of sampled values


cdef struct InfoSet:        # one information set: its moves are slots first .. first+count-1
    u64 key                 # 0: an empty table entry
    int first
    int count

cdef struct Slot:           # one move of an information set
    int move
    double regret           # cumulative counterfactual regret
    double average          # cumulative reach-weighted strategy: the average strategy
    double value            # sum of the mover's results in [0, 1] over the samples playing it
    long long visits
    double baseline         # VR-MCCFR: the learnt value of the move, the first player's view

cdef struct Step:           # one decision of the current iteration's history
    int first               # its information set's first slot (UNTRACKED: none)
    int baseline_first      # the first slot of its position's baselines (UNTRACKED: none)
    int count
    bint root               # the root player's current information set
    int player
    int chosen              # index of the sampled move among the set's slots
    double sigma            # the current strategy's probability of it
    double other_reach      # the other players' strategy reach (no chance) at this node
    double before           # the sampling probability (no chance) of reaching the node
    double after            # ... and of its child: their ratio is the move's, given the node


cdef inline u64 set_key(u64 information, int player) noexcept nogil:
    cdef u64 z = information ^ ((<u64>(player + 2)) * 0x9E3779B97F4A7C15ULL)
    z = (z ^ (z >> 31)) * 0xBF58476D1CE4E5B9ULL
    z = z ^ (z >> 29)
    return z if z else 1


cdef class OOS:
    """The search for ``root_player`` of the kernel's current position; the kernel (a clone
    the caller gives up) is unwound to the root of its history."""
    cdef GameKernel kernel
    cdef readonly int root_player
    cdef readonly double targeting
    cdef readonly double epsilon
    cdef readonly double tremble        # every current strategy's uniform share
    cdef readonly bint baselines        # VR-MCCFR's control variates in the estimates
    cdef readonly bint determinizes     # each iteration redraws what the root hides
    cdef readonly bint external         # external sampling instead of outcome sampling
    cdef readonly int horizon           # external: decisions walked before a playout
    cdef PlayoutPolicy policy           # ... by the game's playout moves estimates the rest
                                        # (and its determinize redraws a view's hidden part)
    cdef readonly bint linear           # external: regrets and averages weighted by the
                                        # iteration (Linear CFR)
    cdef double deadline                # run's limits, which external sampling checks
    cdef long long node_limit           # inside an iteration
    cdef bint aborted                   # an external iteration stopped or out of memory
    cdef bint out_of_memory
    cdef double* values                 # external sampling's stack: per walked decision,
    cdef int* stacked_moves             # its moves, current strategy and child values
    cdef long long stack_size, stack_top
    cdef readonly int history_plies     # plies from the root to the current position
    cdef u64 root_hash                  # the root position's hash: retarget's same game
    cdef u64 rng
    cdef u64* target                    # the root player's keys along the real history
    cdef int target_length
    cdef u64 root_set                   # the table key of the current information set
    cdef InfoSet* table
    cdef long long table_size
    cdef readonly long long infoset_count
    cdef readonly long long baseline_count  # positions with baselines (in the same table)
    cdef long long max_infosets
    cdef Slot* slots
    cdef long long slot_count, slot_capacity
    cdef Step* steps
    cdef int step_capacity
    cdef int* moves
    cdef double* chances
    cdef double* sampling
    cdef double* restricted
    cdef long long buffer_size
    cdef readonly long long simulations
    cdef readonly long long made
    cdef readonly long long rejected    # targeted iterations that met no consistent move
    cdef readonly long long reached     # iterations through the current information set
    cdef readonly int max_depth
    cdef StopFlag stop

    def __cinit__(self):
        self.stop = StopFlag()
        self.target = NULL
        self.table = NULL
        self.slots = NULL
        self.steps = NULL
        self.moves = NULL
        self.chances = NULL
        self.sampling = NULL
        self.restricted = NULL
        self.values = NULL
        self.stacked_moves = NULL

    def __init__(self, GameKernel kernel, int root_player, double targeting=0.9,
                 double epsilon=0.6, unsigned long long seed=0, long long max_infosets=2_000_000,
                 bint baselines=False, double tremble=0.0, bint external=False,
                 bint linear=False, int horizon=0, PlayoutPolicy policy=None):
        if root_player not in (0, 1):
            raise ValueError(f"root player must be 0 or 1, got {root_player}")
        if external and (targeting > 0 or baselines):
            raise ValueError("external sampling takes no targeting and no baselines")
        if not (0.0 <= targeting <= 1.0 and 0.0 < epsilon <= 1.0 and 0.0 <= tremble < 1.0):
            raise ValueError(f"targeting is a share in 0..1, epsilon in (0, 1] and tremble "
                             f"in [0, 1), got {targeting}, {epsilon}, {tremble}")
        if horizon < 0 or (horizon and not (external and policy is not None)):
            raise ValueError("a horizon is external sampling's, with a playout policy, "
                             f"and at least 0; got {horizon}")
        if policy is not None and not external:
            raise ValueError("a playout policy is external sampling's")
        if policy is not None:
            policy.check(kernel)
        self.policy = policy
        self.horizon = horizon
        self.kernel = kernel
        self.root_player = root_player
        self.targeting = targeting
        self.epsilon = epsilon
        self.tremble = tremble
        self.baselines = baselines
        self.external = external
        self.linear = linear
        self.rng = seed
        self.max_infosets = max_infosets
        self.history_plies = kernel.plies()
        self.target_length = 0
        self.target = <u64*>malloc((self.history_plies + TARGET_ROOM) * sizeof(u64))
        if self.target == NULL:
            raise MemoryError()
        self.record_target()
        self.root_hash = kernel.hash_key()
        self.probe_root(seed)
        self.root_set = set_key(self.target[self.target_length - 1], root_player)
        self.table_size = 4096
        self.slot_capacity = 16384
        self.step_capacity = 256
        self.buffer_size = 256
        self.table = <InfoSet*>malloc(self.table_size * sizeof(InfoSet))
        self.slots = <Slot*>malloc(self.slot_capacity * sizeof(Slot))
        self.steps = <Step*>malloc(self.step_capacity * sizeof(Step))
        self.stack_size = 1024
        self.stack_top = 0
        self.values = <double*>malloc(self.stack_size * sizeof(double))
        self.stacked_moves = <int*>malloc(self.stack_size * sizeof(int))
        if not (self.table and self.slots and self.steps and self.values and
                self.stacked_moves and self.grow_buffers(256)):
            raise MemoryError()
        for i in range(self.table_size):
            self.table[i].key = 0

    def __dealloc__(self):
        free(self.target)
        free(self.table)
        free(self.slots)
        free(self.steps)
        free(self.moves)
        free(self.chances)
        free(self.sampling)
        free(self.restricted)
        free(self.values)
        free(self.stacked_moves)

    @staticmethod
    def bytes_per_infoset():
        """An information set, its share of the table and a few moves."""
        return 2 * sizeof(InfoSet) + 3 * sizeof(Slot)

    def set_stop(self, StopFlag flag=None):
        self.stop = StopFlag() if flag is None else flag

    def retarget(self, GameKernel kernel, unsigned long long seed):
        """Go on searching the same game at the root player's later decision ``kernel``
        (a clone the caller gives up), the table kept: the paper's one search per game,
        whose regrets and averages are of the whole game, so what earlier decisions learnt
        of the rest of it is not thrown away. False (nothing changed) unless ``kernel``'s
        history starts at the same root and the player's information state there extends
        the one searched until now (its keys along the history begin with the target's). A
        root that hides something is compared as it really is (its hash before any redraw),
        and a bare view's target rebuilt by ``probe_root`` is never such a beginning."""
        cdef u64* old_target = self.target
        cdef int old_length = self.target_length, old_plies = self.history_plies, i
        cdef GameKernel old_kernel = self.kernel
        if kernel.plies() < old_plies:
            return False
        self.target = <u64*>malloc((kernel.plies() + TARGET_ROOM) * sizeof(u64))
        if self.target == NULL:
            self.target = old_target
            raise MemoryError()
        self.kernel = kernel
        self.history_plies = kernel.plies()
        self.target_length = 0
        self.record_target()
        extends = kernel.hash_key() == self.root_hash and self.target_length >= old_length
        for i in range(old_length if extends else 0):
            if self.target[i] != old_target[i]:
                extends = False
                break
        if not extends:
            free(self.target)
            self.target, self.target_length = old_target, old_length
            self.kernel, self.history_plies = old_kernel, old_plies
            return False
        free(old_target)
        self.root_set = set_key(self.target[self.target_length - 1], self.root_player)
        self.rng = seed
        return True

    cdef void add_target(self, u64 key) noexcept:
        if self.target_length == 0 or self.target[self.target_length - 1] != key:
            self.target[self.target_length] = key
            self.target_length += 1

    cdef void record_target(self):
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
            self.add_target(keys[i])
        free(keys)

    cdef void probe_root(self, u64 seed):
        """Whether the root hides anything to redraw (``determinize`` works), and that the
        root player's record still starts the target after a redraw. A bare view at another
        player's secret choice takes that choice back: the target then is the record along
        one way through the choices they wait on (all look the same to the root player)."""
        cdef u64 probe = seed
        cdef int moves[PROBE_MOVES]
        cdef long long n
        cdef GameKernel twin = <GameKernel>self.kernel.clone()
        self.determinizes = twin.determinize(self.root_player, &probe) == 0
        if not self.determinizes or \
                twin.information_set_key(self.root_player) == self.target[0]:
            return
        if self.history_plies:
            raise ValueError("the history starts at another player's secret choice: search "
                             "from the position alone")
        self.target_length = 0
        self.add_target(twin.information_set_key(self.root_player))
        while twin.player() >= 0 and twin.player() != self.root_player:
            n = twin.moves(moves, PROBE_MOVES)      # written only if all of them fit
            if n < 1 or n > PROBE_MOVES:
                break
            twin.make(moves[0])
            if self.target_length == TARGET_ROOM - 1:
                break
            self.add_target(twin.information_set_key(self.root_player))
        if twin.player() != self.root_player:
            raise ValueError("the root player's decision is not reached from this view")

    # -- the table of information sets -------------------------------------------------------

    cdef bint grow_buffers(self, long long n) noexcept nogil:
        cdef int* m = <int*>realloc(self.moves, n * sizeof(int))
        if m == NULL:
            return False
        self.moves = m
        cdef double* c = <double*>realloc(self.chances, n * sizeof(double))
        if c == NULL:
            return False
        self.chances = c
        c = <double*>realloc(self.sampling, n * sizeof(double))
        if c == NULL:
            return False
        self.sampling = c
        c = <double*>realloc(self.restricted, n * sizeof(double))
        if c == NULL:
            return False
        self.restricted = c
        self.buffer_size = n
        return True

    cdef long long load_moves(self) noexcept nogil:
        """The legal moves (or chance outcomes) into ``moves``; -1 if out of memory."""
        cdef long long n = self.kernel.moves(self.moves, self.buffer_size)
        if n > self.buffer_size:
            if not self.grow_buffers(2 * n):
                return -1
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
            self.slots[self.slot_count + k].baseline = 0.0
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
        return how many ran (outcome sampling: the first always runs; external sampling:
        those completed, an iteration cut short by a limit not counted). MemoryError if
        memory runs out."""
        cdef long long done = 0
        cdef bint ok = True
        self.deadline = deadline
        self.node_limit = node_limit
        with nogil:
            while done < simulations:
                if node_limit > 0 and self.made >= node_limit and done:
                    break
                if done % CHECK_EVERY == 0 and done and self.limit_reached():
                    break
                if self.external:
                    ok = self.iterate_external(<int>(self.simulations & 1))
                    if self.aborted:
                        break
                else:
                    ok = self.iterate(<int>(self.simulations & 1))
                if not ok:
                    break
                done += 1
                self.simulations += 1
        if not ok:
            raise MemoryError()
        return done

    cdef inline bint limit_reached(self) noexcept nogil:
        return self.stop.word[0] or (self.deadline > 0 and now() > self.deadline) or (
            self.node_limit > 0 and self.made >= self.node_limit)

    # -- external sampling -------------------------------------------------------------------

    cdef bint iterate_external(self, int update) noexcept nogil:
        """One external-sampling iteration from the root for ``update``; False if out of
        memory (``aborted`` is set too when a limit cut it short)."""
        cdef int base = self.kernel.plies()
        self.aborted = False
        self.out_of_memory = False
        if self.determinizes and self.policy is not None:
            self.policy.determinize(self.kernel, self.root_player, &self.rng)
        elif self.determinizes:
            self.kernel.determinize(self.root_player, &self.rng)
        self.walk(update, 0, 0)
        self.stack_top = 0
        return self.unwind(base, not self.out_of_memory)

    cdef bint reserve(self, long long n) noexcept nogil:
        """Room for ``n`` more entries on external sampling's stack."""
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
        cdef long long n, k, index, top, first = UNTRACKED
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
            r = self.playout()
            if r != r:
                self.aborted = self.out_of_memory = True
                return 0.0
            return r if update == 0 else -r
        key = set_key(self.kernel.information_set_key(player), player)
        index = self.slot_of(key)
        if self.table[index].key == key:
            n = self.table[index].count
        else:
            n = self.load_moves()
            index = self.create(key, n) if n > 0 else UNTRACKED
        top = self.stack_top
        if n <= 0 or not self.reserve(2 * n):
            self.aborted = self.out_of_memory = True
            return 0.0
        self.stack_top += 2 * n
        if index != UNTRACKED:
            first = self.table[index].first
            s = &self.slots[first]
            for k in range(n):
                self.stacked_moves[top + k] = s[k].move
        else:
            s = NULL
            for k in range(n):
                self.stacked_moves[top + k] = self.moves[k]
        self.current_strategy(s, n, &self.values[top])
        if turns or player == self.root_player:
            turns += 1                      # the horizon counts from the root player's decision
        if player != update:
            if s != NULL:
                r = self.weight()
                for k in range(n):
                    s[k].average += r * self.values[top + k]
            k = random_index(&self.values[top], n, &self.rng)
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
        if first != UNTRACKED:
            s = &self.slots[first]          # the slots may have moved while walking
            r = self.weight()
            for k in range(n):
                s[k].regret += r * (self.values[top + n + k] - node)
            if key == self.root_set:
                self.reached += 1
                for k in range(n):
                    s[k].visits += 1
                    s[k].value += (1.0 + self.values[top + n + k]) / 2
        self.stack_top = top
        return node

    cdef double playout(self) noexcept nogil:
        """Player 0's result of one game played out from here by the playout policy's moves
        (uniform where it has none), the position restored; NaN if out of memory."""
        cdef int base = self.kernel.plies(), player, move
        cdef long long n
        cdef double result = 0.0
        while self.kernel.plies() - base < MAX_PLIES - 1:
            player = self.kernel.player()
            if player == -2:
                result = self.kernel.terminal_value()
                break
            if player == -1:
                move = self.kernel.sample_outcome(&self.rng)
            else:
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

    cdef inline int on_target(self, int position) noexcept nogil:
        """Where the root player's key now stands on the target from ``position``: the same
        (``position``), one further, or -1 (off the target)."""
        cdef u64 key = self.kernel.information_set_key(self.root_player)
        if key == self.target[position]:
            return position
        if position + 1 < self.target_length and key == self.target[position + 1]:
            return position + 1
        return -1

    cdef long long consistent(self, long long n, int position, double* weights) noexcept nogil:
        """Zero the ``weights`` of the moves loaded whose child leaves the target; the
        number kept."""
        cdef long long k, kept = 0
        for k in range(n):
            self.kernel.make(self.moves[k])
            if self.on_target(position) < 0:
                weights[k] = 0.0
            else:
                kept += 1
            self.kernel.unmake()
        return kept

    cdef bint push_step(self, int depth) noexcept nogil:
        cdef Step* grown
        if depth < self.step_capacity:
            return True
        grown = <Step*>realloc(self.steps, 2 * self.step_capacity * sizeof(Step))
        if grown == NULL:
            return False
        self.steps = grown
        self.step_capacity *= 2
        return True

    cdef bint iterate(self, int update) noexcept nogil:
        """One sampled history from the root, updating ``update``'s regrets and average
        strategy; False if out of memory."""
        cdef int base = self.kernel.plies(), depth = 0, player, position = 0, move
        cdef bint targeted = self.targeting > 0 and random_unit(&self.rng) < self.targeting
        # restricting: the path is still on the target and short of the current set
        cdef bint restricting = self.targeting > 0, through = False
        cdef double delta = self.targeting, q_target = 1.0, q_plain = 1.0
        cdef double own_reach = 1.0, other_reach = 1.0, total, kept_mass, prefix, weight
        cdef double result, u, tail, sigma_chosen
        cdef long long n, k, chosen, kept, index
        cdef u64 key
        cdef Slot* s
        cdef Step* step
        if self.determinizes:
            self.kernel.determinize(self.root_player, &self.rng)
        if self.on_target(0) != 0:
            restricting = False
            q_target = 0.0
            if targeted:
                self.rejected += 1
                return self.unwind(base, True)
        while True:
            player = self.kernel.player()
            if player == -2:
                break
            if player == -1:
                if not restricting:
                    move = self.kernel.sample_outcome(&self.rng)
                    if move < 0:
                        return self.unwind(base, False)
                    self.kernel.make(move)
                    self.made += 1
                    continue
                n = self.load_moves()
                if n <= 0 or self.kernel.outcome_probabilities(self.chances, n) != n:
                    return self.unwind(base, False)
                for k in range(n):
                    self.restricted[k] = self.chances[k]
                kept = self.consistent(n, position, self.restricted)
                kept_mass = 0.0
                for k in range(n):
                    kept_mass += self.restricted[k]
                if targeted and kept_mass <= 0:
                    self.rejected += 1
                    return self.unwind(base, True)
                if targeted:
                    for k in range(n):
                        self.restricted[k] /= kept_mass
                    chosen = random_index(self.restricted, n, &self.rng)
                else:
                    chosen = random_index(self.chances, n, &self.rng)
                prefix = delta * q_target + (1.0 - delta) * q_plain
                # chance cancels between the reaches and the sampling probability: only the
                # targeted scheme's renormalisation is left
                if self.restricted[chosen] > 0:
                    q_target /= kept_mass
                else:
                    q_target = 0.0
                    restricting = False
                if not self.push_step(depth):
                    return self.unwind(base, False)
                step = &self.steps[depth]
                step.first = UNTRACKED
                step.player = CHANCE_STEP
                step.root = False
                step.sigma = 1.0
                step.before = prefix
                step.after = delta * q_target + (1.0 - delta) * q_plain
                depth += 1
                self.kernel.make(self.moves[chosen])
                self.made += 1
                if restricting:
                    position = self.on_target(position)
                continue
            # a decision
            if restricting and player == self.root_player and \
                    position == self.target_length - 1 and \
                    self.kernel.information_set_key(player) == self.target[position]:
                restricting = False         # the current information set: free from here
                through = True
            key = set_key(self.kernel.information_set_key(player), player)
            index = self.slot_of(key)
            if self.table[index].key == key:
                n = self.table[index].count
                if n > self.buffer_size and not self.grow_buffers(2 * n):
                    return self.unwind(base, False)
                s = &self.slots[self.table[index].first]
                for k in range(n):
                    self.moves[k] = s[k].move
            else:
                n = self.load_moves()
                if n <= 0:
                    return self.unwind(base, False)
                index = self.create(key, n)
                s = &self.slots[self.table[index].first] if index != UNTRACKED else NULL
            self.current_strategy(s, n, self.chances)       # sigma
            for k in range(n):
                self.sampling[k] = (self.epsilon / n + (1.0 - self.epsilon) * self.chances[k]
                                    if player == update else self.chances[k])
            if restricting:
                # the targeted scheme explores at every player's decisions: another
                # player's secret choice, drawn by their strategy alone, could rarely match
                # what is revealed of it later
                for k in range(n):
                    self.restricted[k] = self.epsilon / n + (1.0 - self.epsilon) * self.chances[k]
                kept = self.consistent(n, position, self.restricted)
                if kept == 0 and targeted:
                    self.rejected += 1
                    return self.unwind(base, True)
                kept_mass = 0.0
                for k in range(n):
                    kept_mass += self.restricted[k]
                if kept_mass <= 0 and kept > 0:     # the kept moves unplayed: uniform
                    for k in range(n):
                        self.restricted[k] = 0.0
                    self.consistent_uniform(n, position)
                    kept_mass = <double>kept
                for k in range(n):
                    self.restricted[k] /= kept_mass if kept_mass > 0 else 1.0
                chosen = random_index(self.restricted if targeted else self.sampling, n,
                                      &self.rng)
            else:
                chosen = random_index(self.sampling, n, &self.rng)
            prefix = delta * q_target + (1.0 - delta) * q_plain
            if player == update and s != NULL and prefix > 0:
                # stochastically weighted averaging: own reach over the sampling probability;
                # at the current information set each update counts alike, since the player's
                # own earlier choices that reached it may be ones its strategy no longer
                # makes, which would freeze the average there (the regrets do not depend on
                # the player's own reach)
                weight = 1.0 if through and not restricting and key == self.root_set \
                    else own_reach / prefix
                for k in range(n):
                    s[k].average += weight * self.chances[k]
            if restricting:
                if self.restricted[chosen] > 0:
                    q_target *= self.restricted[chosen]
                else:
                    q_target = 0.0
                    restricting = False
            else:
                q_target *= self.sampling[chosen]
            q_plain *= self.sampling[chosen]
            if not self.push_step(depth):
                return self.unwind(base, False)
            step = &self.steps[depth]
            step.first = self.table[index].first if index != UNTRACKED else UNTRACKED
            step.baseline_first = self.baseline_slots(n) if self.baselines else UNTRACKED
            step.count = <int>n
            step.root = index != UNTRACKED and key == self.root_set
            step.player = player
            step.chosen = <int>chosen
            step.sigma = self.chances[chosen]
            step.other_reach = other_reach
            step.before = prefix
            step.after = delta * q_target + (1.0 - delta) * q_plain
            depth += 1
            if player == update:
                own_reach *= self.chances[chosen]
            else:
                other_reach *= self.chances[chosen]
            self.kernel.make(self.moves[chosen])
            self.made += 1
            if restricting:
                position = self.on_target(position)
        result = self.kernel.terminal_value()
        if depth > self.max_depth:
            self.max_depth = depth
        if through:
            self.reached += 1
        total = delta * q_target + (1.0 - delta) * q_plain
        u = result if update == 0 else -result
        for k in range(depth):
            step = &self.steps[k]
            if step.root:
                self.slots[step.first + step.chosen].visits += 1
                self.slots[step.first + step.chosen].value += \
                    (1.0 + (result if step.player == 0 else -result)) / 2
        if self.baselines:
            self.learn_with_baselines(depth, u, update)
            return self.unwind(base, True)
        tail = 1.0
        for k in range(depth - 1, -1, -1):
            step = &self.steps[k]
            if step.first != UNTRACKED:
                s = &self.slots[step.first]
                if step.player == update and total > 0:
                    n = step.count
                    self.current_strategy(s, n, self.chances)
                    weight = u * step.other_reach / total * tail
                    sigma_chosen = self.chances[step.chosen]
                    for chosen in range(n):
                        s[chosen].regret -= weight * sigma_chosen
                    s[step.chosen].regret += weight
            tail *= step.sigma
        return self.unwind(base, True)

    cdef int baseline_slots(self, long long n) noexcept nogil:
        """The first slot of the current position's baselines, one per move loaded, made if
        new (UNTRACKED if the table is full). Keyed by the position, hidden cards and all:
        the value of a move depends on them, and a baseline shared by an information set's
        histories, as first tried, left hidden-3's offline exploitability at 10^6 iterations
        worse than none."""
        cdef u64 key = set_key(self.kernel.hash_key(), 5)
        cdef long long i = self.slot_of(key)
        if self.table[i].key == key:
            return self.table[i].first
        i = self.create(key, n)
        if i == UNTRACKED:
            return UNTRACKED
        self.infoset_count -= 1
        self.baseline_count += 1
        return self.table[i].first

    cdef void learn_with_baselines(self, int depth, double u, int update) noexcept nogil:
        """VR-MCCFR (Schmid et al. 2019): walking back from the end, each node's value for
        ``update`` is estimated with a control variate, every move's learnt baseline, the
        sampled move's corrected by its importance-weighted surprise, so the moves not sampled
        get an estimate too and the regrets of ``update`` learn from all of them. The
        probability of the sampled move given the node is the ratio of the path's sampling
        probabilities after and before it, which covers the targeting mixture."""
        cdef double value = u, sign = 1.0 if update == 0 else -1.0, ratio, node_value, weight
        cdef long long k, a, n
        cdef Step* step
        cdef Slot* s
        cdef Slot* b
        for k in range(depth - 1, -1, -1):
            step = &self.steps[k]
            if step.before <= 0 or step.after <= 0:
                continue
            ratio = step.after / step.before
            if step.player == CHANCE_STEP:      # chance by its probability, renormalised
                value /= ratio
                continue
            n = step.count
            if step.first == UNTRACKED or step.baseline_first == UNTRACKED:   # baseline 0
                s = &self.slots[step.first] if step.first != UNTRACKED else NULL
                self.current_strategy(s, n, self.chances)
                value = value / ratio * self.chances[step.chosen]
                continue
            s = &self.slots[step.first]
            b = &self.slots[step.baseline_first]
            self.current_strategy(s, n, self.chances)
            for a in range(n):
                self.sampling[a] = sign * b[a].baseline
            self.sampling[step.chosen] += (value - sign * b[step.chosen].baseline) / ratio
            node_value = 0.0
            for a in range(n):
                node_value += self.chances[a] * self.sampling[a]
            if step.player == update:
                weight = step.other_reach / step.before
                for a in range(n):
                    s[a].regret += weight * (self.sampling[a] - node_value)
            b[step.chosen].baseline += BASELINE_RATE * (sign * u - b[step.chosen].baseline)
            value = node_value

    cdef void consistent_uniform(self, long long n, int position) noexcept nogil:
        """The targeted scheme where every consistent move has sampling weight 0: uniform
        over them (``restricted`` 1 where kept, before normalisation)."""
        cdef long long k
        for k in range(n):
            self.restricted[k] = 1.0
        self.consistent(n, position, self.restricted)

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
        whole game's strategy, which an offline run (targeting 0) approximates."""
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

    def reset_counters(self):
        self.simulations = 0
        self.made = 0
        self.rejected = 0
        self.reached = 0
        self.max_depth = 0


def normalised(sums):
    """Average-strategy sums as probabilities (uniform where nothing was added), or None."""
    if sums is None:
        return None
    total = sum(sums.values())
    return {move: (weight / total if total > 0 else 1.0 / len(sums))
            for move, weight in sums.items()}
