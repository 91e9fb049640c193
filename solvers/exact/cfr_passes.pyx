# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""One CFR+ update of one player over the whole information-set graph, in C.

The same arithmetic as ``cfr.CFRPlus.reference_update`` (numpy, a level of the graph at a
time), as plain loops over the graph's node ids: ids are in post-order (every child below
its parents), so ascending ids are the backward pass and descending ids the forward ones.
numpy's temporaries and scattered adds make the reference five to seven times slower; here
a pass is one sweep over the edges (docs/cardbattle.md has the rates).
"""
import numpy as np


cdef inline double edge_weight(long long e, long long mover, int keep, const double[:] prob,
                               const long long[:] slot, const double[:] sigma) noexcept nogil:
    """Chance's probability, the mover's current strategy, or 1 at player ``keep``'s."""
    if mover < 0:
        return prob[e]
    if mover == keep:
        return 1.0
    return sigma[slot[e]]


cdef void forward(double[:] reach, int keep, long long root, const long long[:] start,
                  const long long[:] child, const double[:] prob, const long long[:] slot,
                  const long long[:] player, const double[:] sigma) noexcept nogil:
    """Every node's reach with player ``keep``'s own moves left out (-1: nobody's)."""
    cdef long long node, e
    cdef double here
    reach[:] = 0.0
    reach[root] = 1.0
    for node in range(root, -1, -1):
        here = reach[node]
        if here == 0.0:
            continue
        for e in range(start[node], start[node + 1]):
            reach[child[e]] += here * edge_weight(e, player[node], keep, prob, slot, sigma)


cdef class Passes:
    """The graph's arrays, typed once, and the scratch an update needs: ``update`` then takes
    only what changes between calls."""
    cdef long long root
    cdef const long long[:] start, child, slot, node_player
    cdef const double[:] prob, terminal
    cdef const long long[:] infoset_first, infoset_size, infoset_player, infoset_node
    cdef double[:] sigma, values, counterfactual, own, q

    def __init__(self, tree):
        """``tree``: a ``GameTree``."""
        self.root = tree.root
        self.start, self.child, self.slot = tree.edge_start, tree.edge_child, tree.edge_slot
        self.prob, self.node_player, self.terminal = tree.edge_prob, tree.player, tree.value
        self.infoset_first, self.infoset_size = tree.infoset_first, tree.infoset_size
        self.infoset_player, self.infoset_node = tree.infoset_player, tree.infoset_node
        self.sigma, self.q = np.zeros(tree.slots), np.zeros(tree.slots)
        self.values, self.counterfactual, self.own = (np.zeros(tree.nodes), np.zeros(tree.nodes),
                                                      np.zeros(tree.nodes))

    def update(self, int player, long long iteration, double[:] regret, double[:] total):
        """Regret matching to ``sigma``, the values and reaches under it, then ``player``'s
        regrets (floored at zero) and its average weighted by ``iteration + 1``."""
        cdef const long long[:] start = self.start, child = self.child, slot = self.slot
        cdef const long long[:] node_player = self.node_player
        cdef const double[:] prob = self.prob, terminal = self.terminal
        cdef const long long[:] infoset_first = self.infoset_first
        cdef const long long[:] infoset_size = self.infoset_size
        cdef const long long[:] infoset_player = self.infoset_player
        cdef const long long[:] infoset_node = self.infoset_node
        cdef double[:] sigma = self.sigma, values = self.values, q = self.q
        cdef double[:] counterfactual = self.counterfactual, own = self.own
        cdef long long nodes = node_player.shape[0]
        cdef long long sets = infoset_first.shape[0]
        cdef long long i, s, node, e, first, size
        cdef double positive, baseline, utility, weight
        with nogil:
            for i in range(sets):                        # regret matching
                first, size = infoset_first[i], infoset_size[i]
                positive = 0.0
                for s in range(first, first + size):
                    positive += regret[s]
                for s in range(first, first + size):
                    sigma[s] = regret[s] / positive if positive > 0.0 else 1.0 / size
            for node in range(nodes):                    # backward: the first player's value
                if start[node + 1] == start[node]:
                    values[node] = terminal[node]
                    continue
                weight = 0.0
                for e in range(start[node], start[node + 1]):
                    weight += edge_weight(e, node_player[node], -1, prob, slot, sigma) \
                        * values[child[e]]
                values[node] = weight
            forward(counterfactual, player, self.root, start, child, prob, slot, node_player,
                    sigma)
            forward(own, 1 - player, self.root, start, child, prob, slot, node_player, sigma)
            q[:] = 0.0
            for node in range(nodes):                    # counterfactual values of the slots
                if node_player[node] != player or counterfactual[node] == 0.0:
                    continue
                for e in range(start[node], start[node + 1]):
                    utility = values[child[e]] if player == 0 else 1.0 - values[child[e]]
                    q[slot[e]] += counterfactual[node] * utility
            for i in range(sets):
                if infoset_player[i] != player:
                    continue
                first, size = infoset_first[i], infoset_size[i]
                baseline = 0.0
                for s in range(first, first + size):
                    baseline += sigma[s] * q[s]
                weight = (iteration + 1) * own[infoset_node[i]]
                for s in range(first, first + size):
                    regret[s] = max(regret[s] + q[s] - baseline, 0.0)
                    total[s] += weight * sigma[s]
