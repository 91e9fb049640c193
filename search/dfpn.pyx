# cython: language_level=3
"""Depth-first proof-number search (df-pn, Nagai 2002) over any GameKernel without chance.

The solver proves whether a chosen player, the *attacker*, can force a win. Nodes where the
attacker moves are OR nodes (proof number = min over children, disproof number = sum), the
others AND nodes (the reverse), so nothing assumes strict alternation. A node is searched
by ``mid`` within thresholds on both numbers, always below its most proving child, and
returns as soon as a number reaches its threshold; every result goes to the transposition
table, which is what lets the search leave a subtree and come back to it.

- Seesaw effect: the 1+epsilon trick (Pawlewicz and Lew 2007): the best child's threshold
  is ``second best * (1 + epsilon)`` instead of ``second best + 1``, so the search stays
  longer in one subtree when two siblings have close numbers (epsilon 1 by default: on the
  endgame suite it proved as much as 0.25 in less time, docs/search.md).
- Initial numbers from the game's evaluation (df-pn+ style): a new child the evaluation
  likes for the attacker starts with proof number ~ exp(-e / scale) and disproof number
  ~ exp(e / scale), both at least 1; ``init_scale = 0`` gives the classic 1 / 1.
- Mobility (``mobility``, on by default): the number a new child sums over its own children
  is also multiplied by its move count (disproof number where the attacker moves, proof
  number where the defender does), since every one of those moves must be refuted; the
  search then prefers lines that leave the loser few replies. On six suite positions 6
  plies from the end this proved 3 instead of 2 within 10 s, the two proven before in a
  fifth of the time (docs/search.md).
- Weak proof numbers (``weak``, on by default; Ueda et al., "Weak Proof-Number Search",
  2008): the number a node sums over its children is the largest child's plus one per other
  child not yet settled against it, not the sum. Mattock's digs commute, so many children
  share their subtrees (a DAG, not a tree) and the sum counts the shared work once per
  parent: a loser's node with a few hundred turns looked far harder to refute than it is.
  The best child's threshold on that number is the node's less one per other open child.
  Only the order of the search changes, never a value (docs/search.md has the measurement).
- Cut-off expansion: the children list of a node ends at the first child whose game is
  over with a win for the player moving there.
- Lengths: a proven node stores the length of its proof (plies to the end along the proof:
  1 + the shortest proven child at an OR node, 1 + the longest child at an AND node), an
  upper bound on the shortest forced win. A *budget* (plies) bounds the search: a node
  that is not over when the budget is used up counts as disproven, so ``prove(attacker,
  L - 1)`` decides whether a win shorter than L exists and the caller can make the length
  exact. The table keeps per position the shortest proof found, the largest budget
  disproven, and the working numbers with the budget they belong to, so the unbounded and
  the bounded searches share it.
- A disproof records whether a draw was among its ends; without one, the attacker's
  disproof is the defender's win, with a length (longest resistance at the attacker's nodes).

- Turns in stages (``decompose``; engine/kernel.pxd ``stages``): a turn is searched as two
  decisions of its mover, the first stage (Mattock's dig) and then the rest (the walk, or
  none). A position's children are then *stage nodes*, each the parent's position with one
  stage chosen; a stage node's children are the positions after the stage's moves. Both are
  the mover's nodes (OR where the attacker moves, AND elsewhere), so the numbers are the
  same minimum and sum over the same moves, grouped; what changes is the work: a position
  is expanded into its ~17 digs, each judged by one representative (its first move, the
  dig without a walk: its numbers, the mover's summed number times the stage's move count),
  and only a chosen dig's walks are made. A stage node takes no ply (its children take
  it), is keyed by the kernel's ``stage_key`` (a dig reached from different positions is
  one entry), and its children are positions keyed as always, so different walks that
  reach the same position share an entry. The proofs are the same: tests compare the
  values with the search that makes every move at once.

Keys: the kernel's Zobrist key, mixed with a constant per attacker, so proofs for both
players share the table. With ``symmetry`` the key is the kernel's canonical key (the least
over the position's symmetric images, which may exchange the players) mixed with whether the
attacker is the player to move: a proof holds for every image, read from the mover's side,
so symmetric positions share one entry (an entry holds no move, so nothing needs mapping).
The search assumes the key identifies everything that decides the result and that no
position repeats (every game it accepts is acyclic: Mattock digs a cell every ply). Everything below ``prove`` runs without the GIL.
"""
from libc.math cimport exp
from libc.stdlib cimport calloc, realloc, free
from libc.string cimport memset, memcpy

