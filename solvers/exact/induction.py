"""Backward induction with a matrix game at each simultaneous choice: exact where nothing is
hidden but that choice.

Works on the position graph (``build_tree(recall=False)``: nodes are positions, information
sets are (mover, observation) groups). It is exact when every group is either one position
(the mover knows the whole state, which then also sums up the past, so what came before does
not matter) or the positions a simultaneous choice leads to: exactly the children of one
position of the other player that is itself alone in its group. Such a pair is one matrix game
(first chooser's moves by second chooser's moves, entries the values after both), solved by
linear programming; any other group means something else is hidden, and the solver refuses
(solve over information sets with CFR+ then).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from crystalpick.engine.game import CHANCE, TERMINAL, GameError

from .matrix import solve_matrix_game
from .tree import GameTree


class NotExact(GameError):
    """Something other than a simultaneous choice is hidden: backward induction does not
    apply."""


@dataclass(frozen=True)
class InductionResult:
    value: float            # the first player's equilibrium win probability
    positions: int
    matrix_games: int
    mixed_games: int        # matrix games whose equilibrium found mixes (no saddle point)
    seconds: float
    # (player, observation) -> {move: probability}: the subgame-perfect equilibrium found,
    # what a policy that reads the observation plays (tests/test_local_best_response.py)
    strategy: dict = field(default_factory=dict, repr=False)


def simultaneous_pairs(tree: GameTree) -> dict[int, int]:
    """First chooser's node -> the second chooser's information set, for every group of more
    than one position; :class:`NotExact` if such a group is not one simultaneous choice."""
    if tree.recall:
        raise ValueError("backward induction runs on the position graph (recall=False)")
    members: dict[int, list[int]] = {}
    for node, infoset in enumerate(tree.infoset.tolist()):
        if infoset >= 0:
            members.setdefault(infoset, []).append(node)
    parents: dict[int, set[int]] = {}
    for parent, child in zip(tree.edge_parent.tolist(), tree.edge_child.tolist()):
        parents.setdefault(child, set()).add(parent)
    pairs = {}
    for infoset, nodes in members.items():
        if len(nodes) == 1:
            continue
        above = set().union(*(parents.get(n, set()) for n in nodes))
        info = tree.infosets[infoset]
        first = next(iter(above)) if len(above) == 1 else None
        if (first is None or tree.player[first] in (CHANCE, TERMINAL)
                or tree.player[first] == info.player
                or len(members[tree.infoset[first]]) != 1
                or set(tree.edge_child[tree.children(first)].tolist()) != set(nodes)):
            raise NotExact(f"player {info.player + 1}'s observation {info.observation!r} "
                           f"is shared by {len(nodes)} positions that are not the outcomes "
                           f"of one simultaneous choice: something else is hidden")
        pairs[first] = infoset
    return pairs


def solve_by_induction(tree: GameTree) -> InductionResult:
    """The exact equilibrium value of the game on ``tree`` (see the module docstring), and
    the subgame-perfect strategy that backs it."""
    start = time.perf_counter()
    pairs = simultaneous_pairs(tree)
    values = [0.0] * tree.nodes
    player = tree.player.tolist()
    starts = tree.edge_start.tolist()
    child = tree.edge_child.tolist()
    prob = tree.edge_prob.tolist()
    mixed = 0
    strategy = {}

    def keep(infoset: int, probabilities) -> None:
        info = tree.infosets[infoset]
        strategy[(info.player, info.observation)] = dict(zip(info.moves,
                                                             map(float, probabilities)))
    seconds_of = set(n for n in range(tree.nodes)
                     if tree.infoset[n] >= 0 and tree.infoset[n] in pairs.values())
    for node in range(tree.nodes):           # post-order: children first
        kids = child[starts[node]:starts[node + 1]]
        if player[node] == TERMINAL:
            values[node] = tree.value[node]
        elif player[node] == CHANCE:
            values[node] = sum(p * values[k]
                               for p, k in zip(prob[starts[node]:starts[node + 1]], kids))
        elif node in pairs:
            # rows: the first chooser's moves, maximising its own win probability
            table = [[values[g] for g in child[starts[k]:starts[k + 1]]] for k in kids]
            if player[node] != 0:
                table = [[1.0 - v for v in row] for row in table]
            result = solve_matrix_game(table)
            values[node] = result.value if player[node] == 0 else 1.0 - result.value
            mixed += result.row.max() < 1.0 - 1e-9 or result.column.max() < 1.0 - 1e-9
            keep(tree.infoset[node], result.row)
            keep(pairs[node], result.column)
        elif node not in seconds_of:
            pick = max if player[node] == 0 else min
            values[node] = pick(values[k] for k in kids)
            best = kids.index(pick(kids, key=lambda k: values[k]))
            keep(tree.infoset[node], [float(i == best) for i in range(len(kids))])
    return InductionResult(values[tree.root], tree.nodes, len(pairs), mixed,
                           time.perf_counter() - start, strategy)
