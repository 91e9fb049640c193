"""Safe re-solving of a subgame on an explicit tree, exact: the reference a full-size
re-solving search is checked against (issue 43, item 3; Burch, Johanson and Bowling 2014,
the re-solving gadget of CFR-D; Brown and Sandholm 2017, safe subgame solving).

A subgame is the part of the tree below a set of root nodes, closed: every information set
that meets it lies in it, and no history enters it except through a root (both checked). The
player who re-solves (``player``, p) keeps the blueprint outside and replaces their strategy
inside by one solved with CFR+ on a gadget game: chance picks a root with the probability
chance and p's blueprint give it, then the other player (o), knowing what they know there,
either enters the subgame or takes what a best response to p's blueprint earned them at that
information of theirs. So whatever p's re-solved strategy, o earns at each of their root
information sets at most what they earned against the blueprint, up to the gadget's own
solution gap: the re-solved strategy is no more exploitable than the blueprint (``bound``).
Without the gadget (``safe=False``) the roots are weighed by both players' blueprint reach and
o must enter: the plain ("unsafe") re-solving the gadget is measured against.

A depth limit cuts the subgame at given nodes (``leaves``), each worth one value, or several
among which o chooses knowing what they know there (the multi-valued states of Brown,
Sandholm and Amos 2018: o picks how play continues below the limit).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np

from crystalpick.engine.game import CHANCE, TERMINAL, GameError

from .cfr import solve_cfr
from .levels import backward_values, edge_weights, forward_reach, levels
from .response import best_response_sigma
from .tree import GameTree, InfoSet, assemble

ENTER, TAKE = 0, 1      # o's moves at the gadget's root decisions


@dataclass(frozen=True)
class Resolved:
    sigma: np.ndarray           # the blueprint with p's strategy in the subgame re-solved
    gadget_gap: float           # the exploitability of the gadget game's solution
    bound: float                # o's win probability may rise by at most this (safe only)
    iterations: int
    subgame_nodes: int


GADGETS = ("maxmargin", "resolve", "none")


def resolve(tree: GameTree, sigma: np.ndarray, player: int, roots: Sequence[int], *,
            leaves: Mapping[int, Sequence[float]] | None = None, gadget: str = "maxmargin",
            target: float = 1e-4, max_iterations: int = 20_000) -> Resolved:
    """Re-solve ``player``'s strategy below ``roots`` against the blueprint ``sigma`` (one
    probability per slot), CFR+ on the gadget (one of ``GADGETS``) to ``target``
    exploitability; ``leaves``: {node: values (the first player's win probability)} cutting
    the subgame there."""
    if gadget not in GADGETS:
        raise ValueError(f"gadget is one of {', '.join(GADGETS)}, got {gadget!r}")
    leaves = dict(leaves or {})
    other = 1 - player
    layers = levels(tree)
    nodes = subgame_nodes(tree, roots, leaves)
    check_closed(tree, nodes, roots, leaves)
    roots = np.asarray(roots, dtype=np.int64)
    safe = gadget != "none"
    reach = forward_reach(tree, layers, edge_weights(tree, sigma, keep=other if safe else None))
    earned = None
    if safe:
        response = backward_values(tree, layers,
                                   edge_weights(tree, best_response_sigma(tree, other, sigma)))
        earned = response if other == 0 else 1.0 - response
    kept = roots[reach[roots] > 0.0]
    if not len(kept):
        raise GameError("the blueprint never reaches the subgame's roots")
    built, old_sets = _Gadget(tree, leaves, other).build(
        kept.tolist(), reach[kept], earned, gadget)
    solved = solve_cfr(built, target, max_iterations=max_iterations)
    result = sigma.copy()
    for new, old in enumerate(old_sets):
        if old >= 0 and tree.infosets[old].player == player:
            first, count = tree.infosets[old].first_slot, len(tree.infosets[old].moves)
            start = built.infosets[new].first_slot
            result[first:first + count] = solved.average[start:start + count]
    gap = solved.measured.exploitability
    bound = 2.0 * gap * float(reach[kept].sum()) if safe else float("inf")
    return Resolved(result, gap, bound, solved.iterations, len(nodes))


def subgame_nodes(tree: GameTree, roots: Sequence[int], leaves) -> np.ndarray:
    """The nodes below ``roots`` (themselves included), not below a leaf, in id order."""
    seen = np.zeros(tree.nodes, dtype=bool)
    stack = list(roots)
    seen[stack] = True
    while stack:
        node = stack.pop()
        if node in leaves:
            continue
        for child in tree.edge_child[tree.edge_start[node]:tree.edge_start[node + 1]]:
            if not seen[child]:
                seen[child] = True
                stack.append(int(child))
    return np.flatnonzero(seen)


def check_closed(tree: GameTree, nodes: np.ndarray, roots, leaves) -> None:
    """A :class:`GameError` unless only the roots are entered from outside the subgame and
    every information set that meets it (leaves excepted) lies in it."""
    inside = np.zeros(tree.nodes, dtype=bool)
    inside[nodes] = True
    into = inside[tree.edge_child] & ~inside[tree.edge_parent]
    entered = set(tree.edge_child[into].tolist()) - set(roots)
    if entered or inside[tree.edge_parent[np.isin(tree.edge_child, roots)]].any():
        raise GameError("the subgame is entered other than through its roots")
    deciding = inside & (tree.infoset >= 0)
    deciding[list(leaves)] = False
    sets = np.unique(tree.infoset[deciding])
    members = np.isin(tree.infoset, sets)
    if (members & ~deciding).any():
        raise GameError("an information set of the subgame reaches outside it")


def state_at(tree: GameTree, node: int, incoming: np.ndarray):
    """A state of ``node``, replayed along one history from the root."""
    moves = []
    while node != tree.root:
        edge = incoming[node]
        moves.append(int(tree.edge_move[edge]))
        node = int(tree.edge_parent[edge])
    state = tree.start.clone()
    for move in reversed(moves):
        state.play(move)
    return state


class _Gadget:
    """The gadget game as a :class:`GameTree`: the subgame's nodes (leaves made terminals or
    o's choices among their values), o's enter-or-take decisions above its roots, and a
    chance root. New ids keep post-order: every node after its children."""

    def __init__(self, tree: GameTree, leaves, other: int):
        self.tree, self.leaves, self.other = tree, leaves, other
        self.incoming = np.full(tree.nodes, -1, dtype=np.int64)
        self.incoming[tree.edge_child] = np.arange(len(tree.edge_child))
        self.player, self.value, self.infoset, self.edges = [], [], [], []
        self.sets: list[InfoSet] = []
        self.old_sets: list[int] = []           # the original set of each new one (-1: none)
        self.set_ids: dict = {}
        self.slots: list[int] = []

    def node(self, player: int, value: float, infoset: int, edges) -> int:
        self.player.append(player)
        self.value.append(value)
        self.infoset.append(infoset)
        self.edges.append(edges)
        return len(self.player) - 1

    def new_set(self, key, player: int, moves: list[int], old: int, info: InfoSet | None):
        found = self.set_ids.get(key)
        if found is None:
            found = self.set_ids[key] = len(self.sets)
            self.sets.append(InfoSet(player, info.observation if info else str(key), moves,
                                     info.position if info else "", len(self.slots)))
            self.old_sets.append(old)
            self.slots.extend([found] * len(moves))
        return found

    def others_key(self, node: int):
        return self.other, state_at(self.tree, node, self.incoming).information_set_key(
            self.other)

    def copy(self, shift: float, roots) -> dict:
        """The subgame's nodes below ``roots`` added once more, every value moved by
        ``shift`` (the first player's): {old node: new node}."""
        tree, new = self.tree, {}
        for old in subgame_nodes(tree, roots, self.leaves).tolist():
            if old in self.leaves:
                values = [v + shift for v in self.leaves[old]]
                if len(values) == 1:
                    new[old] = self.node(TERMINAL, values[0], -1, [])
                    continue
                ends = [self.node(TERMINAL, v, -1, []) for v in values]
                s = self.new_set(("leaf",) + self.others_key(old), self.other,
                                 list(range(len(values))), -1, None)
                new[old] = self.node(self.other, 0.0, s, [(e, i, 1.0) for i, e in
                                                          enumerate(ends)])
                continue
            kind = int(tree.player[old])
            low, high = tree.edge_start[old], tree.edge_start[old + 1]
            edges = [(new[int(c)], int(m), float(p)) for c, m, p in zip(
                tree.edge_child[low:high], tree.edge_move[low:high], tree.edge_prob[low:high])]
            s = -1
            if kind >= 0:
                old_set = int(tree.infoset[old])
                info = tree.infosets[old_set]
                s = self.new_set(("set", old_set), kind, info.moves, old_set, info)
            value = float(tree.value[old]) + shift if kind == TERMINAL else 0.0
            new[old] = self.node(kind, value, s, edges)
        return new

    def build(self, roots, weight, earned, gadget: str) -> tuple[GameTree, list[int]]:
        if gadget == "none":
            new = self.copy(0.0, roots)
            return self.finish(self.chance([new[r] for r in roots], weight)), self.old_sets
        groups: dict = {}
        for root, w in zip(roots, weight):
            groups.setdefault(self.others_key(root), []).append((root, w))
        # what o earned against the blueprint at each group, per unit of its weight
        earned_at = {key: sum(w * earned[r] for r, w in members) / sum(w for _, w in members)
                     for key, members in groups.items()}
        sign = 1.0 if self.other == 0 else -1.0     # o's win probability as the first's
        if gadget == "resolve":
            new = self.copy(0.0, roots)
            tops = []
            for root in roots:
                key = self.others_key(root)
                end = self.node(TERMINAL, 0.5 + sign * (earned_at[key] - 0.5), -1, [])
                s = self.new_set(("root",) + key, self.other,
                                 [ENTER, TAKE], -1, None)
                tops.append(self.node(self.other, 0.0, s, [(new[root], ENTER, 1.0),
                                                           (end, TAKE, 1.0)]))
            return self.finish(self.chance(tops, weight)), self.old_sets
        # max-margin: o picks the group where p's re-solved strategy gives them most beyond
        # what the blueprint gave; every value there is moved by what it gave
        entries = []
        for key, members in groups.items():
            new = self.copy(-sign * earned_at[key], [r for r, _ in members])
            entries.append(self.chance([new[r] for r, _ in members],
                                       np.array([w for _, w in members])))
        s = self.new_set(("margin", self.other), self.other, list(range(len(entries))), -1,
                         None)
        top = self.node(self.other, 0.0, s, [(e, i, 1.0) for i, e in enumerate(entries)])
        return self.finish(self.chance([top], np.ones(1))), self.old_sets

    def chance(self, children, weight) -> int:
        weight = np.asarray(weight, dtype=float) / np.sum(weight)
        return self.node(CHANCE, 0.0, -1, [(c, i, float(p)) for i, (c, p) in
                                           enumerate(zip(children, weight))])

    def finish(self, root: int) -> GameTree:
        return assemble(self.player, self.value, self.infoset, self.edges, self.sets,
                        self.slots, root, recall=True, start=self.tree.start)
