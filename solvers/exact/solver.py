"""Exact solving of a game with hidden information or simultaneous choices, as one call: size
check, information-set tree, the sequence-form LP (or CFR+ to a bound), the exact
exploitability of the result and the equilibrium at the first decision. What ``crystalpick
solve`` runs for such a game (docs/cardbattle.md, "Exact solving on the command line").

The size check comes first and costs milliseconds: Knuth's estimator (the mean over random
paths of the sum of the products of the branching factors along them) of the number of
histories. The information-set tree merges transpositions, so it is smaller than that
(14 to 500 times on the small configurations), and a game whose history count passes
``max_histories`` is refused with the estimate before anything is built; ``max_nodes`` still
stops the build itself.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from crystalpick.engine.game import CHANCE, GameError

from crystalpick.search.tree_size import MAX_HISTORIES, PROBES, estimate_histories

from .cfr import solve_cfr
from .response import exploitability, tabular
from .sequence import solve_sequence_form
from .tree import DEFAULT_MAX_NODES, build_tree

METHODS = ("lp", "cfr")
FIRST_DECISIONS_SHOWN = 12


class TooLarge(GameError):
    """The game is too large to solve exactly; the message gives the sizes found."""


@dataclass(frozen=True)
class Decision:
    """An information set of the first decision after the root's chance events."""
    player: int
    observation: str
    reach: float                        # chance's probability of reaching it
    moves: list[tuple[str, float]]      # (move, equilibrium probability)


@dataclass
class ExactSolution:
    value: float                        # the first player's win probability (a draw 1/2)
    lower: float                        # the value is in [lower, upper]: equal for the LP
    upper: float
    exploitability: float               # of the strategy found, computed exactly
    method: str
    histories: float                    # the estimate of the size check
    nodes: int
    information_sets: int
    first_decisions: list[Decision] = field(default_factory=list)
    seconds: float = 0.0


def first_decisions(tree, strategy, state) -> list[Decision]:
    """The information sets met first from the root (through chance only), likeliest
    first, with their equilibrium strategy."""
    reach: dict[int, float] = {}
    stack = [(tree.root, 1.0)]
    while stack:
        node, probability = stack.pop()
        if tree.player[node] == CHANCE:
            for edge in tree.children(node):
                stack.append((int(tree.edge_child[edge]), probability * tree.edge_prob[edge]))
        elif tree.infoset[node] >= 0:
            reach[int(tree.infoset[node])] = reach.get(int(tree.infoset[node]), 0.0) + probability
    out = []
    for infoset, probability in sorted(reach.items(), key=lambda item: -item[1]):
        info = tree.infosets[infoset]
        shares = strategy(infoset)
        out.append(Decision(info.player, info.observation, min(1.0, float(probability)),
                            [(state.move_to_str(m), float(p))
                             for m, p in zip(info.moves, shares)]))
    return out


def solve_exactly(state, method: str = "lp", target: float = 1e-6,
                  max_histories: float = MAX_HISTORIES, max_nodes: int = DEFAULT_MAX_NODES,
                  progress=None) -> ExactSolution:
    """Solve the game from ``state`` (its root is common knowledge to both players) by the
    sequence-form LP (``lp``, exact) or CFR+ to exploitability ``target`` (``cfr``).
    :class:`TooLarge` before any work when the size check fails."""
    if method not in METHODS:
        raise GameError(f"unknown method {method!r}; expected one of {', '.join(METHODS)}")
    if state.is_terminal():
        raise GameError("the game is over in this position: nothing to solve")
    start = time.perf_counter()
    histories = estimate_histories(state)
    if histories > max_histories:
        raise TooLarge(f"the game has about {histories:.3g} histories (estimated from "
                       f"{PROBES} random paths); at most {max_histories:.3g} are solved "
                       f"exactly: choose a smaller configuration (target, hand, decks)")
    if progress:
        progress(f"about {histories:.3g} histories; building the information-set tree")
    try:
        tree = build_tree(state, max_nodes=max_nodes)
    except GameError as error:
        raise TooLarge(f"{error} (about {histories:.3g} histories estimated)") from None
    if progress:
        progress(f"{tree.nodes:,} nodes, {len(tree.infosets):,} information sets; solving")
    if method == "lp":
        exact = solve_sequence_form(tree)
        sigma, name = exact.strategy, "sequence-form LP (HiGHS)"
    else:
        found = solve_cfr(tree, target)
        sigma, name = found.average, f"CFR+ ({found.iterations} iterations)"
    strategy = tabular(tree, sigma)
    measured = exploitability(tree, (strategy, strategy))
    lower, upper = measured.lower, measured.upper
    value = exact.value if method == "lp" else (lower + upper) / 2.0
    return ExactSolution(value, min(lower, value), max(upper, value),
                         max(measured.exploitability, 0.0), name, histories, tree.nodes,
                         len(tree.infosets), first_decisions(tree, strategy, state),
                         time.perf_counter() - start)
