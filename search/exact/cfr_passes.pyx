# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""One CFR+ update of one player over the whole information-set graph, in C.

The same arithmetic as ``cfr.CFRPlus.reference_update`` (numpy, a level of the graph at a
time), as plain loops over the graph's node ids: ids are in post-order (every child below
its parents), so ascending ids are the backward pass and descending ids the forward ones.
numpy's scattered adds (``np.add.at``) made the reference spend ~1 us a node an iteration;
here a pass is one sweep over the edges (docs/cardbattle.md has the rates).
"""


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


def update(int player, long long iteration, long long root,
           const long long[:] start, const long long[:] child, const double[:] prob,
           const long long[:] slot, const long long[:] node_player, const double[:] terminal,
           const long long[:] infoset_first,
           const long long[:] infoset_size, const long long[:] infoset_player,
           const long long[:] representative,
           double[:] regret, double[:] total,
           double[:] sigma, double[:] values, double[:] counterfactual, double[:] own,
           double[:] q):
    """Regret matching to ``sigma``, the values and reaches under it, then ``player``'s
    regrets (floored at zero) and its average weighted by ``iteration + 1``; the last five
    arrays are scratch."""
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
        forward(counterfactual, player, root, start, child, prob, slot, node_player, sigma)
        forward(own, 1 - player, root, start, child, prob, slot, node_player, sigma)
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
            weight = (iteration + 1) * own[representative[i]]
            for s in range(first, first + size):
                regret[s] = max(regret[s] + q[s] - baseline, 0.0)
                total[s] += weight * sigma[s]
