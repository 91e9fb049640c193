"""Exact best responses and exploitability.

A best response of player ``i`` to the other player's strategy picks, at each of ``i``'s
information sets ``I``, the move ``a`` with the largest ``sum over h in I of reach(h) *
u_i(h, a)``, where ``reach(h)`` is the probability that chance and the other player lead to
``h`` and ``u_i`` the value of what follows under the best response itself (perfect recall
makes this well defined: the sets that follow ``(I, a)`` are decided first, by recursion).

Exploitability, in win-probability units (a win 1, a draw 1/2, a loss 0). With ``BR_1(pi)``
the first player's best-response win probability against ``pi`` in the second seat and
``BR_2(pi)`` the second player's against ``pi`` in the first seat::

    exploitability(pi) = (BR_1(pi) + BR_2(pi) - 1) / 2

It is the average over the two seats of what a best-responding opponent wins beyond the
equilibrium (the game value cancels out), 0 exactly for an equilibrium and at most 1/2.
``BR_1(pi) >= v >= 1 - BR_2(pi)`` brackets the game value ``v``.
"""
from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from typing import Callable

import numpy as np

from crystalpick.engine.game import CHANCE, TERMINAL

from .levels import Level, edge_weights, forward_reach, levels
from .tree import GameTree

# the other player's strategy at one of its information sets: probabilities over its moves
Strategy = Callable[[int], np.ndarray]


@dataclass(frozen=True)
class BestResponse:
    player: int
    value: float            # the responder's win probability
    queried: int            # the other player's information sets whose strategy was read
    seconds: float


@dataclass(frozen=True)
class Exploitability:
    exploitability: float
    first: BestResponse     # the first player responding (the policy in the second seat)
    second: BestResponse    # the second player responding (the policy in the first seat)

    @property
    def lower(self) -> float:
        """The first player's win probability that the policy guarantees in the first seat:
        the game value is at least this (for an equilibrium, equal)."""
        return 1.0 - self.second.value

    @property
    def upper(self) -> float:
        """What the policy concedes in the second seat: the game value is at most this."""
        return self.first.value


def exploitability_from(first: float, second: float) -> float:
    """The formula of the module docstring, from the two best-response win probabilities."""
    return (first + second - 1.0) / 2.0


def tabular(tree: GameTree, sigma: np.ndarray) -> Strategy:
    """A strategy given as one probability per (information set, move) slot."""
    def strategy(infoset: int) -> np.ndarray:
        info = tree.infosets[infoset]
        return sigma[info.first_slot:info.first_slot + len(info.moves)]
    return strategy


def observation_projection(tree: GameTree, sigma: np.ndarray,
                           layers: list[Level] | None = None) -> np.ndarray:
    """``sigma`` (one probability per slot) made a function of the observation alone: at
    each (player, observation), the average of its information sets' strategies weighted by
    how often ``sigma`` and chance reach them (unreached: weighted alike). It is what a
    policy that reads only the observation, as an engine asked a position does, can hold;
    its exploitability says how far such a policy can get towards an equilibrium when
    observations lack perfect recall."""
    layers = layers if layers is not None else levels(tree)
    reach = forward_reach(tree, layers, edge_weights(tree, sigma))
    decided = tree.infoset >= 0
    set_reach = np.zeros(len(tree.infosets))
    np.add.at(set_reach, tree.infoset[decided], reach[decided])
    groups: dict[tuple[int, str], list[int]] = {}
    for index, info in enumerate(tree.infosets):
        groups.setdefault((info.player, info.observation), []).append(index)
    projected = np.array(sigma, dtype=float)
    for (player, observation), members in groups.items():
        if any(tree.infosets[i].moves != tree.infosets[members[0]].moves for i in members):
            raise ValueError(f"player {player + 1}'s observation {observation!r} offers "
                             f"different moves in different information sets")
        weights = set_reach[members] if set_reach[members].sum() > 0 else np.ones(len(members))
        slots = [np.arange(tree.infosets[i].first_slot,
                           tree.infosets[i].first_slot + len(tree.infosets[i].moves))
                 for i in members]
        mean = sum(w * sigma[s] for w, s in zip(weights, slots)) / weights.sum()
        for s in slots:
            projected[s] = mean
    return projected


def best_response(tree: GameTree, player: int, other: Strategy,
                  layers: list[Level] | None = None) -> BestResponse:
    """Player ``player``'s exact best response to ``other``, asked only at the information
    sets the game can reach."""
    start = time.perf_counter()
    layers = layers if layers is not None else levels(tree)
    reach, queried = _reach(tree, layers, player, other)
    value = _Responder(tree, player, reach, queried).value(tree.root)
    return BestResponse(player, float(value), len(queried), time.perf_counter() - start)