from crystalpick.engine.kernel cimport GameKernel, u64, MAX_PLIES
from crystalpick.engine.evaluation cimport Evaluator
from crystalpick.search.clock cimport now
from crystalpick.search.stop cimport StopFlag

ctypedef unsigned int u32
ctypedef unsigned long long u64n

cdef enum:
    INFINITE = 0x3FFFFFFF        # a proof or disproof number that can never be reached
    INITIAL_CAP = 10000          # evaluation-based initial numbers stay below this
    MOBILITY_CAP = 1000000       # and times the mover's move count, below this
    UNBOUNDED = 30000            # budget of a search without a ply limit
    NO_PROOF = 0x7FFF            # proof length of an entry holding no proof
    NO_DISPROOF = -1
    BUCKET = 4                   # entries per table slot, replaced by least work
    CHECK_EVERY = 63             # clock and stop flag every 64 expansions (a few ms)
    PROVEN = 1
    DISPROVEN = -1
    UNKNOWN = 0

cdef u64 ATTACKER_SALT[2]
ATTACKER_SALT[0] = 0x5851F42D4C957F2DULL
ATTACKER_SALT[1] = 0x14057B7EF767814FULL
# With symmetry: [attacker is not / is the player to move].
cdef u64 MOVER_SALT[2]
MOVER_SALT[0] = 0x2545F4914F6CDD1DULL
MOVER_SALT[1] = 0x9E3779B97F4A7C15ULL


cdef struct Entry:
    u64 key
    u32 pn                       # working numbers, valid for work_budget
    u32 dn
    u32 work                     # nodes searched below this position (saturating)
    short proof_len              # shortest proof found, NO_PROOF if none
    short disproof_budget        # largest budget disproven (UNBOUNDED: never wins)
    short disproof_len           # defender's win length of an unbounded disproof
    short work_budget
    char draw                    # the unbounded disproof reaches a drawn end


cdef struct Child:
    u64 key
    int move                     # a move, or a stage's id where ``stage`` is set
    char stage                   # a stage node: the parent's position with ``move`` chosen
    u32 pn
    u32 dn
    short length                 # proof (or unbounded disproof) length from the child
    char draw
    char settled                 # terminal or out of budget: never in the table


cdef inline u32 sum_threshold(u32 threshold, u64n others) noexcept nogil:
    """A child's threshold on the number its parent sums: what is left of the parent's
    once the other children's share is taken (an infinite threshold stays infinite)."""
    if threshold >= INFINITE:
        return INFINITE
    return saturate(<u64n>threshold - others) if threshold > others else 0


cdef inline u32 saturate(u64n value) noexcept nogil:
    return <u32>(value if value < INFINITE - 1 else INFINITE - 1)


