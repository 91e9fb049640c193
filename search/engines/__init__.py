"""The engines behind :func:`search.analyse`, one module per family (alpha-beta, MCTS,
ISMCTS, MCCFR, df-pn): each drives its Cython searcher within the limits, turns the raw root
statistics into an :class:`Analysis`, and declares what it requires of a game (``requires``,
read against the game's ``capabilities``), so a refusal comes from that declaration.

An engine object may be kept across the moves of a game: alpha-beta then keeps its
transposition table and history, MCTS its tree (re-rooted at the new position when that
position is in the tree). A :class:`StopFlag` given to ``analyse`` reaches the searchers'
C loops (and the worker processes of root-parallel MCTS and ISMCTS); when it is set they
return their best result so far.
"""
from __future__ import annotations

from ..tree_size import exactly_solvable
from .alphabeta import AlphaBetaEngine
from .base import DEPTH, NODES, SIMS, TIME, Engine, not_enough_memory
from .dfpn import DfpnEngine
from .ismcts import ISMCTSEngine
from .mccfr import MCCFREngine
from .mcts import MCTSEngine

ENGINES = {engine.name: engine for engine in (AlphaBetaEngine, MCTSEngine, ISMCTSEngine,
                                              MCCFREngine, DfpnEngine)}
# The engine a command uses when none is named: the first that accepts the game (alpha-beta,
# or ISMCTS for a game with hidden information, the only searcher that plays it).
DEFAULTS = (AlphaBetaEngine, ISMCTSEngine)


def make_engine(name: str, **options) -> Engine:
    """An engine by name (one of ``ENGINES``) with its options (see its ``schema``)."""
    if name not in ENGINES:
        raise ValueError(f"unknown engine {name!r}; expected one of {', '.join(ENGINES)}")
    return ENGINES[name](**options)


def refuse_for(engine: str, game) -> None:
    """The engine named ``engine`` refuses ``game`` if the game lacks what it requires."""
    ENGINES[engine].refuse(game)


def default_engine(game) -> str:
    """The name of the engine a command uses for ``game`` when none is named."""
    return next((engine for engine in DEFAULTS if engine.accepts(game)), DEFAULTS[0]).name


def default_analyser(state) -> str:
    """The engine ``analyse`` uses when none is named: the least exploitable at equal time
    where that is measured (docs/cardbattle.md, "External-sampling MCCFR"). mccfr for a
    game with hidden information small enough for ``solve`` to solve exactly (its history
    tree, estimated as solve estimates it, within solve's bound): there every mccfr
    iteration walks a small tree; on a full-size game none finishes, and the game's default
    engine (ismcts) analyses it."""
    game = state.game
    if game.capabilities.perfect_information or not MCCFREngine.accepts(game):
        return default_engine(game)
    return MCCFREngine.name if exactly_solvable(game) else default_engine(game)


__all__ = ["ENGINES", "DEPTH", "NODES", "SIMS", "TIME", "Engine", "AlphaBetaEngine",
           "MCTSEngine", "ISMCTSEngine", "MCCFREngine", "DfpnEngine", "make_engine", "refuse_for",
           "default_engine", "default_analyser", "not_enough_memory"]
