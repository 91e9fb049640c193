# cython: language_level=3
"""Information Set MCTS over any GameKernel with hidden information.

Each simulation starts from a *determinization*: the kernel's ``determinize`` replaces what the
root player cannot see by a random assignment consistent with their observation (and takes
back the others' secret choices the root player waits on, so they are made inside the
search), drawn through the playout policy (``PlayoutPolicy.determinize``), which as an
opponent model may condition it on what the others' past play showed (``infer`` in
search/engines/ismcts.py). The tree is a hash table of information sets keyed by the kernel's
``observation_key``: the root player's nodes by their own observation, the others' by the
public observation (``opponent="public"``, the default: one policy for every hand they might
hold, learnt from every simulation) or by their own (``opponent="own"``: conditioned on
their sampled hand, so rarely visited twice). Either way a player's policy cannot depend on
another's hidden hand or secret choice, and the second chooser of a simultaneous step cannot
see the first's choice: the two choices meet as a simultaneous game (decoupled selection).
Moves available at a public node vary between determinizations (the other hand); each node
keeps an arm per move ever seen and selects among the arms available now.

Selection is regret matching with exploration (Lisy, Kovarik, Lanctot, Bosansky 2013,
"Convergence of Monte Carlo Tree Search in Simultaneous Move Games"): sigma ~ positive
regrets, mixed with ``gamma`` uniform; the regret of each available arm b grows by
u/sigma(a) [b = a] - u. (EXP3 and plain UCT were tried and dropped:
docs/research/cardbattle-ismcts-selection.md.)

A node's first ``warmup`` visits play the game's playout move instead (counted in the values,
not in regrets or the average strategy): before it has learnt anything a node
plays like the playouts, not uniformly, so the values above it are not those of random
play. With ``model`` (a share in 0..1) the other players' nodes choose by the playout
policy, from the hand the determinization gave them, that share of the time, counted the
same way: an opponent model (1: the others play as the game's greedy policy would), where
the public information sets alone give them one policy for every hand. The recommended mixed
strategy at the root is regret matching's average strategy, each visit's strategy weighted
by the visit's number (linear averaging, as in CFR+: the first, uninformed visits fade).

With ``redraw`` (a share in 0..1) that share of the simulations also redraws the root
player's own hidden cards, as the public view allows (``determinize(PUBLIC_VIEW)``). The
root player's information sets for the hands drawn play them, and the others' information
sets then learn against every hand the root player might hold, in its public proportion,
instead of against the real one, which they cannot see (ISMCTS's non-locality; with
``opponent="own"`` the others' play may also depend on their own hand; their hand is drawn
from the public view too, so ``infer`` does not condition it there). Only the real hand's
simulations (those that draw it again, a share of about its probability: it suits small
games) reach the root and count in the root's win rate (``real_simulations``).

Rewards are the mover's result in [0, 1]. One expansion per simulation (the new information
set chooses nothing yet), then a playout to the end from it: uniform moves
(``playout="random"``) or the game's own playout moves (``PlayoutPolicy.playout_move``,
``"heuristic"``), each replaced by a uniform one with probability ``epsilon``; chance
outcomes by the kernel's ``sample_outcome``, which need not list them. Deterministic
for a given seed; time and the stop flag are checked between simulations.
"""
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memset

from crystalpick.engine.kernel cimport GameKernel, u64, MAX_PLIES, PUBLIC_VIEW
from crystalpick.engine.evaluation cimport PlayoutPolicy
from crystalpick.engine.rng cimport random_below, random_unit
from crystalpick.search.clock cimport now
from crystalpick.search.stop cimport StopFlag

cdef enum:
    CHECK_EVERY = 16
    EMPTY = -1

PLAYOUTS = ("heuristic", "random")
OPPONENTS = ("public", "own")
PLAYS = ("auto", "best")    # how the engine picks the move played (engines/ismcts.py)