cdef class ProofNumberSearch:
    """A df-pn solver bound to a kernel; its table survives between calls (and files)."""
    cdef GameKernel kernel
    cdef Evaluator evaluator
    cdef Entry* table
    cdef u64 slot_mask
    # a list per level of the tree: with stages, a turn is two levels
    cdef Child* child_lists[2 * MAX_PLIES]
    cdef long long capacity[2 * MAX_PLIES]
    cdef int* move_scratch
    cdef long long* count_scratch   # the stages' move counts, sized as move_scratch
    cdef long long move_scratch_size
    cdef double epsilon, init_scale
    cdef bint mobility, weak
    cdef public bint symmetry        # key the table by canonical keys (may change between calls)
    cdef public bint decompose       # search a turn as its stage and then the rest (ditto)
    cdef int attacker
    cdef long long nodes, node_limit   # nodes: children listed (positions made, stage nodes)
    cdef long long expansions          # interior nodes searched by mid
    cdef double deadline
    cdef bint stopped, chance_seen
    cdef StopFlag stop
    cdef Child root

    def __cinit__(self):
        self.stop = StopFlag()
        self.table = NULL
        self.move_scratch = NULL
        self.count_scratch = NULL
        memset(self.child_lists, 0, sizeof(self.child_lists))
        memset(self.capacity, 0, sizeof(self.capacity))

    def __init__(self, GameKernel kernel, Evaluator evaluator, int hash_megabytes=64,
                 double epsilon=1.0, double init_scale=150.0, bint mobility=True,
                 bint symmetry=False, bint decompose=False, bint weak=True):
        cdef u64 slots = 1
        if hash_megabytes < 1:
            raise ValueError("the table needs at least 1 MB")
        while slots * 2 * BUCKET * sizeof(Entry) <= <u64>hash_megabytes * 1024 * 1024:
            slots *= 2
        self.table = <Entry*>calloc(slots * BUCKET, sizeof(Entry))
        if self.table == NULL:
            raise MemoryError()
        self.slot_mask = slots - 1
        evaluator.check(kernel)
        self.kernel = kernel
        self.evaluator = evaluator
        self.epsilon = epsilon
        self.init_scale = init_scale
        self.mobility = mobility
        self.symmetry = symmetry
        self.decompose = decompose
        self.weak = weak

    def __dealloc__(self):
        free(self.table)
        free(self.move_scratch)
        free(self.count_scratch)
        for i in range(2 * MAX_PLIES):
            free(self.child_lists[i])

    def set_kernel(self, GameKernel kernel):
        """Solve another position (of the same game) keeping the table."""
        self.evaluator.check(kernel)
        self.kernel = kernel

    @property
    def tt_bytes(self):
        return (self.slot_mask + 1) * BUCKET * sizeof(Entry)

    @property
    def nodes(self):
        return self.nodes

    @property
    def expansions(self):
        return self.expansions

    @property
    def stopped(self):
        return self.stopped

    def set_limits(self, double deadline=0.0, long long node_limit=0):
        """Stop at the monotonic ``deadline`` or after ``node_limit`` more nodes (0: none)."""
        self.deadline = deadline
        self.node_limit = self.nodes + node_limit if node_limit > 0 else 0

    def set_stop(self, StopFlag flag=None):
        self.stop = StopFlag() if flag is None else flag

    # -- the table -------------------------------------------------------------------------

    cdef inline Entry* find(self, u64 key) noexcept nogil:
        cdef Entry* bucket = &self.table[(key & self.slot_mask) * BUCKET]
        cdef int i
        for i in range(BUCKET):
            if bucket[i].key == key:
                return &bucket[i]
        return NULL

    cdef Entry* place(self, u64 key) noexcept nogil:
        """The entry of ``key``, or a fresh one in an empty slot of its bucket or replacing
        the bucket's least searched entry."""
        cdef Entry* bucket = &self.table[(key & self.slot_mask) * BUCKET]
        cdef Entry* victim = NULL
        cdef int i
        for i in range(BUCKET):
            if bucket[i].key == key:
                return &bucket[i]
        for i in range(BUCKET):
            if bucket[i].key == 0:
                victim = &bucket[i]
                break
            if victim == NULL or bucket[i].work < victim.work:
                victim = &bucket[i]
        victim.key = key
        victim.pn = 1
        victim.dn = 1
        victim.work = 0
        victim.proof_len = NO_PROOF
        victim.disproof_budget = NO_DISPROOF
        victim.disproof_len = 0
        victim.work_budget = NO_DISPROOF
        victim.draw = 0
        return victim

    cdef inline bint lookup(self, u64 key, int budget, Child* out) noexcept nogil:
        """Fill ``out``'s numbers from the table for a search with ``budget`` plies left."""
        cdef Entry* entry = self.find(key)
        if entry == NULL:
            return False
        if entry.proof_len <= budget:
            out.pn, out.dn, out.length, out.draw = 0, INFINITE, entry.proof_len, 0
        elif entry.disproof_budget >= budget:
            out.pn, out.dn = INFINITE, 0
            out.length, out.draw = entry.disproof_len, entry.draw
        elif entry.work_budget == budget:
            out.pn, out.dn = entry.pn, entry.dn
        else:
            return False
        return True

    cdef void save(self, Child* node, int budget, u64n work) noexcept nogil:
        cdef Entry* entry = self.place(node.key)
        if node.pn == 0:
            if node.length < entry.proof_len:
                entry.proof_len = node.length
        elif node.dn == 0:
            if budget > entry.disproof_budget:
                entry.disproof_budget = budget
                entry.disproof_len = node.length
                entry.draw = node.draw
        else:
            entry.pn, entry.dn, entry.work_budget = node.pn, node.dn, budget
        entry.work = saturate(entry.work + work)

    # -- expansion ---------------------------------------------------------------------------

    cdef inline u64 stage_table_key(self, int stage) noexcept nogil:
        """The table key of a stage of the kernel's position (for the attacker)."""
        cdef u64 key = self.kernel.stage_key(stage) ^ ATTACKER_SALT[self.attacker]
        return key if key != 0 else 1

    cdef inline u64 child_key(self) noexcept nogil:
        """The table key of the kernel's position (not over: a player is to move)."""
        cdef u64 key
        if self.symmetry:
            key = self.kernel.canonical_key() ^ MOVER_SALT[self.kernel.player() == self.attacker]
        else:
            key = self.kernel.hash_key() ^ ATTACKER_SALT[self.attacker]
        return key if key != 0 else 1

    cdef void initial_numbers(self, Child* child) noexcept nogil:
        """A new position's numbers from the evaluation, read from the attacker's side, and
        the mover's move count."""
        cdef double e, weight
        cdef long long n
        child.pn, child.dn = 1, 1
        if self.init_scale > 0:
            e = self.evaluator.evaluate(self.kernel)
            if self.kernel.player() != self.attacker:
                e = -e
            weight = exp(-e / self.init_scale)
            child.pn = <u32>min(INITIAL_CAP, max(1.0, weight + 0.5))
            child.dn = <u32>min(INITIAL_CAP, max(1.0, 1.0 / weight + 0.5))
        if self.mobility:
            n = max(1, self.kernel.move_count())
            if self.kernel.player() == self.attacker:
                child.dn = <u32>min(MOBILITY_CAP, child.dn * n)
            else:
                child.pn = <u32>min(MOBILITY_CAP, child.pn * n)

    cdef bint settle(self, Child* child, int budget) noexcept nogil:
        """Decide a child at once when it is over or out of budget; True if decided."""
        cdef int mover = self.kernel.player()
        cdef double value
        child.length = 0
        child.draw = 0
        if mover == -2:
            value = self.kernel.terminal_value()
            if self.attacker == 1:
                value = -value
            if value > 0:
                child.pn, child.dn = 0, INFINITE
            else:
                child.pn, child.dn = INFINITE, 0
                child.draw = value == 0
            return True
        if mover == -1:                   # chance is refused: stop rather than guess
            self.chance_seen = True
            self.stopped = True
        if budget <= 0 or self.kernel.plies() >= MAX_PLIES - 1 or mover == -1:
            child.pn, child.dn = INFINITE, 0
            child.draw = 1                # not a result of the game: never a defender's win
            return True
        return False

    cdef bint make_room(self, long long n, int ply) noexcept nogil:
        """Grow the move scratch and the child list of ``ply`` to hold ``n``; False if out
        of memory."""
        cdef int* grown
        cdef long long* counts
        cdef Child* kids
        if n > self.move_scratch_size:
            grown = <int*>realloc(self.move_scratch, n * sizeof(int))
            if grown == NULL:
                return False
            self.move_scratch = grown
            counts = <long long*>realloc(self.count_scratch, n * sizeof(long long))
            if counts == NULL:
                return False
            self.count_scratch = counts
            self.move_scratch_size = n
        if n > self.capacity[ply]:
            kids = <Child*>realloc(self.child_lists[ply], n * sizeof(Child))
            if kids == NULL:
                return False
            self.child_lists[ply] = kids
            self.capacity[ply] = n
        return True

    cdef long long list_moves(self, int ply, int stage) noexcept nogil:
        """The moves of the kernel's position (``stage`` -1) or of one of its stages into
        the move scratch, with room for their children at ``ply``; 0 if out of memory."""
        cdef long long size = self.move_scratch_size
        cdef long long n = self.kernel.moves(self.move_scratch, size) if stage < 0 \
            else self.kernel.stage_moves(stage, self.move_scratch, size)
        if not self.make_room(n, ply):
            return 0
        if n > size:
            if stage < 0:
                self.kernel.moves(self.move_scratch, n)
            else:
                self.kernel.stage_moves(stage, self.move_scratch, n)
        return n

    cdef long long expand(self, int ply, int budget, bint cutoff=True,
                          int stage=-1) noexcept nogil:
        """List the children of the node at ``ply`` with their numbers: the positions after
        every move, or after the moves of ``stage`` (>= 0, a stage node's); 0 if out of
        memory. With ``cutoff``, the list ends at the first child whose game is over with a
        real win for the player moving here: that child alone decides the node, by the
        shortest possible line, so making and judging its siblings would be wasted (near
        the end of a game most of a proof's nodes are such positions)."""
        cdef long long n = self.list_moves(ply, stage)
        cdef long long i
        cdef bint or_node = self.kernel.player() == self.attacker
        cdef Child* child
        self.nodes += n
        for i in range(n):
            child = &self.child_lists[ply][i]
            child.move = self.move_scratch[i]
            child.stage = 0
            self.kernel.make(child.move)
            child.settled = self.settle(child, budget)
            if cutoff and child.settled and self.kernel.player() == -2 and not child.draw \
                    and (child.pn == 0) == or_node:
                self.kernel.unmake()
                self.nodes -= n - i - 1
                return i + 1
            if not child.settled:
                child.key = self.child_key()
                child.length = 0
                child.draw = 0
                if not self.lookup(child.key, budget, child):
                    self.initial_numbers(child)
            self.kernel.unmake()
        return n

    cdef long long expand_stages(self, int ply, int budget) noexcept nogil:
        """List the stages of the kernel's position as stage nodes at ``ply`` (searched with
        ``budget``, the position's own: the stage's moves take the ply); 0 if out of
        memory. A new stage node gets the numbers of the position after its first move,
        the number the mover sums times the stage's move count (the sum over its moves if
        they were alike)."""
        cdef long long size = self.move_scratch_size
        cdef long long n = self.kernel.stages(self.move_scratch, self.count_scratch, size)
        cdef long long i
        cdef bint or_node = self.kernel.player() == self.attacker
        cdef int first
        cdef Child* child
        if not self.make_room(n, ply):
            return 0
        if n > size:
            self.kernel.stages(self.move_scratch, self.count_scratch, n)
        self.nodes += n
        for i in range(n):
            child = &self.child_lists[ply][i]
            child.move = self.move_scratch[i]
            child.stage = 1
            child.settled = 0
            child.length = 0
            child.draw = 0
            child.key = self.stage_table_key(child.move)
            if self.lookup(child.key, budget, child):
                continue
            self.kernel.stage_moves(child.move, &first, 1)
            self.kernel.make(first)
            if self.settle(child, budget if budget >= UNBOUNDED else budget - 1):
                child.pn, child.dn = 1, 1        # its expansion decides it
                child.length = 0
                child.draw = 0
            else:
                self.initial_numbers(child)
            self.kernel.unmake()
            if or_node:
                child.dn = saturate(<u64n>child.dn * self.count_scratch[i])
            else:
                child.pn = saturate(<u64n>child.pn * self.count_scratch[i])
        return n

    # -- the search --------------------------------------------------------------------------

    cdef inline bint out_of_budget(self) noexcept nogil:
        if self.node_limit > 0 and self.nodes >= self.node_limit:
            self.stopped = True
        elif (self.expansions & CHECK_EVERY) == 0 and (
                self.stop.word[0] or (self.deadline > 0 and now() > self.deadline)):
            self.stopped = True
        return self.stopped

    cdef void combine(self, Child* kids, long long n, bint or_node, Child* node,
                      long long* best, u32* second, u64n* others, int step) noexcept nogil:
        """The node's numbers from its children's, the child to search next (the first of
        the smallest minimised number), the runner-up's number, which the best child's
        threshold is set from, and ``others``: what the other children add to the summed
        number (the best child's threshold on it is the node's less that); ``step``: plies
        from the node to its children (0 from a position to its stages). With ``weak`` the
        summed number is the largest child's plus one per other unsettled child (weak
        proof-number search), not the sum."""
        cdef long long i, open_kids = 0
        cdef u64n total = 0
        cdef u32 low = INFINITE, runner = INFINITE, mine, summed, largest = 0
        best[0] = 0
        for i in range(n):
            mine = kids[i].pn if or_node else kids[i].dn       # minimised here
            summed = kids[i].dn if or_node else kids[i].pn     # summed here
            total += summed
            if summed != 0:
                open_kids += 1
                largest = max(largest, summed)
            if mine < low:
                runner = low
                low = mine
                best[0] = i
            elif mine < runner:
                runner = mine
        second[0] = runner
        if self.weak:
            total = largest + open_kids - 1 if open_kids > 0 else 0
            others[0] = open_kids - 1 if open_kids > 0 else 0
        else:
            summed = kids[best[0]].dn if or_node else kids[best[0]].pn
            others[0] = total - summed
        if or_node:
            node.pn = low
            node.dn = INFINITE if low == 0 else saturate(total)
        else:
            node.dn = low
            node.pn = INFINITE if low == 0 else saturate(total)
        if node.pn == 0 or node.dn == 0:
            self.settled_length(kids, n, or_node, node, step)

    cdef void settled_length(self, Child* kids, long long n, bint or_node,
                             Child* node, int step) noexcept nogil:
        """Length (and draw mark) of a proven or disproven node. Where one child decides
        (the winner moves) it is the shortest such child, a real win before a draw; where
        every child decides (the loser moves) the longest, a draw if any is one."""
        cdef bint proven = node.pn == 0
        cdef bint one_decides = proven == or_node
        cdef long long i
        cdef int length = -1
        cdef char draw = 0
        for i in range(n):
            if (kids[i].pn if proven else kids[i].dn) != 0:
                continue
            if one_decides:
                if length < 0 or kids[i].draw < draw or (kids[i].draw == draw
                                                         and kids[i].length < length):
                    length = kids[i].length
                    draw = kids[i].draw
            else:
                length = max(length, kids[i].length)
                draw = draw or kids[i].draw
        node.length = <short>(length + step)
        node.draw = draw

    cdef void mid(self, int ply, int budget, u32 th_pn, u32 th_dn, Child* node) noexcept nogil:
        """Search the kernel's (non-terminal) position, or with ``node.stage`` one of its
        stages, until one of its numbers reaches its threshold; leave the result in
        ``node`` and the table."""
        cdef bint or_node = self.kernel.player() == self.attacker
        cdef bint split = self.decompose and not node.stage   # children are stage nodes
        cdef long long n, best, i
        cdef u32 second, child_th_pn, child_th_dn
        cdef u64n start = self.nodes, grown, others
        cdef int child_budget = budget if budget >= UNBOUNDED or split else budget - 1
        cdef int step = 0 if split else 1
        cdef Child* kids
        cdef Child* chosen
        self.expansions += 1
        self.out_of_budget()
        if split:
            n = self.expand_stages(ply, child_budget)
        else:
            n = self.expand(ply, child_budget, True, node.move if node.stage else -1)
        if n == 0:                 # out of memory: nothing proven
            self.stopped = True
            return
        kids = self.child_lists[ply]
        while True:
            for i in range(n):
                if not kids[i].settled:
                    self.lookup(kids[i].key, child_budget, &kids[i])
            self.combine(kids, n, or_node, node, &best, &second, &others, step)
            if node.pn >= th_pn or node.dn >= th_dn or self.stopped:
                break
            chosen = &kids[best]
            grown = <u64n>second + 1 + <u64n>(second * self.epsilon)
            if or_node:
                child_th_pn = <u32>min(<u64n>th_pn, grown)
                child_th_dn = sum_threshold(th_dn, others)
            else:
                child_th_dn = <u32>min(<u64n>th_dn, grown)
                child_th_pn = sum_threshold(th_pn, others)
            if chosen.stage:
                self.mid(ply + 1, child_budget, child_th_pn, child_th_dn, chosen)
            else:
                self.kernel.make(chosen.move)
                self.mid(ply + 1, child_budget, child_th_pn, child_th_dn, chosen)
                self.kernel.unmake()
            if self.stopped:
                self.combine(kids, n, or_node, node, &best, &second, &others, step)
                break
        self.save(node, budget, self.nodes - start)

    # -- the root ----------------------------------------------------------------------------

    def prove(self, int attacker, int budget=-1):
        """Search until the kernel's position is proven (the attacker forces a win within
        ``budget`` plies; -1: any number) or disproven, or a limit stops it. Returns PROVEN,
        DISPROVEN or UNKNOWN (1, -1, 0); call again to go on where it stopped."""
        if attacker not in (0, 1):
            raise ValueError("attacker must be player 0 or 1")
        if self.kernel.player() < 0:
            raise ValueError("the position must be a decision node")
        self.attacker = attacker
        self.stopped = False
        self.chance_seen = False
        cdef int limit = UNBOUNDED if budget < 0 else min(budget, UNBOUNDED - 1)
        self.root.key = self.child_key()
        self.root.stage = 0
        self.root.length = 0
        self.root.draw = 0
        with nogil:
            self.mid(0, limit, INFINITE, INFINITE, &self.root)
        if self.chance_seen:
            raise ValueError("df-pn met a chance node: games with chance are not solved")
        return PROVEN if self.root.pn == 0 else DISPROVEN if self.root.dn == 0 else UNKNOWN

    @property
    def root_numbers(self):
        """``(proof number, disproof number, length, draw)`` of the last ``prove``'s root."""
        return self.root.pn, self.root.dn, self.root.length, bool(self.root.draw)

    def children(self, int attacker, int budget=-1):
        """The kernel's moves as ``(move, status, length, draw)`` from the table: status 1 if
        the attacker's win is proven after the move, -1 disproven, 0 unknown."""
        self.attacker = attacker
        cdef int child_budget = UNBOUNDED if budget < 0 else budget - 1
        cdef long long n, i
        cdef Child child
        n = self.expand(0, child_budget, False)
        rows = []
        for i in range(n):
            child = self.child_lists[0][i]
            status = PROVEN if child.pn == 0 else DISPROVEN if child.dn == 0 else UNKNOWN
            rows.append((child.move, status, child.length, bool(child.draw)))
        return rows

    def main_line(self, int attacker, int budget=-1):
        """The proof's main line from the kernel's position (proven or disproven for
        ``attacker``): the winner takes its shortest proven move, the loser its longest
        resistance; a position whose entry was replaced is proven again on the way.
        The kernel is left where it was."""
        cdef list line = []
        cdef int remaining = UNBOUNDED if budget < 0 else budget
        cdef double deadline = self.deadline
        cdef long long node_limit = self.node_limit
        cdef StopFlag stop = self.stop
        self.attacker = attacker
        self.deadline, self.node_limit, self.stop = 0.0, 0, StopFlag()
        try:
            self.follow(line, remaining)
        finally:
            for _ in line:
                self.kernel.unmake()
            self.deadline, self.node_limit, self.stop = deadline, node_limit, stop
        return line

    cdef follow(self, list line, int remaining):
        """Play the main line on the kernel, appending its moves to ``line``."""
        cdef long long n, i, pick
        cdef bint or_node, proven, prefer_short
        cdef Child* kids
        cdef Child node
        self.stopped = False
        node.stage = 0
        while self.kernel.player() >= 0 and len(line) < MAX_PLIES - 1:
            node.key = self.child_key()
            if not self.lookup(node.key, remaining, &node) or (node.pn != 0 and node.dn != 0):
                self.mid(0, remaining, INFINITE, INFINITE, &node)
                if node.pn != 0 and node.dn != 0:
                    break
            proven = node.pn == 0
            or_node = self.kernel.player() == self.attacker
            n = self.expand(0, remaining if remaining >= UNBOUNDED else remaining - 1)
            kids = self.child_lists[0]
            prefer_short = proven == or_node    # the winner is to move
            pick = -1
            for i in range(n):
                if (kids[i].pn == 0) != proven or (not proven and kids[i].dn != 0):
                    continue
                if pick < 0 or (kids[i].length < kids[pick].length if prefer_short
                                else kids[i].length > kids[pick].length):
                    pick = i
            if pick < 0:
                break
            line.append(kids[pick].move)
            self.kernel.make(kids[pick].move)
            if remaining < UNBOUNDED:
                remaining -= 1

    # -- keeping the table in a file -------------------------------------------------------

    def export_table(self):
        """The occupied entries as bytes (the ``--resume`` file's body)."""
        cdef u64 i, total = (self.slot_mask + 1) * BUCKET
        cdef bytearray out = bytearray()
        for i in range(total):
            if self.table[i].key != 0:
                out += (<char*>&self.table[i])[:sizeof(Entry)]
        return bytes(out)

    def import_table(self, const unsigned char[::1] data):
        """Put exported entries back (any table size); returns how many were read. Every
        entry is checked first: one that no search can write (a damaged file) is a
        ValueError naming it, and nothing is imported."""
        cdef long long count = data.shape[0] // sizeof(Entry), i
        cdef Entry entry
        cdef Entry* slot
        if data.shape[0] % sizeof(Entry):
            raise ValueError("not a table export: its length is not a whole number of entries")
        for i in range(count):
            memcpy(&entry, &data[i * sizeof(Entry)], sizeof(Entry))
            problem = impossible(&entry)
            if problem:
                raise ValueError(f"entry {i + 1} of {count}: {problem}")
        for i in range(count):
            memcpy(&entry, &data[i * sizeof(Entry)], sizeof(Entry))
            slot = self.place(entry.key)
            if slot.work <= entry.work or slot.proof_len == NO_PROOF:
                slot[0] = entry
        return count

    def clear(self):
        memset(self.table, 0, (self.slot_mask + 1) * BUCKET * sizeof(Entry))


