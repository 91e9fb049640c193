# cython: language_level=3
"""Monte Carlo tree search over any GameKernel: UCT, chance nodes, MCTS-Solver, tree reuse.

The tree is one flat array of 32-byte ``Node`` structs; a node's children are a contiguous
block, so a node needs no child list and reuse is a compaction copy. A simulation walks down
from the root with ``make`` (no position copies), expands a leaf on its second visit, finishes
with a playout in C, backs the result up and unmakes back to the root. Results are stored from
player 0's view and turned into the mover's view when selecting, so nothing assumes strict
alternation. Chance nodes with few outcomes visit them in proportion to their exact
probabilities; with many, sample one by its probability. Proven results (MCTS-
Solver) come from terminal nodes: a decision node is proven as soon as one child wins for its
mover or all children are proven; a chance node when all outcomes are proven equal.

With ``decompose`` (issue 32) a decision node's children are the first stages of its moves
(engine/kernel.pxd ``stages``; Mattock's digs), chosen by UCT over the statistics the stage's
moves share, and a stage node's children are its moves (Mattock's walks), as Amazons programs
split a queen move from its arrow. A stage node makes no move (the kernel stays at its
parent's position), so it is expanded on its first visit, never played out from; a stage of
one move is that move's node, so a game without stages searches the plain tree. The answer is
a whole move: the most visited stage's most visited move (docs/search.md measures the trade).

Everything here is deterministic for a given seed: the generator (engine/rng.pxd) is the
only source of randomness, and time limits and the stop flag are only checked between
simulations.
"""
from libc.math cimport log, sqrt, tanh
from libc.stdlib cimport malloc, qsort, realloc, free

from crystalpick.engine.kernel cimport GameKernel, u64, MAX_PLIES
from crystalpick.engine.evaluation cimport Evaluator, PlayoutPolicy
from crystalpick.engine.rng cimport random_below, random_index, random_unit
from crystalpick.search.clock cimport now
from crystalpick.search.stop cimport StopFlag

cdef enum:
    MAX_DEPTH = MAX_PLIES   # tree and playout plies: any game fits
    UNKNOWN_MOVER = -3
    NOT_PROVEN = 0          # otherwise proven = 2 + player 0's result (1 loss, 2 draw, 3 win)
    RANDOM_PLAYOUT = 0
    HEURISTIC_PLAYOUT = 1
    PRIOR_PLAYOUT = 2       # no playout: expand the leaf, score it by its best move's prior
    HEURISTIC_SAMPLES = 4   # the heuristic playout picks the best of this many random moves
    CHECK_EVERY = 16        # simulations between clock and stop-flag checks
    FEW_OUTCOMES = 8        # chance nodes with at most this many outcomes are enumerated

cdef struct Node:
    double value            # sum of simulation results, player 0's view
    int visits
    int first_child         # -1 until expanded
    int move                # the move (or chance outcome) that leads here
    int child_count
    float probability       # of a chance outcome; for a move, its prior (player 0's view;
                            # with ``minimax``, the minimax of the priors below it)
    signed char mover       # player to move here, -1 chance, -2 terminal, -3 not yet seen
    signed char proven
    signed char stage       # a stage node (decompose): the parent's position with the
                            # stage ``move`` chosen, its children the stage's moves


def check_prior_options(str playout, double prior, double minimax, double widen=0.0):
    """ValueError if an option that reads the moves' priors is on without priors."""
    if widen > 0 and prior <= 0:
        raise ValueError("mcts: widen orders a node's moves by their priors, so it needs "
                         "prior > 0 (e.g. mcts:prior=1,widen=2)")
    if minimax > 0 and prior <= 0:
        raise ValueError("mcts: minimax backs up the moves' priors, so it needs prior > 0 "
                         "(e.g. mcts:prior=1,minimax=0.5)")
    if playout == "prior" and prior <= 0:
        raise ValueError("mcts: playout=prior scores a leaf by its moves' priors, so it "
                         "needs prior > 0 (e.g. mcts:playout=prior,prior=1)")


