# cython: language_level=3
"""Alpha-beta over any GameKernel: negamax with PVS, a bounded Zobrist transposition table,
TT-move and history ordering, late-move reductions, aspiration windows and multi-PV, plus
expectimax with Star1/Star2 pruning at chance nodes.

Perspective: ``search`` returns the value for the player ``pov`` passed in. A decision node
whose mover differs from ``pov`` re-enters itself from the mover's side and negates, so the
same code serves strictly alternating games, repeated turns and chance nodes (which keep the
caller's ``pov``). A chance node right after a move does not use up depth (runs of them do).

Scores follow search/scores.pxd: a proven win in n plies is MATE - n, so the root reports
"win in n plies" exactly. A chance node keeps a proof only when all its outcomes are proven
the same way (see ``chance``); search/score.py turns these floats into typed scores. Everything below ``iterate`` runs without the GIL; node counts at a
fixed depth are reproducible because nothing depends on time unless a time limit stops it.
"""
from libc.stdlib cimport calloc, malloc, realloc, free
from libc.string cimport memset, memcpy

from crystalpick.engine.kernel cimport GameKernel, u64, MAX_PLIES
from crystalpick.engine.evaluation cimport Evaluator, EVAL_BOUND
from crystalpick.search.scores cimport MATE, MATE_THRESHOLD, INFINITE_SCORE
from crystalpick.search.clock cimport now
from crystalpick.search.stop cimport StopFlag

cdef extern from *:
    """
    #include <stdint.h>
    #include <sys/mman.h>
    /* Ask for 2 MB pages under the 2 MB-aligned part of a block (Linux, transparent huge
       pages in "madvise" mode; elsewhere nothing). */
    static void crystalpick_advise_huge_pages(void* block, size_t bytes) {
    #ifdef MADV_HUGEPAGE
        const uintptr_t huge = (uintptr_t)1 << 21;
        uintptr_t start = ((uintptr_t)block + huge - 1) & ~(huge - 1);
        uintptr_t end = ((uintptr_t)block + bytes) & ~(huge - 1);
        if (end > start)
            madvise((void*)start, end - start, MADV_HUGEPAGE);
    #endif
    }
    """
    void advise_huge_pages "crystalpick_advise_huge_pages"(void* block, size_t bytes) nogil
    void prefetch "__builtin_prefetch"(const void* address) noexcept nogil

cdef enum:
    MAX_PLY = MAX_PLIES          # the stack holds any game to its end
    HISTORY_SIZE = 4096
    CHECK_EVERY = 1023           # look at the clock and the stop flag every 1024 nodes
    EXACT = 0
    LOWER = 1
    UPPER = 2
    ASPIRATION = 50              # half-width of the first root window, in evaluation units
    MAX_MULTIPV = 64
    CHANCE_BEYOND_HORIZON = 1    # chance plies searched past depth 0
    SELECT_FIRST = 8             # moves picked by selection before the rest are sorted

MATE_SCORE = MATE                   # for the Python side: see search/scores.pxd
MATE_THRESHOLD_SCORE = MATE_THRESHOLD

# At a chance node whose outcomes are not all proven the same way, a proven outcome counts
# as this (just beyond any evaluation) in the average: see AlphaBeta.chance.
cdef double PROOF_BOUND = EVAL_BOUND + 1
# An average of bounded values at least this high is all proven wins (the slack absorbs
# rounding in the sum; any evaluation outcome pulls the average down by its probability).
cdef double ALL_PROVEN = PROOF_BOUND - 1e-6
PROOF_BOUND_SCORE = PROOF_BOUND

cdef double WINDOW_EPS = 1e-6    # a "null" window; scores are never closer than this unless equal

cdef struct TTEntry:
    u64 key
    double score
    int move
    unsigned int orientation     # high half of the plain key: whose orientation ``move`` is in
    short depth
    char bound
    char generation

cdef struct OrderedMove:
    long long key
    int move