cdef struct Node:           # one information set of one player
    u64 key
    int mover
    int first_arm
    int arm_count
    int arm_capacity
    long long visits

cdef struct Arm:
    int move
    int visits
    double value            # sum of the mover's rewards in [0, 1]
    double regret           # cumulative regret
    double strategy         # sum of the (exploration-free) strategy played: the average

cdef struct Step:           # one decision of the current simulation
    int node
    int arm
    int first_option        # into the options buffer: the arms available here
    int option_count
    double probability      # of the chosen arm (with exploration)


cdef inline u64 node_key(u64 observation, int mover) noexcept nogil:
    cdef u64 z = observation ^ ((<u64>(mover + 2)) * 0x9E3779B97F4A7C15ULL)
    z = (z ^ (z >> 31)) * 0xBF58476D1CE4E5B9ULL
    return z ^ (z >> 29)


cdef class ISMCTS:
    """A search from ``root_player``'s view of the kernel's position (never its hidden
    parts: every simulation redraws them)."""
    cdef GameKernel kernel
    cdef PlayoutPolicy policy
    cdef readonly int root_player
    cdef bint informed                  # playouts by the game's playout_move
    cdef int warmup                     # visits a node plays the playout policy first
    cdef double epsilon                 # informed playouts: share of uniform moves
    cdef double model                   # share of the others' choices by the playout policy
    cdef bint public                    # the others' nodes keyed by the public view
    cdef double redraw                  # share of simulations redrawing the root's hand too
    cdef u64 real_key                   # the root player's view in a simulation, real hand
    cdef public double gamma            # exploration: the uniform share of the strategy
    cdef u64 rng
    cdef Node* nodes
    cdef readonly int node_count
    cdef int node_capacity, max_nodes
    cdef int* table
    cdef int table_size
    cdef Arm* arms
    cdef int arm_count, arm_capacity
    cdef int* moves
    cdef long long moves_size
    cdef int* options
    cdef int options_size
    cdef double* sigma
    cdef int sigma_size
    cdef Step steps[MAX_PLIES]
    cdef int root_plies                 # the kernel's plies at the root: steps[] counts from it
    cdef u64 root_key
    cdef bint root_moves                # the root player decides here
    cdef readonly long long made
    cdef readonly long long simulations
    cdef readonly int max_tree_depth
    cdef readonly double result_sum     # root player's results in [0, 1], summed
    cdef readonly long long real_simulations    # those from the root player's real view
    cdef StopFlag stop

    def __cinit__(self):
        self.stop = StopFlag()
        self.nodes = NULL
        self.table = NULL
        self.arms = NULL
        self.moves = NULL
        self.options = NULL
        self.sigma = NULL

    def __init__(self, GameKernel kernel, PlayoutPolicy policy, int root_player,
                 double gamma=0.1, unsigned long long seed=0,
                 int max_nodes=1_000_000, str playout="random", int warmup=0,
                 str opponent="public", double epsilon=0.0, double model=0.0,
                 double redraw=0.0):
        if playout not in PLAYOUTS:
            raise ValueError(f"unknown playout {playout!r}; expected one of "
                             f"{', '.join(PLAYOUTS)}")
        self.informed = playout == "heuristic"
        self.warmup = warmup if self.informed else 0
        if not (0.0 <= epsilon <= 1.0 and 0.0 <= model <= 1.0 and 0.0 <= redraw <= 1.0):
            raise ValueError(f"epsilon, model and redraw are shares in 0..1, got {epsilon}, "
                             f"{model}, {redraw}")
        self.epsilon = epsilon
        self.model = model
        self.redraw = redraw
        if opponent not in OPPONENTS:
            raise ValueError(f"unknown opponent view {opponent!r}; expected one of "
                             f"{', '.join(OPPONENTS)}")
        self.public = opponent == "public"
        if root_player not in (0, 1):
            raise ValueError(f"root player must be 0 or 1, got {root_player}")
        policy.check(kernel)
        cdef u64 probe = seed
        twin = kernel.clone()
        if (<GameKernel>twin).determinize(root_player, &probe) < 0:
            raise ValueError(f"{type(kernel).__name__}: the game has no hidden information "
                             f"to sample (ismcts searches hidden-information games)")
        # what the root player sees in a simulation: a redraw that gives the real hand back
        # sees the same
        self.real_key = (<GameKernel>twin).observation_key(root_player)
        self.kernel = kernel
        self.policy = policy
        self.root_player = root_player
        self.gamma = gamma
        self.rng = seed
        self.max_nodes = max_nodes
        self.node_capacity = 1024
        self.table_size = 4096
        self.arm_capacity = 8192
        self.moves_size = 256
        self.options_size = 4096
        self.sigma_size = 256
        self.nodes = <Node*>malloc(self.node_capacity * sizeof(Node))
        self.table = <int*>malloc(self.table_size * sizeof(int))
        self.arms = <Arm*>malloc(self.arm_capacity * sizeof(Arm))
        self.moves = <int*>malloc(self.moves_size * sizeof(int))
        self.options = <int*>malloc(self.options_size * sizeof(int))
        self.sigma = <double*>malloc(self.sigma_size * sizeof(double))
        if not (self.nodes and self.table and self.arms and self.moves and self.options
                and self.sigma):
            raise MemoryError()
        for i in range(self.table_size):
            self.table[i] = EMPTY
        self.node_count = self.arm_count = 0
        self.root_key = node_key(kernel.observation_key(root_player), root_player)
        self.root_moves = kernel.player() == root_player

    def __dealloc__(self):
        free(self.nodes)
        free(self.table)
        free(self.arms)
        free(self.moves)
        free(self.options)
        free(self.sigma)

    @staticmethod
    def bytes_per_node():
        """A node, its share of the table and one arm (a node has a few)."""
        return sizeof(Node) + 2 * sizeof(int) + sizeof(Arm)

    def set_stop(self, StopFlag flag=None):
        self.stop = StopFlag() if flag is None else flag

    # -- the table of information sets --------------------------------------------------------

    cdef int find(self, u64 key) noexcept nogil:
        cdef int slot = <int>(key & <u64>(self.table_size - 1))
        while self.table[slot] != EMPTY:
            if self.nodes[self.table[slot]].key == key:
                return self.table[slot]
            slot = (slot + 1) & (self.table_size - 1)
        return EMPTY

    cdef bint grow_table(self) noexcept nogil:
        cdef int size = 2 * self.table_size, i, slot
        cdef int* grown = <int*>malloc(size * sizeof(int))
        if grown == NULL:
            return False
        for i in range(size):
            grown[i] = EMPTY
        for i in range(self.node_count):
            slot = <int>(self.nodes[i].key & <u64>(size - 1))
            while grown[slot] != EMPTY:
                slot = (slot + 1) & (size - 1)
            grown[slot] = i
        free(self.table)
        self.table = grown
        self.table_size = size
        return True

    cdef int create(self, u64 key, int mover) noexcept nogil:
        """A new node (EMPTY when the tree is full or memory runs out)."""
        cdef Node* grown
        cdef int slot, index
        if self.node_count >= self.max_nodes:
            return EMPTY
        if 2 * (self.node_count + 1) > self.table_size and not self.grow_table():
            return EMPTY
        if self.node_count == self.node_capacity:
            grown = <Node*>realloc(self.nodes, 2 * self.node_capacity * sizeof(Node))
            if grown == NULL:
                return EMPTY
            self.nodes = grown
            self.node_capacity *= 2
        index = self.node_count
        self.node_count += 1
        self.nodes[index].key = key
        self.nodes[index].mover = mover
        self.nodes[index].first_arm = 0
        self.nodes[index].arm_count = 0
        self.nodes[index].arm_capacity = 0
        self.nodes[index].visits = 0
        slot = <int>(key & <u64>(self.table_size - 1))
        while self.table[slot] != EMPTY:
            slot = (slot + 1) & (self.table_size - 1)
        self.table[slot] = index
        return index

    cdef int arm_of(self, int index, int move) noexcept nogil:
        """The arm of ``move`` at node ``index``, added if new (-1: out of memory)."""
        cdef Node* node = &self.nodes[index]
        cdef int i, capacity, first
        cdef Arm* grown
        for i in range(node.arm_count):
            if self.arms[node.first_arm + i].move == move:
                return node.first_arm + i
        if node.arm_count == node.arm_capacity:          # move the block to the end, larger
            capacity = 2 * node.arm_capacity if node.arm_capacity else 4
            while self.arm_count + capacity > self.arm_capacity:
                grown = <Arm*>realloc(self.arms, 2 * self.arm_capacity * sizeof(Arm))
                if grown == NULL:
                    return -1
                self.arms = grown
                self.arm_capacity *= 2
            first = self.arm_count
            for i in range(node.arm_count):
                self.arms[first + i] = self.arms[node.first_arm + i]
            node.first_arm = first
            node.arm_capacity = capacity
            self.arm_count += capacity
        i = node.first_arm + node.arm_count
        node.arm_count += 1
        memset(&self.arms[i], 0, sizeof(Arm))
        self.arms[i].move = move
        return i

    # -- running -----------------------------------------------------------------------------

    def run(self, long long simulations, double deadline=0.0, long long node_limit=0):
        """Run up to ``simulations`` more simulations, stopping early at the monotonic
        ``deadline``, at ``node_limit`` positions entered or when the stop flag is set;
        return how many ran (the first always runs)."""
        cdef long long done = 0
        with nogil:
            while done < simulations:
                if node_limit > 0 and self.made >= node_limit and done:
                    break
                if done % CHECK_EVERY == 0 and done and (
                        self.stop.word[0] or (deadline > 0 and now() > deadline)):
                    break
                if not self.simulate():
                    break
                done += 1
        self.simulations += done
        return done

    cdef long long load_moves(self) noexcept nogil:
        cdef long long n = self.kernel.moves(self.moves, self.moves_size)
        cdef int* grown
        if n > self.moves_size:
            grown = <int*>realloc(self.moves, n * sizeof(int))
            if grown == NULL:
                return -1
            self.moves, self.moves_size = grown, n
            self.kernel.moves(self.moves, n)
        return n

    cdef bint simulate(self) noexcept nogil:
        """One simulation from a fresh determinization; False if out of memory."""
        cdef int base = self.kernel.plies(), depth = 0, player, index, move, arm, i
        cdef long long n
        self.root_plies = base
        # before the root's own decision (another player's secret choice taken back) every
        # information set joins the tree and chooses, so the simulation reaches the root
        cdef bint expanded = False, before_root = self.root_moves, real = True
        cdef u64 key
        cdef double result = 0.0, u
        cdef Step* step
        cdef Arm* a
        if self.redraw > 0 and (self.redraw >= 1 or random_unit(&self.rng) < self.redraw):
            # the root player's hand redrawn as the others see it: their information sets
            # then answer every hand the root player might hold, played by the root player's
            # own (other) information sets, not the real hand they could not see
            self.kernel.determinize(PUBLIC_VIEW, &self.rng)
            real = self.kernel.observation_key(self.root_player) == self.real_key
        else:
            self.policy.determinize(self.kernel, self.root_player, &self.rng)
        while self.kernel.plies() - self.root_plies < MAX_PLIES - 1:
            player = self.kernel.player()
            if player == -2:
                result = self.kernel.terminal_value()
                break
            if player == -1:
                move = self.kernel.sample_outcome(&self.rng)
                if move < 0:
                    return self.unwind(base, False)
                self.kernel.make(move)
                self.made += 1
                continue
            n = self.load_moves()
            if n <= 0:
                return self.unwind(base, False)
            key = node_key(self.kernel.observation_key(self.viewer(player)), player)
            if key == self.root_key or (player == self.root_player and not real):
                before_root = False
            index = self.find(key)
            if index == EMPTY and before_root:
                index = self.create(key, player)
            if index == EMPTY:
                # a new information set joins the tree; the playout starts from it, so no
                # uniform first choice at a node nobody has learnt anything about
                if not expanded:
                    self.create(key, player)
                    expanded = True
                result = self.playout()
                if result != result:
                    return self.unwind(base, False)
                break
            if not self.choose(index, n, depth):
                return self.unwind(base, False)
            move = self.arms[self.steps[depth].arm].move
            depth += 1
            self.kernel.make(move)
            self.made += 1
        if depth > self.max_tree_depth:
            self.max_tree_depth = depth
        if real:
            self.result_sum += (1.0 + (result if self.root_player == 0 else -result)) / 2
            self.real_simulations += 1
        for i in range(depth - 1, -1, -1):
            step = &self.steps[i]
            player = self.nodes[step.node].mover
            u = (1.0 + (result if player == 0 else -result)) / 2
            self.nodes[step.node].visits += 1
            a = &self.arms[step.arm]
            a.visits += 1
            a.value += u
            if step.probability == 0:         # a warm-up or modelled choice: no regret
                continue
            for arm in range(step.option_count):
                self.arms[self.options[step.first_option + arm]].regret -= u
            a.regret += u / step.probability
        return self.unwind(base, True)

    cdef inline int viewer(self, int player) noexcept nogil:
        """Whose observation keys ``player``'s information set."""
        return player if player == self.root_player or not self.public else PUBLIC_VIEW

    cdef bint unwind(self, int base, bint ok) noexcept nogil:
        while self.kernel.plies() > base:
            self.kernel.unmake()
        return ok

    cdef bint follow_policy(self, Step* step, long long n) noexcept nogil:
        """Make the playout policy's move this step's choice, with probability 0 (no regret
        is learnt from it), if it is among the ``n`` moves loaded."""
        cdef int i, move = self.policy.playout_move(self.kernel, &self.rng)
        for i in range(n):
            if self.moves[i] == move:
                step.arm = self.options[step.first_option + i]
                step.probability = 0.0
                return True
        return False

    cdef bint choose(self, int index, long long n, int depth) noexcept nogil:
        """Select among the arms of ``index`` available now (the moves loaded); fill step
        ``depth``; False if out of memory."""
        cdef int i, arm, first, chosen = 0
        cdef int* grown
        cdef double* grown_s
        cdef double total = 0.0, score, gamma = self.gamma, draw
        cdef double average_weight
        cdef Arm* a
        cdef Step* step = &self.steps[depth]
        first = 0 if depth == 0 else \
            self.steps[depth - 1].first_option + self.steps[depth - 1].option_count
        if first + n > self.options_size:
            grown = <int*>realloc(self.options, 2 * (first + n) * sizeof(int))
            if grown == NULL:
                return False
            self.options = grown
            self.options_size = <int>(2 * (first + n))
        if n > self.sigma_size:
            grown_s = <double*>realloc(self.sigma, n * sizeof(double))
            if grown_s == NULL:
                return False
            self.sigma = grown_s
            self.sigma_size = <int>n
        for i in range(n):
            arm = self.arm_of(index, self.moves[i])
            if arm < 0:
                return False
            self.options[first + i] = arm
        step.node = index
        step.first_option = first
        step.option_count = <int>n
        if self.nodes[index].mover != self.root_player and self.model > 0 and (
                self.model >= 1 or random_unit(&self.rng) < self.model) and \
                self.follow_policy(step, n):
            return True     # the other player as the playout policy models them (their hand)
        if self.nodes[index].visits < self.warmup and self.follow_policy(step, n):
            # too few visits to have learnt anything: play as the playouts do (if the policy
            # has a move here), so values above are not those of uniform play
            return True
        for i in range(n):
            a = &self.arms[self.options[first + i]]
            self.sigma[i] = a.regret if a.regret > 0 else 0.0
            total += self.sigma[i]
        # linear averaging weighs the strategy by the node's visit number: the early,
        # uninformed strategies fade instead of fixing the average
        average_weight = self.nodes[index].visits + 1.0
        for i in range(n):
            self.sigma[i] = self.sigma[i] / total if total > 0 else 1.0 / n
            self.arms[self.options[first + i]].strategy += average_weight * self.sigma[i]
        draw = random_unit(&self.rng)
        chosen = <int>n - 1
        for i in range(n):
            score = (1.0 - gamma) * self.sigma[i] + gamma / n
            draw -= score
            if draw < 0:
                chosen = i
                break
        step.arm = self.options[first + chosen]
        step.probability = (1.0 - gamma) * self.sigma[chosen] + gamma / n
        return True

    cdef double playout(self) noexcept nogil:
        """Random moves to the end (unmade by the caller); player 0's result, NaN if out of
        memory."""
        cdef int player, move
        cdef long long n
        while self.kernel.plies() - self.root_plies < MAX_PLIES - 1:
            move = (self.policy.playout_move(self.kernel, &self.rng) if self.informed and (
                        self.epsilon == 0 or random_unit(&self.rng) >= self.epsilon)
                    else self.policy.sample_move(self.kernel, &self.rng))
            if move >= 0:
                self.kernel.make(move)
                self.made += 1
                continue
            player = -2 if move == -2 else self.kernel.player()
            if player == -2:
                return self.kernel.terminal_value()
            if player == -1:
                move = self.kernel.sample_outcome(&self.rng)
            else:
                n = self.load_moves()
                move = self.moves[random_below(&self.rng, n)] if n > 0 else -1
            if move < 0:
                return 0.0 / 0.0
            self.kernel.make(move)
            self.made += 1
        return 0.0

    # -- what the search found -------------------------------------------------------------

    def root_is_secret(self):
        """Whether the root player's decision is a secret simultaneous choice, where a
        mixed strategy is the point: they wait on another player's secret choice (the
        determinization takes it back), or their own move stays hidden from the others
        (every legal move leaves the public observation the same). Otherwise (a call, a
        boost) the others see the move and answer it, as in a sequential game."""
        cdef u64 probe = 0, seen = 0
        cdef long long n, i
        cdef int moves[512]
        twin = self.kernel.clone()
        cdef GameKernel k = <GameKernel>twin
        if k.player() != self.root_player:
            return False
        k.determinize(self.root_player, &probe)
        if k.player() != self.root_player:
            return True
        k.unmake()
        n = k.moves(moves, 512)
        if n > 512:
            return True
        for i in range(n):
            k.make(moves[i])
            if i == 0:
                seen = k.observation_key(PUBLIC_VIEW)
            elif k.observation_key(PUBLIC_VIEW) != seen:
                k.unmake()
                return False
            k.unmake()
        return n > 1

    def root_arms(self):
        """``(move, visits, value sum, average-strategy sum)`` per arm of the root
        player's node for this position, in the order first seen (empty if the root player
        is not to move or the node was never reached)."""
        cdef int index = self.find(self.root_key), i
        cdef Arm* a
        if index == EMPTY:
            return []
        out = []
        for i in range(self.nodes[index].arm_count):
            a = &self.arms[self.nodes[index].first_arm + i]
            out.append((a.move, a.visits, a.value, a.strategy))
        return out

    def reset_counters(self):
        self.simulations = 0
        self.made = 0
        self.max_tree_depth = 0
        self.result_sum = 0.0
        self.real_simulations = 0