def best_response_sigma(tree: GameTree, player: int, sigma: np.ndarray) -> np.ndarray:
    """``sigma`` (one probability per slot) with ``player``'s part replaced by a pure best
    response to the rest of it; a set the other player and chance never let ``player`` reach
    keeps ``sigma``'s probabilities (it weighs nothing)."""
    layers = levels(tree)
    reach, queried = _reach(tree, layers, player, tabular(tree, sigma))
    responder = _Responder(tree, player, reach, queried)
    responder.value(tree.root)
    result = sigma.copy()
    for infoset, choice in responder.choice.items():
        info = tree.infosets[infoset]
        result[info.first_slot:info.first_slot + len(info.moves)] = 0.0
        result[info.first_slot + choice] = 1.0
    return result


def exploitability(tree: GameTree, strategies: tuple[Strategy, Strategy],
                   layers: list[Level] | None = None) -> Exploitability:
    """The exploitability of the strategy pair (the first player's, the second's); for one
    policy playing both seats pass it twice."""
    layers = layers if layers is not None else levels(tree)
    first = best_response(tree, 0, strategies[1], layers)
    second = best_response(tree, 1, strategies[0], layers)
    return Exploitability(exploitability_from(first.value, second.value), first, second)


def _reach(tree, layers, player, other):
    """Chance's and the other player's reach of every node; the other player's strategy
    wherever it was needed, as {information set: probabilities}."""
    reach = np.zeros(tree.nodes)
    reach[tree.root] = 1.0
    queried: dict[int, np.ndarray] = {}
    mover = tree.player[tree.edge_parent]
    theirs = mover == 1 - player
    for level in reversed(layers):
        edges = level.edges
        parents = tree.edge_parent[edges]
        weight = np.where(mover[edges] == CHANCE, tree.edge_prob[edges], 1.0)
        mine = theirs[edges] & (reach[parents] > 0)
        if mine.any():
            for infoset in np.unique(tree.infoset[parents[mine]]).tolist():
                if infoset not in queried:
                    probabilities = np.asarray(other(infoset), dtype=float)
                    if probabilities.shape != (len(tree.infosets[infoset].moves),):
                        raise ValueError(f"a strategy gave {probabilities.shape} probabilities "
                                         f"for {len(tree.infosets[infoset].moves)} moves")
                    queried[infoset] = probabilities
            sets = tree.infoset[parents[mine]].tolist()
            slots = tree.edge_slot[edges[mine]].tolist()
            weight[mine] = [queried[i][s - tree.infosets[i].first_slot]
                            for i, s in zip(sets, slots)]
        weight[theirs[edges] & ~(reach[parents] > 0)] = 0.0
        np.add.at(reach, tree.edge_child[edges], reach[parents] * weight)
    return reach, queried


class _Responder:
    """The recursion of the module docstring, memoised per node and per information set."""

    def __init__(self, tree: GameTree, player: int, reach: np.ndarray, other: dict):
        self.player = player
        self.kind = tree.player.tolist()
        self.terminal = tree.value.tolist()
        self.starts = tree.edge_start.tolist()
        self.child = tree.edge_child.tolist()
        self.prob = tree.edge_prob.tolist()
        self.reach = reach.tolist()
        self.infoset = tree.infoset.tolist()
        self.other = {i: p.tolist() for i, p in other.items()}
        self.members: dict[int, list[int]] = {}
        for node, infoset in enumerate(self.infoset):
            if infoset >= 0 and self.kind[node] == player:
                self.members.setdefault(infoset, []).append(node)
        self.values: dict[int, float] = {}
        self.choice: dict[int, int] = {}
        sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))

    def value(self, node: int) -> float:
        found = self.values.get(node)
        if found is not None:
            return found
        kind = self.kind[node]
        low, high = self.starts[node], self.starts[node + 1]
        if kind == TERMINAL:
            value = self.terminal[node] if self.player == 0 else 1.0 - self.terminal[node]
        elif self.reach[node] == 0.0:
            value = 0.0                      # weighs nothing anywhere above
        elif kind == CHANCE:
            value = sum(p * self.value(c) for p, c in zip(self.prob[low:high],
                                                           self.child[low:high]))
        elif kind == self.player:
            value = self.value(self.child[low + self.best(self.infoset[node])])
        else:
            value = sum(p * self.value(c) for p, c in zip(self.other[self.infoset[node]],
                                                           self.child[low:high])
                        if p > 0.0)
        self.values[node] = value
        return value

    def best(self, infoset: int) -> int:
        found = self.choice.get(infoset)
        if found is not None:
            return found
        totals = None
        for node in self.members[infoset]:
            weight = self.reach[node]
            if weight == 0.0:
                continue
            low, high = self.starts[node], self.starts[node + 1]
            values = [weight * self.value(c) for c in self.child[low:high]]
            totals = values if totals is None else [t + v for t, v in zip(totals, values)]
        best = 0 if totals is None else max(range(len(totals)), key=totals.__getitem__)
        self.choice[infoset] = best
        return best
