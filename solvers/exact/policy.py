"""Policies for the exploitability measurement: "observation -> distribution over legal
moves", built from random, greedy or any engine of search/engines.py.

An engine that returns one move is a pure policy; one whose analysis gives every option a
probability (``Line.probability``, the mixed strategy an information-set searcher exposes) is
used as that mixed strategy. A policy is asked once per (player, observation) and the answer
kept, so it is a function of the observation by construction, whatever the engine does
between calls; each engine query starts a fresh engine (seeded when the engine takes a seed).
"""
from __future__ import annotations

from abc import ABC, abstractmethod

import numpy as np

from crystalpick.engine import GreedyPolicy as OwnGreedy, require

from crystalpick.search.assumed import searched_strategy
from crystalpick.search.engines import make_engine
from crystalpick.search.limits import Limits
from crystalpick.search.specs import parse_spec
from .response import Strategy
from .tree import GameTree

HISTORY_ENGINES = ("mccfr",)           # the engines that search from the game's history
WHOLE_GAME_ENGINES = ("mccfr",)         # ... learning the same table whatever they are asked


class Policy(ABC):
    name: str
    # Whether the policy reads the mover's whole information state (the game's history up to
    # the decision), not only the observation: it is then asked once per information set, at
    # a state replayed from the tree's root, instead of once per observation at a position.
    reads_history = False
    # Whether it reads only the mover's observation now (not the record before it): then a
    # range of the mover may merge worlds by position (search/ranges.py ``markov``).
    markov = False

    @abstractmethod
    def probabilities(self, state) -> dict[int, float]:
        """The mover's distribution over its legal moves in ``state`` (reading only what the
        mover observes)."""


class RandomPolicy(Policy):
    name = "random"
    markov = True

    def probabilities(self, state):
        moves = state.legal_moves()
        return {move: 1.0 / len(moves) for move in moves}


class GreedyPolicy(Policy):
    """The game's own observation-based greedy (engine/features.py ``GreedyPolicy``), as in
    matches."""

    name = "greedy"
    markov = True

    def probabilities(self, state):
        return {require(state.game, OwnGreedy, "greedy").greedy_move(state): 1.0}


class EnginePolicy(Policy):
    def __init__(self, text: str, seed: int):
        self.spec = parse_spec(text)
        self.name = text
        self.options = self.spec.seeded(seed)
        self.limits = Limits(**self.spec.limits) if self.spec.limits else Limits(time=1.0)
        self.reads_history = self.spec.name in HISTORY_ENGINES

    def probabilities(self, state):
        from crystalpick.search.analysis import analyse
        mover = state.current_player()
        result = analyse(state, make_engine(self.spec.name, **self.options), self.limits,
                         point_of_view=mover)
        if result.lines and getattr(result.lines[0], "probability", None) is not None:
            return {line.move: line.probability for line in result.lines}
        return {result.best_move: 1.0}


class WholeGamePolicy(EnginePolicy):
    """An engine whose search learns the whole game's strategy whatever decision it is asked
    about (``mccfr`` from the history: no targeting, the table is the same): its search at
    the first decision asked, read at every information set, is what a fresh engine with the
    same seed and budget answers at each (exactly for a simulation or node budget, up to the
    clock's noise for a time budget), so one search serves the whole tree, not one per
    information set."""

    def __init__(self, text: str, seed: int):
        super().__init__(text, seed)
        self.search = None

    def probabilities(self, state):
        mover = state.current_player()
        if self.search is None:
            from crystalpick.search.analysis import analyse
            engine = make_engine(self.spec.name, **self.options)
            analyse(state, engine, self.limits, point_of_view=mover)
            self.search = engine.last_search
        return searched_strategy(self.search)(state)


def make_policy(text: str, seed: int = 1) -> Policy:
    """``random``, ``greedy`` or an engine spec such as ``ismcts:sims=1000``."""
    name = text.strip()
    if name == RandomPolicy.name:
        return RandomPolicy()
    if name == GreedyPolicy.name:
        return GreedyPolicy()
    spec = parse_spec(name)
    if spec.name in WHOLE_GAME_ENGINES and spec.options.get("root", "history") == "history":
        return WholeGamePolicy(name, seed)
    return EnginePolicy(name, seed)


def policy_strategy(tree: GameTree, game, policy: Policy, progress=None) -> Strategy:
    """``policy`` as a strategy over ``tree``'s information sets, asked at one position of
    each set (any one: the policy reads only the observation) and once per observation; a
    policy that reads the history is asked once per information set, at one history of it
    replayed from the tree's root (any one: the information state is all it reads)."""
    answers: dict[tuple[int, object], dict[int, float]] = {}

    def asked(info):
        if not policy.reads_history:
            return game.parse_position(info.position)
        state = tree.start.clone()
        for move in info.history:
            state.play(move)
        return state

    def strategy(infoset: int) -> np.ndarray:
        info = tree.infosets[infoset]
        key = (info.player, infoset if policy.reads_history else info.observation)
        if key not in answers:
            answers[key] = policy.probabilities(asked(info))
            if progress:
                progress(len(answers))
        given = answers[key]
        unknown = set(given) - set(info.moves)
        if unknown:
            raise ValueError(f"{policy.name} chose a move that is not legal: {sorted(unknown)}")
        probabilities = np.array([given.get(move, 0.0) for move in info.moves])
        return probabilities / probabilities.sum()
    strategy.answers = answers
    return strategy


def search_strategy(tree: GameTree, search) -> Strategy:
    """The average strategy a regret search holds (search/mccfr.pyx, or root-parallel workers
    of it) as a strategy over ``tree``'s information sets, read by their keys: uniform at a
    set the search never met, as the engine answers there."""
    def strategy(infoset: int) -> np.ndarray:
        info = tree.infosets[infoset]
        found = search.average_strategy(info.key, info.player) or {}
        probabilities = np.array([found.get(move, 1.0) for move in info.moves])
        return probabilities / probabilities.sum()
    return strategy