# Ciura's gaps, then the next ones by x2.25 (a move list holds at most a few thousand moves).
cdef int SHELL_GAPS[11]
SHELL_GAPS[:] = [3980, 1769, 701, 301, 132, 57, 23, 10, 4, 1, 0]


cdef void sort_by_key_descending(OrderedMove* moves, long long n) noexcept nogil:
    """Shell sort, largest key first: an inlined comparison, no allocation and no quadratic
    case, where glibc's qsort (a merge sort calling a comparison function) took 6% of
    alpha-beta's time. Keys are distinct, so the order is the one any sort gives."""
    cdef long long i, j, gap
    cdef int g = 0
    cdef OrderedMove item
    while SHELL_GAPS[g] > 0:
        gap = SHELL_GAPS[g]
        g += 1
        for i in range(gap, n):
            item = moves[i]
            j = i
            while j >= gap and moves[j - gap].key < item.key:
                moves[j] = moves[j - gap]
                j -= gap
            moves[j] = item


cdef inline int history_slot(int move) noexcept nogil:
    return <int>(((<unsigned int>move) * 2654435761u) >> 20) & (HISTORY_SIZE - 1)


cdef inline double to_tt(double score, int ply) noexcept nogil:
    """Mate scores are stored relative to the node, so a TT hit at another ply stays exact."""
    if score > MATE_THRESHOLD:
        return score + ply
    if score < -MATE_THRESHOLD:
        return score - ply
    return score


cdef inline double from_tt(double score, int ply) noexcept nogil:
    if score > MATE_THRESHOLD:
        return score - ply
    if score < -MATE_THRESHOLD:
        return score + ply
    return score


