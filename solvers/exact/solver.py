"""Exact solving of a game with hidden information or simultaneous choices, as one call: size
check, information-set tree, the sequence-form LP (or CFR+ to a bound), the exact
exploitability of the result and the equilibrium at the first decision. What ``crystalpick
solve`` runs for such a game (docs/cardbattle.md, "Exact solving on the command line").

The size check comes first and costs milliseconds: Knuth's estimator (the mean over random
paths of the sum of the products of the branching factors along them) of the number of
histories. The information-set tree merges transpositions, so it is smaller than that
(14 to 500 times on the small configurations), and a game whose history count passes
``max_histories`` is refused with the estimate before anything is built; ``max_nodes`` still
stops the build itself. Memory is checked alike (a tree node costs about
:data:`BYTES_PER_NODE` by the end of the solve): a game whose smallest likely tree does not
fit in the memory the process may use (the machine's, or ``ulimit -v``'s) is refused before
the build, and the build stops in one line at the nodes that fit, never in a MemoryError.
A stop flag ends the solve early: CFR+ with the average so far (its bounds still exact),
before any strategy with :class:`Stopped`.
"""
from __future__ import annotations

import resource
import time
from dataclasses import dataclass, field

from crystalpick.engine.game import CHANCE, GameError

from crystalpick.search.tree_size import MAX_HISTORIES, PROBES, estimate_histories

from .cfr import solve_cfr
from .response import exploitability, tabular
from .sequence import solve_sequence_form
from .tree import DEFAULT_MAX_NODES, BuildStopped, build_tree

METHODS = ("lp", "cfr")
FIRST_DECISIONS_SHOWN = 12
BYTES_PER_NODE = 1500       # measured 1.2 KB a node at boost-3's peak (tree, LP, responses)
MOST_MERGED = 1000          # histories per tree node: twice the most seen (open-3: 531)


class TooLarge(GameError):
    """The game is too large to solve exactly; the message gives the sizes found."""


class Stopped(Exception):
    """The stop flag was set before any strategy was found: where it stopped."""

    def __init__(self, phase: str, histories: float, nodes: int, seconds: float):
        super().__init__(f"stopped while {phase}")
        self.phase, self.histories, self.nodes, self.seconds = phase, histories, nodes, seconds


def memory_available() -> int | None:
    """Bytes this process may still take: the machine's available memory, less where an
    address-space limit (``ulimit -v``) leaves less; None where neither can be read."""
    found = []
    try:
        with open("/proc/meminfo") as meminfo:
            found += [int(line.split()[1]) * 1024 for line in meminfo
                      if line.startswith("MemAvailable:")]
        limit = resource.getrlimit(resource.RLIMIT_AS)[0]
        if limit != resource.RLIM_INFINITY:
            with open("/proc/self/status") as status:
                used = [int(line.split()[1]) * 1024 for line in status
                        if line.startswith("VmSize:")]
            found.append(max(0, limit - sum(used)))
    except (OSError, ValueError):
        pass
    return min(found) if found else None


def node_budget(histories: float, max_nodes: int, memory: int | None) -> tuple[int, str | None]:
    """The most nodes to build within ``memory`` bytes (and ``max_nodes``), with what to say
    when the build passes them for want of memory; :class:`TooLarge` when even the smallest
    likely tree (``histories`` / :data:`MOST_MERGED` nodes) does not fit."""
    if memory is None or memory // BYTES_PER_NODE >= max_nodes:
        return max_nodes, None
    fits = memory // BYTES_PER_NODE
    have = f"{memory / 2**20:,.0f} MB of memory available"
    if histories / MOST_MERGED > fits:
        raise TooLarge(f"the game has about {histories:.3g} histories, a tree of at least "
                       f"{histories / MOST_MERGED:,.0f} nodes (about "
                       f"{histories / MOST_MERGED * BYTES_PER_NODE / 2**20:,.0f} MB): more "
                       f"than the {have} hold; choose a smaller configuration")
    return fits, (f"the tree passed {fits:,} nodes, what the {have} hold (about "
                  f"{BYTES_PER_NODE} bytes a node); choose a smaller configuration")


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
    interrupted: bool = False           # stopped early: CFR+'s average so far


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
                  progress=None, stop=None, memory: int | None = None) -> ExactSolution:
    """Solve the game from ``state`` (its root is common knowledge to both players) by the
    sequence-form LP (``lp``, exact) or CFR+ to exploitability ``target`` (``cfr``).
    :class:`TooLarge` before any work when the size check fails, or when the tree outgrows
    ``memory`` bytes (default: what :func:`memory_available` finds); ``stop``: a stop flag
    (:class:`Stopped` if set before a strategy is found)."""
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
    nodes, too_large = node_budget(histories, max_nodes,
                                   memory_available() if memory is None else memory)
    if progress:
        progress(f"about {histories:.3g} histories; building the information-set tree")

    def stopped(phase: str, built: int):
        return Stopped(phase, histories, built, time.perf_counter() - start)
    try:
        tree = build_tree(state, max_nodes=nodes, stop=stop, too_large=too_large)
    except BuildStopped as halt:
        raise stopped("building the tree", halt.nodes) from None
    except GameError as error:
        raise TooLarge(f"{error} (about {histories:.3g} histories estimated)") from None
    if progress:
        progress(f"{tree.nodes:,} nodes, {len(tree.infosets):,} information sets; solving")
    if method == "lp":
        if stop is not None and stop.is_set():
            raise stopped("building the tree", tree.nodes)
        exact = solve_sequence_form(tree)
        sigma, name = exact.strategy, "sequence-form LP (HiGHS)"
    else:
        found = solve_cfr(tree, target, stop=stop)
        sigma, name = found.average, f"CFR+ ({found.iterations} iterations)"
    strategy = tabular(tree, sigma)
    measured = exploitability(tree, (strategy, strategy))
    lower, upper = measured.lower, measured.upper
    value = exact.value if method == "lp" else (lower + upper) / 2.0
    return ExactSolution(value, min(lower, value), max(upper, value),
                         max(measured.exploitability, 0.0), name, histories, tree.nodes,
                         len(tree.infosets), first_decisions(tree, strategy, state),
                         time.perf_counter() - start, method == "cfr" and found.stopped)