cdef str impossible(Entry* entry):
    """What makes ``entry`` one that no search writes ('' if nothing): lengths and budgets
    beyond a game's plies, numbers beyond infinite, or a position both proven within L plies
    and disproven with L or more plies to spare."""
    if entry.key == 0:
        return "an empty key"
    if entry.pn < 1 or entry.pn > INFINITE or entry.dn < 1 or entry.dn > INFINITE:
        return f"proof and disproof numbers {entry.pn}, {entry.dn} (expected 1..{INFINITE})"
    if entry.proof_len != NO_PROOF and not 1 <= entry.proof_len < MAX_PLIES:
        return f"proof length {entry.proof_len} (expected 1..{MAX_PLIES - 1} plies)"
    if not 0 <= entry.disproof_len < MAX_PLIES:
        return f"disproof length {entry.disproof_len} (expected 0..{MAX_PLIES - 1} plies)"
    for name, budget in (("disproof", entry.disproof_budget), ("work", entry.work_budget)):
        if not NO_DISPROOF <= budget <= UNBOUNDED:
            return f"{name} budget {budget} (expected {NO_DISPROOF}..{UNBOUNDED})"
    if entry.draw not in (0, 1):
        return f"draw flag {entry.draw} (expected 0 or 1)"
    if entry.proof_len != NO_PROOF and entry.disproof_budget >= entry.proof_len:
        return (f"proven in {entry.proof_len} plies yet disproven within "
                f"{entry.disproof_budget}")
    return ""


PROVEN_STATUS = PROVEN          # what prove() and children() return, for Python
DISPROVEN_STATUS = DISPROVEN
