"""What every engine shares: the :class:`Engine` interface, the per-move limits every engine
spells alike, the refusals of a game or of limits that would never stop it, and the chunked
run loop of the simulation searchers (MCTS, ISMCTS)."""
from __future__ import annotations

import random
import time
from abc import ABC, abstractmethod

from crystalpick.engine.game import CHANCE, GameError

from ..limits import Limits
from ..options import EngineSchema, Option
from ..symmetry import SYMMETRY_CHOICES
from ..requirements import Requirement, refuse
from ..result import Analysis, Progress
from ..stop import StopFlag

MAX_DEPTH = 120              # alpha-beta iterations (the searcher's stack holds MAX_PLIES)
MCTS_CHUNK = 1024            # simulations between progress reports and soft-limit checks

# The per-move search limits, one spelling for every engine that obeys them.
DEPTH = Option("depth", "int", None, "Plies to search (iterative deepening stops there).",
               minimum=1, maximum=MAX_DEPTH)
# The searchers count in 64-bit C integers; a day is the longest search anyone means.
NODES = Option("nodes", "int", None, "Positions to enter before stopping.", minimum=1,
               maximum=2**62)
SIMS = Option("sims", "int", None, "Simulations to run.", minimum=1, maximum=2**62,
              keyword="simulations")
TIME = Option("time", "float", None, "Seconds for this move.", minimum=0, above_minimum=True,
              maximum=86_400)

# The table option of both searchers that key a table by position (search/symmetry.py).
SYMMETRY = Option("symmetry", "choice", "auto", "Symmetric positions share one table entry "
                  "(auto: where two first moves lead to symmetric positions, such as "
                  "Mattock's start).", choices=SYMMETRY_CHOICES)


class Engine(ABC):
    name: str
    schema: EngineSchema
    stopped_by: tuple[str, ...]     # the Limits fields that end this engine's search
    requires: tuple[Requirement, ...]   # what it needs of a game's capabilities

    @abstractmethod
    def analyse(self, state, limits: Limits, progress: Progress | None, point_of_view: int,
                multipv: int, stop: StopFlag | None = None) -> Analysis:
        ...

    @classmethod
    def refuse(cls, game) -> None:
        """A :class:`GameError` if ``game`` lacks what this engine requires of it."""
        refuse(cls.name, cls.requires, game)

    @classmethod
    def accepts(cls, game) -> bool:
        return all(requirement.met_by(game) for requirement in cls.requires)

    def check_limits(self, limits: Limits) -> None:
        """Refuse limits of which none would ever stop this engine (analyse checks them
        first; the engine protocol when it reads a go)."""
        require_limit(self.name, limits, self.stopped_by)

    def prepare(self, state) -> None:
        """Refuse now what a search of ``state``'s game would refuse: a game this engine
        cannot play, options the game's defaults contradict, a table that does not fit in
        memory (made now and kept for the searches). The engine protocol calls it at
        setoption, so the refusal is the setoption's, not every later go's."""
        self.refuse(state.game)
        try:
            self.allocate(state)
        except MemoryError:
            raise not_enough_memory(self.name) from None

    def assumed_range(self, state, observer: int, shown: int):
        """The other player's range (search/result.py ``AssumedRange``) that this engine's
        last search, of ``state`` from ``observer``'s view, drew its worlds from, its
        ``shown`` likeliest named; None where it drew none (this default)."""
        return None

    def allocate(self, state) -> None:
        """Make what a search of ``state``'s game needs before it starts (nothing here:
        trees grow as they search)."""


class SeededEngine(Engine):
    """An engine whose searches draw from a seed (its ``seed`` option; unset: one drawn
    now, so it can be printed), each search from its own stream: the n-th move of a game
    searches alike whatever ran before in the process."""

    def __init__(self, **options):
        self.options = self.schema.settings(options)
        self.seed = self.options.pop("seed")
        if self.seed is None:
            self.seed = random.SystemRandom().randrange(2**63)
        self.searches = 0

    def next_search_rng(self) -> random.Random:
        rng = random.Random(f"{self.seed}:{self.searches}")
        self.searches += 1
        return rng


def not_enough_memory(engine: str) -> GameError:
    """One message for a table or tree that does not fit, found at setoption or by analyse."""
    return GameError(f"{engine}: not enough memory for the table or tree its options ask for "
                     f"(lower tt_megabytes, hash or max_nodes)")


def require_limit(engine: str, limits: Limits, applicable: tuple[str, ...]) -> None:
    """Refuse a search that none of the given limits would ever stop (unless it is meant to
    run until its stop flag is set: ``infinite``)."""
    if not limits.infinite and all(getattr(limits, name) is None for name in applicable):
        raise ValueError(f"{engine} needs one of these limits: {', '.join(applicable)}")


def root_view(state) -> int:
    """The player whose view the searchers use at the root (player 0 at a chance node)."""
    mover = state.current_player()
    return 0 if mover == CHANCE else mover


def run_in_chunks(tree, limits: Limits, start: float):
    """Run a simulation tree (mcts, ismcts) ``MCTS_CHUNK`` simulations at a time until a
    limit stops it: the hard time limit, the node count and the stop flag inside the C loop,
    the simulation count here. After each full chunk it yields whether the soft time limit
    is past, so the caller reports progress and decides whether to stop there."""
    soft, hard = limits.budget()
    deadline = start + hard if hard is not None else 0.0
    while True:
        chunk = MCTS_CHUNK
        if limits.simulations is not None:
            chunk = min(chunk, limits.simulations - tree.simulations)
        if chunk <= 0 or tree.run(chunk, deadline, limits.nodes or 0) < chunk:
            return
        yield soft is not None and time.monotonic() - start > soft