cdef class AlphaBeta:
    """One search engine bound to a kernel; its TT and history survive between searches."""
    cdef GameKernel kernel
    cdef Evaluator evaluator
    cdef TTEntry* table
    cdef u64 table_mask
    cdef char generation
    cdef long long history[2][HISTORY_SIZE]
    cdef OrderedMove* buffers[MAX_PLY]
    cdef long long capacity[MAX_PLY]
    cdef int* move_scratch
    cdef long long move_scratch_size
    cdef double* probabilities[MAX_PLY]
    cdef long long chance_capacity[MAX_PLY]
    cdef int pv[MAX_PLY][MAX_PLY]
    cdef bint chance_at[MAX_PLY]     # whether the node at each ply of the current path is chance
    cdef int pv_length[MAX_PLY]
    # limits and counters of the current search
    cdef long long nodes, node_limit
    cdef double deadline
    cdef int seldepth
    cdef bint stopped
    cdef StopFlag stop
    # options
    cdef public bint lmr, star2, aspiration
    cdef public bint symmetry        # key the TT by canonical keys (may change between searches)
    # root bookkeeping (multi-PV)
    cdef int* root_moves
    cdef double* root_scores
    cdef int* root_pv
    cdef int* root_pv_length
    cdef bint* root_exact        # whether the iteration searched the move with an open window
    cdef int root_count
    cdef int root_searched       # root moves the current iteration has finished

    def __cinit__(self):
        self.stop = StopFlag()
        self.table = NULL
        self.move_scratch = NULL
        self.root_moves = NULL
        self.root_scores = NULL
        self.root_pv = NULL
        self.root_pv_length = NULL
        self.root_exact = NULL
        memset(self.buffers, 0, sizeof(self.buffers))
        memset(self.capacity, 0, sizeof(self.capacity))
        memset(self.probabilities, 0, sizeof(self.probabilities))
        memset(self.chance_capacity, 0, sizeof(self.chance_capacity))

    def __init__(self, GameKernel kernel, Evaluator evaluator, int tt_megabytes=16,
                 bint lmr=True, bint star2=False, bint aspiration=True,
                 bint symmetry=False):
        cdef u64 entries = 1
        while entries * 2 * sizeof(TTEntry) <= <u64>tt_megabytes * 1024 * 1024:
            entries *= 2
        # calloc, not malloc + clear(): the OS hands out zeroed pages as they are first
        # touched, so a new searcher costs next to nothing until it searches (annotate
        # makes one per position); history and generation start zeroed with the object.
        self.table = <TTEntry*>calloc(entries, sizeof(TTEntry))
        if self.table == NULL:
            raise MemoryError()
        # Probes land anywhere in the table: with 4 KB pages most of them also missed the
        # TLB (perf: the probe's load was 12% of alpha-beta's time from Mattock's start).
        advise_huge_pages(self.table, entries * sizeof(TTEntry))
        self.table_mask = entries - 1
        evaluator.check(kernel)
        self.kernel = kernel
        self.evaluator = evaluator
        self.lmr, self.star2, self.aspiration = lmr, star2, aspiration
        self.symmetry = symmetry

    def __dealloc__(self):
        free(self.table)
        free(self.move_scratch)
        free(self.root_moves)
        free(self.root_scores)
        free(self.root_pv)
        free(self.root_pv_length)
        free(self.root_exact)
        for i in range(MAX_PLY):
            free(self.buffers[i])
            free(self.probabilities[i])

    @property
    def tt_bytes(self):
        return (self.table_mask + 1) * sizeof(TTEntry)

    def clear(self):
        """Forget everything learnt (TT and history): makes a search independent of the past."""
        memset(self.table, 0, (self.table_mask + 1) * sizeof(TTEntry))
        memset(self.history, 0, sizeof(self.history))
        self.generation = 0

    def set_kernel(self, GameKernel kernel):
        """Search another position (e.g. the next one of a game) keeping the TT."""
        self.evaluator.check(kernel)
        self.kernel = kernel

    # -- move lists ------------------------------------------------------------------------

    cdef long long ordered_moves(self, int ply, int mover, int tt_move) noexcept nogil:
        """The legal moves at this ply but the TT move (searched before generating), in the
        order of their keys (history, then generation order) as far as ``next_move`` needs:
        returns how many, 0 if out of memory.

        Most nodes cut off after a few moves, so the pass that writes the keys keeps the
        SELECT_FIRST largest in a small sorted array (a key enters only when it beats the
        smallest there) and puts them in front in order; the rest, behind them, is sorted
        by ``next_move`` only if the search gets there. Keys are distinct, so the order is
        the one a full sort gives."""
        cdef long long n = self.kernel.moves(self.move_scratch, self.move_scratch_size)
        cdef long long i, rest = 0
        cdef int kept = 0, j, move
        cdef long long* history = self.history[mover]
        cdef int* scratch
        cdef OrderedMove* out
        cdef OrderedMove item
        cdef OrderedMove top[SELECT_FIRST]
        if n > self.move_scratch_size:
            if not self.grow_scratch(n):
                return 0
            self.kernel.moves(self.move_scratch, self.move_scratch_size)
        if n > self.capacity[ply]:
            out = <OrderedMove*>realloc(self.buffers[ply], n * sizeof(OrderedMove))
            if out == NULL:
                return 0
            self.buffers[ply] = out
            self.capacity[ply] = n
        out = self.buffers[ply]
        scratch = self.move_scratch
        for i in range(n):
            move = scratch[i]
            if move == tt_move:
                continue
            item.move = move
            item.key = (history[history_slot(move)] << 20) + (0xFFFFF - i)
            if kept == SELECT_FIRST:           # SELECT_FIRST + rest <= i: within n
                if item.key < top[SELECT_FIRST - 1].key:
                    out[SELECT_FIRST + rest] = item
                    rest += 1
                    continue
                out[SELECT_FIRST + rest] = top[SELECT_FIRST - 1]     # evicted
                rest += 1
                kept -= 1
            j = kept
            while j > 0 and top[j - 1].key < item.key:
                top[j] = top[j - 1]
                j -= 1
            top[j] = item
            kept += 1
        memcpy(out, top, kept * sizeof(OrderedMove))   # rest > 0 only if kept == SELECT_FIRST
        return kept + rest

    cdef int next_move(self, int ply, long long index, long long n) noexcept nogil:
        """The move at ``index`` of the ply's list in key order: the first SELECT_FIRST
        are in order already (``ordered_moves``), the rest are sorted when first reached."""
        if index == SELECT_FIRST:
            sort_by_key_descending(self.buffers[ply] + index, n - index)
        return self.buffers[ply][index].move

    cdef bint grow_scratch(self, long long n) noexcept nogil:
        cdef int* grown = <int*>realloc(self.move_scratch, n * sizeof(int))
        if grown == NULL:
            return False
        self.move_scratch = grown
        self.move_scratch_size = n
        return True

    # -- limits ----------------------------------------------------------------------------

    cdef inline bint out_of_budget(self) noexcept nogil:
        if self.node_limit > 0 and self.nodes >= self.node_limit:
            self.stopped = True
        elif (self.nodes & CHECK_EVERY) == 0 and (
                self.stop.word[0] or (self.deadline > 0 and now() > self.deadline)):
            self.stopped = True
        return self.stopped

    # -- the search ------------------------------------------------------------------------

    cdef double search(self, int depth, double alpha, double beta, int ply, int pov,
                       bint probe) noexcept nogil:
        cdef int player
        cdef double result, score, best
        cdef TTEntry* entry
        cdef u64 key
        cdef unsigned int orientation
        cdef int tt_move = -1, best_move = -1, move = -1, reduction
        cdef long long n, next_index, k
        cdef bint generated
        cdef double original_alpha = alpha
        if self.stopped:               # a re-search (LMR, PVS, the root's) after the stop
            return 0.0
        if depth > 0:                  # only nodes above the horizon probe the table
            prefetch(&self.table[self.kernel.hash_key() & self.table_mask])
        player = self.kernel.player()
        if player >= 0 and player != pov and depth > 0 and ply < MAX_PLY - 1:
            return -self.search(depth, -beta, -alpha, ply, player, probe)
        self.nodes += 1
        if self.node_limit > 0 and self.nodes >= self.node_limit:
            self.stopped = True        # also where this node returns early (a table hit, the end)
        self.pv_length[ply] = 0
        if ply > self.seldepth:
            self.seldepth = ply
        if player >= 0 and (depth <= 0 or ply >= MAX_PLY - 1):
            self.out_of_budget()
            score = self.evaluator.evaluate(self.kernel)
            return score if player == pov else -score
        if player == -2:
            result = self.kernel.terminal_value()
            return (result if pov == 0 else -result) * (MATE - ply)
        if self.out_of_budget():
            return 0.0
        self.chance_at[ply] = player == -1
        if player == -1:
            # A chance node after a move is free; one after another chance node (a run of
            # draws, such as a game's setup) or past the horizon uses up depth, and a couple
            # of plies past the horizon the evaluation scores the chance node itself.
            if depth < -CHANCE_BEYOND_HORIZON:
                return self.evaluator.evaluate_for(self.kernel, pov)
            if depth <= 0 or (ply > 0 and self.chance_at[ply - 1]):
                depth -= 1
            return self.chance(depth, alpha, beta, ply, pov)

        # With symmetry, positions symmetric to each other share the entry of their
        # canonical key: the score holds for all of them, the move only in the orientation
        # it was stored from (a symmetric image has the same plain key only if it is the
        # same position), so an image's move is no hint here.
        orientation = <unsigned int>(self.kernel.hash_key() >> 32)
        key = self.kernel.canonical_key() if self.symmetry else self.kernel.hash_key()
        entry = &self.table[key & self.table_mask]
        if entry.key == key:
            if entry.orientation == orientation:
                tt_move = entry.move
            if entry.depth >= depth and not probe:
                score = from_tt(entry.score, ply)
                if (entry.bound == EXACT or (entry.bound == LOWER and score >= beta)
                        or (entry.bound == UPPER and score <= alpha)):
                    return score

        # The TT move is tried before the moves are generated: a cutoff then saves generating.
        best = -INFINITE_SCORE
        generated = False
        n = 0
        next_index = 0
        k = 0
        while True:
            if k == 0 and tt_move >= 0:
                move = tt_move
            else:
                if not generated:
                    n = self.ordered_moves(ply, player, tt_move)
                    generated = True
                if next_index == n:
                    break
                move = self.next_move(ply, next_index, n)
                next_index += 1
            self.kernel.make(move)
            if k == 0:
                score = self.search(depth - 1, alpha, beta, ply + 1, pov, False)
            else:
                reduction = 0
                if (self.lmr and depth >= 3 and k >= 4 and alpha < MATE_THRESHOLD
                        and alpha > -MATE_THRESHOLD):
                    reduction = 2 if k >= 16 and depth >= 5 else 1
                score = self.search(depth - 1 - reduction, alpha, alpha + WINDOW_EPS,
                                    ply + 1, pov, False)
                if score > alpha and reduction:
                    score = self.search(depth - 1, alpha, alpha + WINDOW_EPS, ply + 1, pov,
                                        False)
                if alpha < score < beta:
                    score = self.search(depth - 1, alpha, beta, ply + 1, pov, False)
            self.kernel.unmake()
            k += 1
            if self.stopped:
                return 0.0
            if score > best:
                best = score
                best_move = move
                if score > alpha:
                    alpha = score
                    self.pv[ply][0] = move
                    memcpy(&self.pv[ply][1], &self.pv[ply + 1][0],
                           self.pv_length[ply + 1] * sizeof(int))
                    self.pv_length[ply] = self.pv_length[ply + 1] + 1
                    if alpha >= beta:
                        self.history[player][history_slot(move)] += depth * depth
                        break
            if probe:
                break
        if k == 0:                     # out of memory for the move list
            return self.evaluator.evaluate(self.kernel)
        if not probe and (entry.key != key or entry.generation != self.generation
                          or depth >= entry.depth):
            entry.key = key
            entry.score = to_tt(best, ply)
            entry.move = best_move
            entry.orientation = orientation
            entry.depth = depth
            entry.generation = self.generation
            entry.bound = (LOWER if best >= beta else
                           UPPER if best <= original_alpha else EXACT)
        return best

    cdef double chance(self, int depth, double alpha, double beta, int ply, int pov) noexcept nogil:
        """The value of a chance node: a proof only when every outcome is proven the same way
        (then the average proof, i.e. the expected plies to the end), otherwise the average
        with proven outcomes bounded to +-PROOF_BOUND. Averaging a proof's MATE - n with
        evaluations would give a number that is neither.

        Searched as the bounded average first, in the caller's window pulled inside
        [-PROOF_BOUND, PROOF_BOUND]: a result strictly inside is exact; an average at the bound
        means every outcome is proven that way, and only if the caller's window reaches past
        the bound is the exact average proof searched for (outcomes then bounded to proofs).
        """
        cdef double a = min(max(alpha, -PROOF_BOUND), PROOF_BOUND - WINDOW_EPS)
        cdef double b = max(min(beta, PROOF_BOUND), -PROOF_BOUND + WINDOW_EPS)
        cdef double v = self.expectation(depth, a, b, ply, pov, -PROOF_BOUND, PROOF_BOUND)
        if self.stopped:
            return 0.0
        if v >= ALL_PROVEN and beta > PROOF_BOUND:
            return self.expectation(depth, alpha, beta, ply, pov, MATE_THRESHOLD, MATE)
        if v <= -ALL_PROVEN and alpha < -PROOF_BOUND:
            return self.expectation(depth, alpha, beta, ply, pov, -MATE, -MATE_THRESHOLD)
        return v

    cdef double expectation(self, int depth, double alpha, double beta, int ply, int pov,
                            double floor, double ceiling) noexcept nogil:
        """Expectimax with Star1 windows, after a Star2 probe of each outcome's first move,
        of the outcomes' values clamped to [floor, ceiling].

        ``low[i]``/``high[i]`` bound outcome i's value; they start at floor and ceiling and the
        probe tightens them (one move of a node where ``pov`` moves gives a lower bound, one
        move of an opponent node an upper bound). Then each outcome is searched in the window
        outside of which the whole expectation is already decided.
        """
        cdef long long n = self.kernel.moves(self.move_scratch, self.move_scratch_size)
        cdef long long i, j
        cdef double* p
        cdef double* low
        cdef double* high
        cdef int* outcomes
        cdef double done = 0.0, rest_low, rest_high, a, b, v, total_low, total_high
        cdef int mover
        if n > self.move_scratch_size:
            if not self.grow_scratch(n):
                return 0.0
            self.kernel.moves(self.move_scratch, self.move_scratch_size)
        if n > self.chance_capacity[ply]:
            if not self.grow_chance(ply, n):
                return 0.0
        p = self.probabilities[ply]
        low = p + n
        high = p + 2 * n
        outcomes = <int*>(p + 3 * n)
        memcpy(outcomes, self.move_scratch, n * sizeof(int))
        self.kernel.outcome_probabilities(p, n)
        for i in range(n):
            low[i] = floor
            high[i] = ceiling
        if self.star2:
            for i in range(n):
                a, b = self.window(i, n, p, low, high, alpha, beta, 0.0, True)
                a = max(a, low[i])
                b = min(b, high[i])
                if a >= b:
                    continue
                self.kernel.make(outcomes[i])
                mover = self.kernel.player()
                if mover >= 0:
                    v = min(max(self.search(depth, a, b, ply + 1, pov, True), floor), ceiling)
                    if mover == pov and v > a:
                        low[i] = v
                    elif mover != pov and v < b:
                        high[i] = v
                self.kernel.unmake()
                if self.stopped:
                    return 0.0
                total_low = 0.0
                total_high = 0.0
                for j in range(n):
                    total_low += p[j] * low[j]
                    total_high += p[j] * high[j]
                if total_low >= beta:
                    return total_low
                if total_high <= alpha:
                    return total_high
        for i in range(n):
            a, b = self.window(i, n, p, low, high, alpha, beta, done, False)
            rest_low = 0.0
            rest_high = 0.0
            for j in range(i + 1, n):
                rest_low += p[j] * low[j]
                rest_high += p[j] * high[j]
            if a >= high[i]:
                return done + p[i] * high[i] + rest_high
            if b <= low[i]:
                return done + p[i] * low[i] + rest_low
            self.kernel.make(outcomes[i])
            v = min(max(self.search(depth, max(a, low[i]), min(b, high[i]), ply + 1, pov,
                                    False), floor), ceiling)
            self.kernel.unmake()
            if self.stopped:
                return 0.0
            if v <= a:
                return done + p[i] * v + rest_high
            if v >= b:
                return done + p[i] * v + rest_low
            done += p[i] * v
        return done

    cdef (double, double) window(self, long long i, long long n, double* p, double* low,
                                 double* high, double alpha, double beta, double done,
                                 bint probing) noexcept nogil:
        """Star1: the values of outcome i outside which the expectation is decided, given the
        exact sum ``done`` of the outcomes before it (or, while ``probing``, their bounds)."""
        cdef double rest_low = 0.0, rest_high = 0.0
        cdef long long j
        for j in range(0 if probing else i + 1, n):
            if j != i:
                rest_low += p[j] * low[j]
                rest_high += p[j] * high[j]
        return ((alpha - done - rest_high) / p[i], (beta - done - rest_low) / p[i])

    cdef bint grow_chance(self, int ply, long long n) noexcept nogil:
        """Chance scratch: probabilities, low, high bounds (doubles) and outcomes (ints)."""
        cdef double* grown = <double*>realloc(self.probabilities[ply], 4 * n * sizeof(double))
        if grown == NULL:
            return False
        self.probabilities[ply] = grown
        self.chance_capacity[ply] = n
        return True

    # -- the root --------------------------------------------------------------------------

    def set_limits(self, double deadline=0.0, long long node_limit=0):
        """Stop at the monotonic ``deadline`` or after ``node_limit`` nodes (0: no limit)."""
        self.deadline = deadline
        self.node_limit = node_limit

    def set_stop(self, StopFlag flag=None):
        """Stop when ``flag`` is set (None: a fresh flag nobody else holds). Kept across
        searches until replaced."""
        self.stop = StopFlag() if flag is None else flag

    def begin(self, moves=None):
        """Start a search of the kernel's position: reset counters and limits, list the root
        moves (only those of ``moves`` if given: one of each symmetry class, so multi-PV
        lines are distinct choices and no line is a table hit of its twin without a PV)."""
        cdef long long n, i, kept = 0
        self.nodes = 0
        self.seldepth = 0
        self.stopped = False
        self.set_limits()
        self.generation = (self.generation + 1) & 0x7F
        for i in range(HISTORY_SIZE):
            self.history[0][i] //= 2
            self.history[1][i] //= 2
        self.root_count = 0
        self.root_searched = 0
        if self.kernel.player() < 0:
            return
        n = self.kernel.move_count()
        free(self.root_moves)
        free(self.root_scores)
        free(self.root_pv)
        free(self.root_pv_length)
        free(self.root_exact)
        self.root_moves = <int*>malloc(n * sizeof(int))
        self.root_scores = <double*>malloc(n * sizeof(double))
        self.root_pv = <int*>malloc(n * MAX_PLY * sizeof(int))
        self.root_pv_length = <int*>malloc(n * sizeof(int))
        self.root_exact = <bint*>malloc(n * sizeof(bint))
        if not (self.root_moves and self.root_scores and self.root_pv and self.root_pv_length
                and self.root_exact):
            raise MemoryError()
        self.kernel.moves(self.root_moves, n)
        for i in range(n):
            if moves is None or self.root_moves[i] in moves:
                self.root_moves[kept] = self.root_moves[i]
                self.root_scores[kept] = -INFINITE_SCORE
                kept += 1
        if kept == 0:
            raise ValueError("begin: none of the given root moves is legal here")
        self.root_count = kept

    @property
    def nodes(self):
        return self.nodes

    @property
    def seldepth(self):
        return self.seldepth

    @property
    def stopped(self):
        return self.stopped

    def partial(self, int multipv=1):
        """The root moves the interrupted iteration searched completely (an exact score, not
        a bound from a null or aspiration window), best first (ties in search order, so the
        previous best leads unless a move beat it), as ``(score, pv)`` lines; at most
        ``multipv`` of them, none if it finished no move."""
        scored = sorted(((self.root_scores[i], i) for i in range(self.root_searched)
                         if self.root_exact[i]), key=lambda item: -item[0])
        return [(score, self.root_line(i)) for score, i in scored[:multipv]]

    def unsearched_line(self):
        """What a search that finished no root move reports: the first root move (the move
        ordering's guess) at score 0."""
        return (0.0, (self.root_moves[0],) if self.root_count else ())

    cdef tuple root_line(self, long long i):
        return tuple(self.root_pv[i * MAX_PLY + j] for j in range(self.root_pv_length[i]))

    def iterate(self, int depth, int multipv=1, previous=None):
        """Search the root to ``depth``; return the best ``multipv`` lines as
        ``(score, pv)`` pairs (best first, root player's view; at a chance root one line with
        an empty PV), or None if a limit stopped the iteration."""
        cdef double alpha = -INFINITE_SCORE, beta = INFINITE_SCORE, best, value
        cdef int pov = self.kernel.player()
        cdef bint complete
        multipv = max(1, min(multipv, MAX_MULTIPV))
        self.chance_at[0] = pov == -1
        if pov == -1:
            with nogil:
                value = self.chance(depth, alpha, beta, 0, 0)
            return None if self.stopped else [(value, ())]
        if (self.aspiration and multipv == 1 and previous is not None
                and -MATE_THRESHOLD < previous < MATE_THRESHOLD):
            alpha = previous - ASPIRATION
            beta = previous + ASPIRATION
        with nogil:
            complete = self.root_iteration(depth, multipv, alpha, beta, pov)
        if not complete:
            return None
        best = self.root_scores[0]
        if best <= alpha or best >= beta:
            with nogil:
                complete = self.root_iteration(depth, multipv, -INFINITE_SCORE,
                                               INFINITE_SCORE, pov)
            if not complete:
                return None
        return [(self.root_scores[i], self.root_line(i))
                for i in range(min(multipv, self.root_count))]

    cdef bint root_iteration(self, int depth, int multipv, double alpha, double beta,
                             int pov) noexcept nogil:
        """Search every root move (PVS; the first ``multipv`` with an open window), then sort
        them best first, so the next iteration starts with the best. False if stopped."""
        cdef long long i, searched = 0
        cdef double floor, v
        cdef int move
        self.root_searched = 0
        for i in range(self.root_count):
            floor = max(alpha, self.kth_best(i, multipv))
            move = self.root_moves[i]
            self.kernel.make(move)
            if i < multipv:
                v = self.search(depth - 1, floor, beta, 1, pov, False)
            else:
                v = self.search(depth - 1, floor, floor + WINDOW_EPS, 1, pov, False)
                if floor < v < beta:
                    v = self.search(depth - 1, floor, beta, 1, pov, False)
            self.kernel.unmake()
            if self.stopped:
                return False
            searched += 1
            self.root_searched = searched
            self.root_scores[i] = v
            self.root_exact[i] = floor < v < beta
            self.root_pv[i * MAX_PLY] = move
            self.root_pv_length[i] = 1
            if v > floor:
                memcpy(&self.root_pv[i * MAX_PLY + 1], &self.pv[1][0],
                       self.pv_length[1] * sizeof(int))
                self.root_pv_length[i] += self.pv_length[1]
            if multipv == 1 and v >= beta:
                break
        self.sort_root(searched)
        return True

    cdef double kth_best(self, long long searched, int k) noexcept nogil:
        """The k-th best score among the first ``searched`` root moves (-inf if fewer)."""
        cdef double top[MAX_MULTIPV]
        cdef long long i, j
        cdef double v
        if searched < k:
            return -INFINITE_SCORE
        for j in range(k):
            top[j] = -INFINITE_SCORE
        for i in range(searched):
            v = self.root_scores[i]
            j = k - 1
            if v <= top[j]:
                continue
            while j > 0 and top[j - 1] < v:
                top[j] = top[j - 1]
                j -= 1
            top[j] = v
        return top[k - 1]

    cdef void sort_root(self, long long searched) noexcept nogil:
        """Stable insertion sort of the searched root moves by score, best first."""
        cdef long long i, j
        cdef int move, length
        cdef int line[MAX_PLY]
        cdef double score
        cdef bint exact
        for i in range(1, searched):
            score = self.root_scores[i]
            exact = self.root_exact[i]
            move = self.root_moves[i]
            length = self.root_pv_length[i]
            memcpy(line, &self.root_pv[i * MAX_PLY], length * sizeof(int))
            j = i
            while j > 0 and self.root_scores[j - 1] < score:
                self.root_scores[j] = self.root_scores[j - 1]
                self.root_exact[j] = self.root_exact[j - 1]
                self.root_moves[j] = self.root_moves[j - 1]
                self.root_pv_length[j] = self.root_pv_length[j - 1]
                memcpy(&self.root_pv[j * MAX_PLY], &self.root_pv[(j - 1) * MAX_PLY],
                       self.root_pv_length[j] * sizeof(int))
                j -= 1
            self.root_scores[j] = score
            self.root_exact[j] = exact
            self.root_moves[j] = move
            self.root_pv_length[j] = length
            memcpy(&self.root_pv[j * MAX_PLY], line, length * sizeof(int))