cdef inline double proven_result(Node* node) noexcept nogil:
    return node.proven - 2


cdef int higher_prior_first(const void* a, const void* b) noexcept nogil:
    cdef float x = (<Node*>a).probability, y = (<Node*>b).probability
    return (x < y) - (x > y)


cdef int lower_prior_first(const void* a, const void* b) noexcept nogil:
    cdef float x = (<Node*>a).probability, y = (<Node*>b).probability
    return (x > y) - (x < y)


cdef class MCTS:
    """A search tree over the kernel's position; keep the object to reuse the tree."""
    cdef GameKernel kernel
    cdef Evaluator evaluator
    cdef PlayoutPolicy policy
    cdef double result_scale      # evaluation units per tanh unit when a playout is cut short
    cdef Node* nodes
    cdef readonly int node_count
    cdef int node_capacity, max_nodes
    cdef public double exploration
    cdef public int playout
    cdef public int playout_depth
    cdef public bint solver
    cdef public double prior      # virtual visits of a move's prior value (0: no prior)
    cdef public double minimax    # weight of the priors' minimax in selection (0: none)
    cdef public double widen      # progressive widening: moves considered per sqrt(visit)
    cdef u64 rng
    cdef public bint decompose    # a turn as two decisions: its first stage, then the rest
    cdef int* moves
    cdef long long* counts        # with decompose, how many moves begin with each stage
    cdef long long moves_size
    cdef double* probabilities
    cdef long long probabilities_size
    cdef int path[MAX_DEPTH]
    cdef readonly long long made  # positions entered (tree descents and playout plies)
    cdef readonly long long simulations
    cdef readonly int max_tree_depth
    cdef StopFlag stop

    def __cinit__(self):
        self.stop = StopFlag()
        self.nodes = NULL
        self.moves = NULL
        self.counts = NULL
        self.probabilities = NULL

    def __init__(self, GameKernel kernel, Evaluator evaluator, PlayoutPolicy policy,
                 double exploration=0.5, str playout="random", bint solver=True,
                 unsigned long long seed=0, int max_nodes=16_000_000, int playout_depth=0,
                 double evaluation_scale=150.0, double prior=0.0, double minimax=0.0,
                 double widen=0.0, bint decompose=False):
        """``evaluator``, ``policy``, ``playout_depth`` and ``evaluation_scale`` are the game's
        (engine/game.py); the scale is in evaluation units per logistic unit. ``prior`` > 0:
        each new move is valued by the evaluation of the position it leads to, counted as
        that many visits when selecting (so a move the evaluation likes is tried first).
        ``minimax`` > 0 (needs priors): a move's prior becomes the minimax of the priors
        below it as the tree grows (implicit minimax backups), and selection mixes that in
        with this weight. ``widen`` > 0 (needs priors): progressive widening, a node's
        moves are sorted best prior first and selection considers only the first
        1 + widen x sqrt(visits) of them. ``decompose``: a decision node's children are
        the first stages of its moves (engine/kernel.pxd ``stages``), each a *stage node*
        whose children are the stage's moves (a stage of one move is that move's node), so a
        stage's statistics are shared by its moves and a node is expanded into its few stages
        rather than its many moves; a stage node is valued before its first visit by its
        first move's prior."""
        if playout not in ("random", "heuristic", "prior"):
            raise ValueError(f"unknown playout {playout!r}; expected random, heuristic or "
                             f"prior")
        if not 0 <= minimax <= 1:
            raise ValueError("minimax must lie in 0..1")
        if widen < 0:
            raise ValueError("widen must be at least 0")
        check_prior_options(playout, prior, minimax, widen)
        evaluator.check(kernel)
        policy.check(kernel)
        self.kernel = kernel
        self.evaluator = evaluator
        self.policy = policy
        self.result_scale = 2 * evaluation_scale      # tanh(x / 2s) = 2 sigmoid(x / s) - 1
        self.exploration = exploration
        self.playout = {"random": RANDOM_PLAYOUT, "heuristic": HEURISTIC_PLAYOUT,
                        "prior": PRIOR_PLAYOUT}[playout]
        self.solver = solver
        self.playout_depth = playout_depth
        self.prior = prior
        self.minimax = minimax
        self.widen = widen
        self.decompose = decompose
        self.rng = seed
        self.max_nodes = max_nodes
        self.node_capacity = 1024
        self.nodes = <Node*>malloc(self.node_capacity * sizeof(Node))
        self.moves_size = 1024
        self.moves = <int*>malloc(self.moves_size * sizeof(int))
        self.counts = <long long*>malloc(self.moves_size * sizeof(long long))
        self.probabilities_size = 1024
        self.probabilities = <double*>malloc(self.probabilities_size * sizeof(double))
        if not (self.nodes and self.moves and self.counts and self.probabilities):
            raise MemoryError()
        self.reset_root()

    def __dealloc__(self):
        free(self.nodes)
        free(self.moves)
        free(self.counts)
        free(self.probabilities)

    cdef void reset_root(self) noexcept nogil:
        self.node_count = 1
        self.init_node(0, -1, 1.0)

    cdef inline void init_node(self, int index, int move, float probability) noexcept nogil:
        cdef Node* node = &self.nodes[index]
        node.value = 0.0
        node.visits = 0
        node.first_child = -1
        node.move = move
        node.child_count = 0
        node.probability = probability
        node.mover = UNKNOWN_MOVER
        node.proven = NOT_PROVEN
        node.stage = 0

    # -- statistics for the Python side -----------------------------------------------------

    @staticmethod
    def bytes_per_node():
        return sizeof(Node)

    def reset_counters(self):
        """Count simulations, positions and depth from zero for a new search."""
        self.simulations = 0
        self.made = 0
        self.max_tree_depth = 0

    def root_children(self):
        """``(move, visits, value sum from player 0's view, proven result or None)`` per
        move of the root, in move-generation order (with ``widen``, best prior first); with
        ``decompose``, stage by stage, the moves of a stage never chosen with no visits."""
        cdef Node* root = &self.nodes[0]
        out = []
        for i in range(root.child_count if root.first_child >= 0 else 0):
            self.append_moves(root.first_child + i, out)
        return out

    def root_stage_visits(self):
        """``{move: visits}`` of the root's child holding each move in the tree: with
        ``decompose`` its stage node (whose visits its moves share), otherwise the move's
        own. The tree's choice is the most visited such child, then its most visited move."""
        cdef Node* root = &self.nodes[0]
        cdef Node* child
        cdef Node* below
        out = {}
        for i in range(root.child_count if root.first_child >= 0 else 0):
            child = &self.nodes[root.first_child + i]
            if not child.stage:
                out[child.move] = child.visits
            for j in range(child.child_count if child.stage and child.first_child >= 0 else 0):
                below = &self.nodes[child.first_child + j]
                out[below.move] = child.visits
        return out

    cdef append_moves(self, int index, list out):
        """Append the root's moves under child ``index``: itself, or a stage node's."""
        cdef Node* child = &self.nodes[index]
        cdef long long n, i
        if not child.stage:
            out.append((child.move, child.visits, child.value,
                        proven_result(child) if child.proven else None))
        elif child.first_child >= 0:
            for i in range(child.child_count):
                self.append_moves(child.first_child + i, out)
        else:
            n = self.load_stage_moves(child.move)
            if n < 0:
                raise MemoryError()
            for i in range(n):
                out.append((self.moves[i], 0, 0.0, None))

    def root_summary(self):
        """``(mover, visits, value sum, proven result or None)`` of the root."""
        cdef Node* root = &self.nodes[0]
        return (root.mover, root.visits, root.value,
                proven_result(root) if root.proven else None)

    def principal_variation(self, int first_move, int length=32):
        """Most-visited path below the root child ``first_move`` (chance nodes included)."""
        cdef int index = self.child_with_move(0, first_move)
        line = [first_move]
        while index >= 0 and len(line) < length:
            index = self.most_visited_child(index)
            if index >= 0:
                line.append(self.nodes[index].move)
        return line

    cdef int child_with_move(self, int parent, int move) noexcept nogil:
        """The node of ``move`` below ``parent`` (through its stage nodes), or -1."""
        cdef Node* node = &self.nodes[parent]
        cdef Node* child
        cdef int i, found
        if node.first_child < 0:
            return -1
        for i in range(node.child_count):
            child = &self.nodes[node.first_child + i]
            if child.stage:
                found = self.child_with_move(node.first_child + i, move)
                if found >= 0:
                    return found
            elif child.move == move:
                return node.first_child + i
        return -1

    cdef int most_visited_child(self, int parent) noexcept nogil:
        """The most visited move's node below ``parent``, or -1: through a stage node, the
        most visited stage's most visited move (the tree's two decisions)."""
        cdef Node* node = &self.nodes[parent]
        cdef int i, best = -1, best_visits = 0
        if node.first_child < 0:
            return -1
        for i in range(node.child_count):
            if self.nodes[node.first_child + i].visits > best_visits:
                best_visits = self.nodes[node.first_child + i].visits
                best = node.first_child + i
        if best >= 0 and self.nodes[best].stage:
            return self.most_visited_child(best)
        return best

    # -- running -----------------------------------------------------------------------------

    def set_stop(self, StopFlag flag=None):
        """Stop :meth:`run` when ``flag`` is set (None: a fresh flag nobody else holds).
        Kept across searches until replaced."""
        self.stop = StopFlag() if flag is None else flag

    def run(self, long long simulations, double deadline=0.0, long long node_limit=0):
        """Run up to ``simulations`` more simulations (stopping early at the monotonic
        ``deadline``, at ``node_limit`` positions entered, when the stop flag is set or when
        the root is proven); return how many ran. The first always runs, so the root has its
        moves."""
        cdef long long done = 0
        with nogil:
            while done < simulations:
                if self.nodes[0].proven != NOT_PROVEN:
                    break
                if node_limit > 0 and self.made >= node_limit:
                    break
                if done % CHECK_EVERY == 0 and done and (
                        self.stop.word[0] or (deadline > 0 and now() > deadline)):
                    break
                if not self.simulate():
                    break
                done += 1
        self.simulations += done
        return done

    cdef bint simulate(self) noexcept nogil:
        """One simulation; False only if out of memory for move lists. ``depth`` counts
        the nodes of the path, ``plies`` the moves made (a stage node makes none)."""
        cdef int depth = 0, plies = 0, index = 0, i
        cdef Node* node
        cdef double result
        self.path[0] = 0
        while True:
            node = &self.nodes[index]
            if node.mover == UNKNOWN_MOVER:
                node.mover = <signed char>self.kernel.player()
            if node.mover == -2:
                result = self.kernel.terminal_value()
                if self.solver:
                    node.proven = <signed char>(2 + result)
                break
            if node.proven != NOT_PROVEN:
                result = proven_result(node)
                break
            if node.first_child < 0:
                if self.playout == PRIOR_PLAYOUT and node.mover >= 0 and \
                        depth < MAX_DEPTH - 1 and self.expand(index):
                    result = self.best_prior(index)
                    break
                # a stage node is no position of its own to play out from
                if (index != 0 and node.visits == 0 and not node.stage) \
                        or depth >= MAX_DEPTH - 1 or not self.expand(index):
                    result = self.run_playout()
                    if result != result:          # NaN: out of memory
                        return False
                    break
                node = &self.nodes[index]         # expand may have moved the array
            index = self.select(index)
            if not self.nodes[index].stage:
                self.kernel.make(self.nodes[index].move)
                self.made += 1
                plies += 1
            depth += 1
            self.path[depth] = index
        if plies > self.max_tree_depth:
            self.max_tree_depth = plies
        for i in range(depth, -1, -1):
            node = &self.nodes[self.path[i]]
            node.visits += 1
            node.value += result
            if self.minimax > 0 and i > 0 and node.first_child >= 0 and node.mover >= 0 \
                    and self.nodes[self.path[i - 1]].mover >= 0:
                node.probability = <float>self.best_prior(self.path[i])   # its own prior
            if (self.solver and i < depth and node.proven == NOT_PROVEN
                    and self.nodes[self.path[i + 1]].proven != NOT_PROVEN):
                self.try_prove(self.path[i])
            if i > 0 and not node.stage:
                self.kernel.unmake()
        return True

    cdef bint expand(self, int index) noexcept nogil:
        """Give ``index`` its children (all moves or outcomes; with ``decompose``, a
        decision node its stages and a stage node its moves); False if the tree is full."""
        cdef signed char mover = self.nodes[index].mover
        cdef bint split = self.decompose and mover >= 0 and not self.nodes[index].stage
        cdef long long n = self.load_stages() if split else \
            self.load_stage_moves(self.nodes[index].move) if self.nodes[index].stage else \
            self.load_moves(mover)
        cdef int i, first
        cdef Node* grown
        if n <= 0 or self.node_count + n > self.max_nodes:
            return False
        while self.node_count + n > self.node_capacity:
            grown = <Node*>realloc(self.nodes, 2 * self.node_capacity * sizeof(Node))
            if grown == NULL:
                return False
            self.nodes = grown
            self.node_capacity *= 2
        first = self.node_count
        if split:
            self.init_stages(first, n, mover)
        else:
            for i in range(n):
                self.init_node(first + i, self.moves[i],
                               self.probabilities[i] if mover == -1 else
                               self.prior_value(self.moves[i]) if self.prior > 0 else 1.0)
        if self.widen > 0 and mover >= 0:
            qsort(&self.nodes[first], n, sizeof(Node), higher_prior_first
                  if mover == 0 else lower_prior_first)
        self.node_count += n
        self.nodes[index].first_child = first
        self.nodes[index].child_count = n
        return True

    cdef void init_stages(self, int first, long long n, signed char mover) noexcept nogil:
        """Nodes ``first``.. for the ``n`` stages in ``moves``: a stage of several moves a
        stage node of ``mover``'s, one of a single move that move's node; each valued by
        its first move's prior (for Mattock the dig without a walk)."""
        cdef int i, move
        for i in range(n):
            self.kernel.stage_moves(self.moves[i], &move, 1)
            self.init_node(first + i, self.moves[i] if self.counts[i] > 1 else move,
                           self.prior_value(move) if self.prior > 0 else 1.0)
            if self.counts[i] > 1:
                self.nodes[first + i].stage = 1
                self.nodes[first + i].mover = mover

    cdef inline int considered(self, Node* node) noexcept nogil:
        """How many of decision node ``node``'s children selection looks at: all, or with
        progressive widening the first 1 + widen x sqrt(visits) (best priors first)."""
        cdef double k
        if self.widen <= 0:
            return node.child_count
        k = 1.0 + self.widen * sqrt(<double>node.visits)
        return node.child_count if k >= node.child_count else <int>k

    cdef inline double evaluated(self, int player) noexcept nogil:
        """Player 0's result by the evaluation of this position, ``player`` to move."""
        cdef double value = tanh(self.evaluator.evaluate(self.kernel) / self.result_scale)
        return value if player == 0 else -value

    cdef double prior_value(self, int move) noexcept nogil:
        """Player 0's result after ``move`` as the evaluation sees it (exact if the game
        ends; 0 before a chance event)."""
        cdef double value = 0.0
        cdef int player
        self.kernel.make(move)
        self.made += 1
        player = self.kernel.player()
        if player == -2:
            value = self.kernel.terminal_value()
        elif player >= 0:
            value = self.evaluated(player)
        self.kernel.unmake()
        return value

    cdef double best_prior(self, int index) noexcept nogil:
        """Player 0's value of decision node ``index`` by a one-ply search over its moves'
        priors (the best for its mover)."""
        cdef Node* node = &self.nodes[index]
        cdef double sign = 1.0 if node.mover == 0 else -1.0, best = -2.0
        cdef int i
        # widened: the unconsidered moves keep their sorted priors, so the first of them is
        # the best of them
        for i in range(min(node.child_count, self.considered(node) + 1)):
            if sign * self.nodes[node.first_child + i].probability > best:
                best = sign * self.nodes[node.first_child + i].probability
        return sign * best

    cdef bint grow_moves(self, long long n) noexcept nogil:
        """Make room for ``n`` moves (and stage counts); False if out of memory."""
        cdef int* grown = <int*>realloc(self.moves, n * sizeof(int))
        cdef long long* grown_counts
        if grown == NULL:
            return False
        self.moves = grown
        grown_counts = <long long*>realloc(self.counts, n * sizeof(long long))
        if grown_counts == NULL:
            return False
        self.counts = grown_counts
        self.moves_size = n
        return True

    cdef long long load_stages(self) noexcept nogil:
        """Fill ``moves`` with the first stages of the legal moves and ``counts`` with how
        many moves begin with each; -1 if out of memory."""
        cdef long long n = self.kernel.stages(self.moves, self.counts, self.moves_size)
        if n > self.moves_size:
            if not self.grow_moves(n):
                return -1
            self.kernel.stages(self.moves, self.counts, n)
        return n

    cdef long long load_stage_moves(self, int stage) noexcept nogil:
        """Fill ``moves`` with the legal moves that begin with ``stage``; -1 if out of
        memory."""
        cdef long long n = self.kernel.stage_moves(stage, self.moves, self.moves_size)
        if n > self.moves_size:
            if not self.grow_moves(n):
                return -1
            self.kernel.stage_moves(stage, self.moves, n)
        return n

    cdef long long load_moves(self, int player) noexcept nogil:
        """Fill ``moves`` (and at a chance node, ``player`` -1, ``probabilities``); -1 if out
        of memory."""
        cdef long long n = self.kernel.moves(self.moves, self.moves_size)
        cdef double* grown_p
        if n > self.moves_size:
            if not self.grow_moves(n):
                return -1
            self.kernel.moves(self.moves, n)
        if player == -1:
            if n > self.probabilities_size:
                grown_p = <double*>realloc(self.probabilities, n * sizeof(double))
                if grown_p == NULL:
                    return -1
                self.probabilities = grown_p
                self.probabilities_size = n
            self.kernel.outcome_probabilities(self.probabilities, n)
        return n

    cdef int select(self, int index) noexcept nogil:
        cdef Node* node = &self.nodes[index]
        cdef Node* child
        cdef int i, best = -1
        cdef double sign, score, best_score = -1e300, log_visits, draw
        if node.mover == -1:
            if node.child_count <= FEW_OUTCOMES:
                return self.most_owed_outcome(node)
            draw = random_unit(&self.rng)
            for i in range(node.child_count):
                draw -= self.nodes[node.first_child + i].probability
                if draw < 0:
                    return node.first_child + i
            return node.first_child + node.child_count - 1
        sign = 1.0 if node.mover == 0 else -1.0
        log_visits = log(node.visits + 1.0)
        for i in range(self.considered(node)):
            child = &self.nodes[node.first_child + i]
            if child.proven != NOT_PROVEN:
                score = sign * proven_result(child)
                if score > 0:
                    return node.first_child + i
                score = -1e200 + score           # proven draw/loss: only if nothing else
            elif self.prior > 0:
                score = ((1 - self.minimax) * sign * (child.value + self.prior *
                                                      child.probability)
                         / (child.visits + self.prior) + self.minimax * sign * child.probability
                         + self.exploration * sqrt(log_visits / (child.visits + 1)))
            elif child.visits == 0:
                return node.first_child + i
            else:
                score = (sign * child.value / child.visits
                         + self.exploration * sqrt(log_visits / child.visits))
            if score > best_score:
                best_score = score
                best = node.first_child + i
        return best

    cdef int most_owed_outcome(self, Node* node) noexcept nogil:
        """With few outcomes, visit them in proportion instead of sampling: the one furthest
        below its share of the visits goes next (no sampling noise at these nodes)."""
        cdef int i, best = node.first_child
        cdef double owed, most = -1e300
        cdef Node* child
        for i in range(node.child_count):
            child = &self.nodes[node.first_child + i]
            owed = child.probability * (node.visits + 1) - child.visits
            if owed > most:
                most = owed
                best = node.first_child + i
        return best

    cdef void try_prove(self, int index) noexcept nogil:
        """MCTS-Solver: prove ``index`` from its children if they settle it."""
        cdef Node* node = &self.nodes[index]
        cdef Node* child
        cdef int i
        cdef double sign, value, best = -2.0, first = 0.0
        if node.first_child < 0:
            return
        sign = 1.0 if node.mover == 0 else -1.0
        for i in range(node.child_count):
            child = &self.nodes[node.first_child + i]
            if child.proven == NOT_PROVEN:
                if node.mover >= 0:
                    best = 2.0        # unproven: only a winning child can settle it now
                    continue
                return
            value = proven_result(child)
            if node.mover == -1:
                if i == 0:
                    first = value
                elif value != first:
                    return
                continue
            if sign * value > 0:
                node.proven = <signed char>(2 + value)
                return
            if sign * value > best:
                best = sign * value
        if node.mover == -1:
            node.proven = <signed char>(2 + first)
        elif best < 2.0:
            node.proven = <signed char>(2 + sign * best)

    cdef double run_playout(self) noexcept nogil:
        """Play to the end (or ``playout_depth`` plies, then score by the evaluation) from
        the current position, undo, and return player 0's result in [-1, 1] (0 if the game
        outlasts MAX_DEPTH plies, NaN if out of memory)."""
        cdef int plies = 0, player, move
        cdef long long n
        cdef double result = 0.0
        while plies < MAX_DEPTH:
            if self.playout_depth and plies >= self.playout_depth:
                player = self.kernel.player()
                if player >= 0:
                    result = self.evaluated(player)
                    break
            if self.playout == RANDOM_PLAYOUT:
                move = self.policy.sample_move(self.kernel, &self.rng)
                if move >= 0:
                    self.kernel.make(move)
                    plies += 1
                    continue
                player = -2 if move == -2 else self.kernel.player()
            else:
                player = self.kernel.player()
            if player == -2:
                result = self.kernel.terminal_value()
                break
            n = self.load_moves(player)
            if n < 0:
                result = 0.0 / 0.0
                break
            if player == -1:
                move = self.moves[random_index(self.probabilities, n, &self.rng)]
            elif self.playout == HEURISTIC_PLAYOUT:
                move = self.heuristic_move(n)
            else:
                move = self.moves[random_below(&self.rng, n)]
            self.kernel.make(move)
            plies += 1
        self.made += plies
        while plies:
            self.kernel.unmake()
            plies -= 1
        return result

    cdef int heuristic_move(self, long long n) noexcept nogil:
        """Best of a few random moves by the evaluation; a move that ends the game in the
        mover's favour is taken at once."""
        cdef int k, move, best = self.moves[0], mover = self.kernel.player(), next_player
        cdef double score, best_score = -1e300, result
        for k in range(HEURISTIC_SAMPLES):
            move = self.moves[random_below(&self.rng, n)]
            self.kernel.make(move)
            next_player = self.kernel.player()
            if next_player == -2:
                result = self.kernel.terminal_value()
                score = 1e6 * (result if mover == 0 else -result)
            elif next_player == mover:
                score = self.evaluator.evaluate(self.kernel)
            elif next_player >= 0:
                score = -self.evaluator.evaluate(self.kernel)
            else:
                score = 0.0
            self.kernel.unmake()
            if score > best_score:
                best_score = score
                best = move
        return best

    # -- tree reuse ----------------------------------------------------------------------------

    def reuse(self, GameKernel position, int max_plies=2):
        """Re-root at ``position`` if it lies within ``max_plies`` of the old root in the
        tree (found by Zobrist key), keeping that subtree; otherwise start afresh. Returns the
        number of nodes kept."""
        cdef u64 key = position.hash_key()
        cdef int found
        self.evaluator.check(position)
        self.policy.check(position)
        with nogil:
            found = self.find(0, key, max_plies)
        self.kernel = position
        if found < 0:
            self.reset_root()
            return 0
        return self.compact(found)

    cdef int find(self, int index, u64 key, int plies) noexcept nogil:
        """The node below ``index`` whose position has ``key`` (old kernel), or -1; a stage
        node is searched through, taking no ply."""
        cdef Node* node = &self.nodes[index]
        cdef Node* child
        cdef int i, found
        if not node.stage and self.kernel.hash_key() == key:
            return index
        if plies == 0 or node.first_child < 0:
            return -1
        for i in range(node.child_count):
            child = &self.nodes[node.first_child + i]
            if child.stage:
                found = self.find(node.first_child + i, key, plies)
            else:
                self.kernel.make(child.move)
                found = self.find(node.first_child + i, key, plies - 1)
                self.kernel.unmake()
            if found >= 0:
                return found
        return -1

    cdef int subtree_size(self, int root) noexcept nogil:
        """Nodes in the subtree under ``root``, itself included: a depth-first walk with one
        stack entry per ply (a path down the tree is a line of play, at most MAX_DEPTH)."""
        cdef int path[MAX_DEPTH + 1]
        cdef int next_child[MAX_DEPTH + 1]
        cdef int depth = 0, count = 1
        cdef Node* node
        path[0] = root
        next_child[0] = 0
        while depth >= 0:
            node = &self.nodes[path[depth]]
            if node.first_child >= 0 and next_child[depth] < node.child_count:
                path[depth + 1] = node.first_child + next_child[depth]
                next_child[depth] += 1
                depth += 1
                next_child[depth] = 0
                count += 1
            else:
                depth -= 1
        return count

    cdef int compact(self, int new_root) noexcept nogil:
        """Copy the subtree under ``new_root`` to the front of a fresh array, breadth first
        (children stay contiguous); return its size. The new array is sized to the subtree
        (at least 1,024 nodes), not to the old capacity: after a 16 M-node search the kept
        subtree is a fraction of it, where the old array and a fresh one of its size took
        up to 1 GB at once; the array grows again as the search needs."""
        cdef int size = self.subtree_size(new_root)
        cdef int capacity = max(size, 1024)
        cdef Node* fresh = <Node*>malloc(capacity * sizeof(Node))
        cdef int* source = <int*>malloc(size * sizeof(int))
        cdef int head = 0, tail = 1, i, old
        if fresh == NULL or source == NULL:
            free(fresh)
            free(source)
            self.reset_root()
            return 0
        fresh[0] = self.nodes[new_root]
        fresh[0].move = -1
        source[0] = new_root
        while head < tail:
            old = source[head]
            if self.nodes[old].first_child >= 0:
                fresh[head].first_child = tail
                for i in range(self.nodes[old].child_count):
                    fresh[tail] = self.nodes[self.nodes[old].first_child + i]
                    source[tail] = self.nodes[old].first_child + i
                    tail += 1
            head += 1
        free(self.nodes)
        free(source)
        self.nodes = fresh
        self.node_capacity = capacity
        self.node_count = tail
        return tail
