"""A range: the probability of each private state another player may hold, given what one
player (the observer) has seen and the strategy being searched (issue 43, item 3).

By Bayes, a history the observer cannot tell from the true one weighs chance's probability of
its draws times the others' probability of their moves under ``strategy`` (the observer's own
moves are the same in every such history, so they cancel); the range of a private state is
the normalised sum over the histories that end in it. This walks those histories forward from
the state's origin, ply by ply, dropping a history as soon as the observer's record of it
stops being a beginning of the true one (one key: ``information_state_prefix_keys``), and
merging histories that reach the same position with the same information sets of the others
(``information_set_key``: the order of their draws between two decisions forgotten; their
futures and their strategy are the same), so the work is the number of worlds consistent with
the observer's record (8,568 hands at the first decision of two ``titas`` decks), not of
histories (18·17·16·15·14). ``RangeTracker`` carries the worlds from one decision to the
next, so a game's ranges cost the plies played, not the game so far at every decision.
Game-agnostic: the game's ``Ranges`` feature only names the private states; the worlds are
kernel states (a fast implementation), walked in C with no Python call per world for a
``PolicyStrategy`` (range_walk.pyx: well under a second a decision at full size). Exact: it
equals the exact solver's reach probabilities on the small configurations
(tests/test_ranges.py); docs/research/cardbattle-ranges.md has its cost.
"""
from __future__ import annotations

from dataclasses import dataclass
from math import frexp
from typing import Callable, Hashable, Mapping

import numpy as np

from crystalpick.engine import GameError, Ranges, require
from .range_walk import (WALK_STOPPED, WALK_TOO_MANY, PolicyStrategy, Worlds, children,
                         walk)

# The strategy searched: the mover's probability for each legal move of a state, read from
# the mover's information set only.
Strategy = Callable[[object], Mapping[int, float]]
DEFAULT_MAX_WORLDS = 200_000


class TooManyWorlds(GameError):
    """More worlds are consistent with the observer's record than the walk may hold."""


class WalkStopped(GameError):
    """The stop flag was set during :meth:`RangeTracker.advance`; the tracker is as it was."""


@dataclass(frozen=True)
class Range:
    player: int                             # whose private states
    probabilities: dict[Hashable, float]    # every possible private state; those ruled out 0
    worlds: int                             # the most worlds held at one ply


def origin(state):
    """The state ``state`` was made from (its moves since undone): where the walk starts,
    which both players must know in full (the card battle's ``setup_state``)."""
    start = state.clone()
    for _ in state.played_moves():
        start.undo()
    return start


def range_of(state, observer: int, strategy: Strategy, player: int | None = None,
             max_worlds: int = DEFAULT_MAX_WORLDS, markov: bool = False,
             stop=None) -> Range:
    """The range of ``player`` (default: the observer's opponent in a two-player game) as
    ``observer`` knows it in ``state``, the other players moving by ``strategy``;
    :class:`TooManyWorlds` past ``max_worlds`` worlds at one ply. ``markov``: the strategy
    reads only the mover's observation now (:class:`RangeTracker`); ``stop``: a StopFlag
    that abandons the walk (:class:`WalkStopped`). A walk from the origin:
    :class:`RangeTracker` once."""
    return RangeTracker(state, observer, strategy, player, max_worlds,
                        markov).advance(state, stop)


class RangeTracker:
    """The worlds ``observer`` cannot tell from the true history, with their weights, carried
    through one game: each :meth:`advance` to a later state of it walks only the plies
    played since the last, so a search can afford a range at every decision.

    Worlds merge where the position and the observer's record agree and, unless ``markov``,
    every other player's information set: a strategy may read all of it, and at full size
    their sets multiply with every hidden draw (past 200,000 worlds by the third decision).
    ``markov`` says the strategy reads only the mover's observation now (the greedy player,
    a playout policy): then the position is all that matters, and the worlds are the
    private states, a few thousand.

    A :class:`~crystalpick.search.range_walk.PolicyStrategy` on a fast state walks in C
    (range_walk.pyx ``walk``: no State and no Python call per world, without the GIL, stopped
    by a stop flag); any other strategy is called per world on States."""

    def __init__(self, state, observer: int, strategy: Strategy, player: int | None = None,
                 max_worlds: int = DEFAULT_MAX_WORLDS, markov: bool = False):
        self.game = require(state.game, Ranges, "a range")
        if player is None:
            if len(self.game.player_names) != 2:
                raise GameError("name the player whose range is wanted: the game has more "
                                "than two players")
            player = 1 - observer
        self.observer, self.player, self.strategy = observer, player, strategy
        self.max_worlds = max_worlds
        self.others = [] if markov else [p for p in range(len(self.game.player_names))
                                         if p != observer]
        state = self._opened(state)
        start = origin(state)
        hidden = [p for p in range(len(self.game.player_names))
                  if p != observer and self.game.private_state_count(start, p) != 1]
        if hidden:
            raise GameError(f"the history starts where player {hidden[0] + 1}'s "
                            f"{self.game.private_state_name} is hidden from player "
                            f"{observer + 1}, and Ranges.with_open_start left it so: a range "
                            f"walks from a start every player knows")
        self._origin = start.hash_key()
        self._moves: list[int] = []
        # The worlds whose observer record is the true one so far: key -> (world, weight);
        # in C (``_fast``), ``_held`` are the worlds as moves from the States ``_roots``.
        self._fast = (isinstance(strategy, PolicyStrategy)
                      and getattr(start, "kernel", None) is not None)
        self._held = Worlds(2 + len(self.others)) if self._fast else {None: (start, 1.0)}
        self._roots = [start]
        if self._fast:
            self._held.hold(0, 1.0)

    def advance(self, state, stop=None) -> Range:
        """The range in ``state``, a later state of the same game (its moves extend those
        of the last state advanced to); the worlds are kept for the next call.
        :class:`WalkStopped` once ``stop`` (a search/stop.pyx StopFlag) is set."""
        state = self._opened(state)
        moves = state.played_moves()
        if moves[:len(self._moves)] != self._moves or origin(state).hash_key() != self._origin:
            raise GameError("the state does not continue the game the range was carried "
                            "through: start a new range for it")
        beginnings = state.information_state_prefix_keys(self.observer)
        sorted_keys = np.unique(np.array(beginnings, dtype=np.uint64))
        if self._fast:
            weighted, most = self._walk_in_c(sorted_keys, beginnings[-1], stop)
        else:
            weighted, most = self._walk_states(sorted_keys, beginnings[-1], stop)
        self._moves = moves
        probabilities = {key: 0.0 for key in self.game.private_states(state, self.player)}
        for key, weight in weighted:
            probabilities[key] = probabilities.get(key, 0.0) + weight
        return Range(self.player, probabilities, most)

    def _opened(self, state):
        """``state`` with its history from a start every player knows: a dealt position's
        deal put back (``Ranges.with_open_start``), or a GameError where the game cannot."""
        opened = self.game.with_open_start(state)
        if opened is None:
            raise GameError("the history starts from a position that hides what a range "
                            "must walk from, and the game cannot put back how it was made")
        return opened

    def worlds(self) -> list[tuple[object, float]]:
        """The worlds held at the last :meth:`advance` with their weights (summing to 1):
        full states with the observer's true record, for a search that draws worlds by the
        range instead of uniformly. The tracker's own states: clone one before playing on it.
        Each is where its record first equals the true one: another player's secret move
        that the record shows is made in it, weighted by ``strategy``."""
        if self._fast:
            self._materialise()
            return list(zip(self._roots, self._held.weights()))
        return [(world, weight) for world, weight in self._held.values()]

    def _walk_states(self, beginnings: np.ndarray, target: int, stop) -> tuple[list, int]:
        """The walk on States (any strategy); the private states found, weighted."""
        found, most = self._walk(beginnings, target, stop)
        total = sum(weight for _, weight in found.values())
        if total <= 0.0:
            raise GameError("the strategy gives the history the observer saw no probability")
        self._held = {key: (world, weight / total) for key, (world, weight) in found.items()}
        return [(self.game.private_state(world, self.player), weight)
                for world, weight in self._held.values()], most

    def _walk_in_c(self, beginnings: np.ndarray, target: int, stop) -> tuple[list, int]:
        """range_walk.pyx's walk from the held worlds; each found world's private state is
        read from its root State with the root's kernel at the world (the card battle's
        reads the kernel's position)."""
        kernels = [root.kernel for root in self._roots]
        result = walk(kernels, self._held, self.observer, beginnings, target,
                      np.array(self.others, dtype=np.intc), self.strategy, self.max_worlds,
                      stop)
        if result == WALK_STOPPED:
            raise WalkStopped("the range walk was stopped")
        if result == WALK_TOO_MANY:
            raise TooManyWorlds(f"more than {self.max_worlds:,} worlds are consistent with "
                                f"what player {self.observer + 1} has seen")
        if not isinstance(result, tuple):
            raise GameError(f"the range walk failed ({result!r}: out of memory or a "
                            f"kernel's history full)")
        found, most = result
        if found.normalised() <= 0.0:
            raise GameError("the strategy gives the history the observer saw no probability")
        self._held = found
        roots, weights = found.roots(), found.weights()
        weighted = [(self.game.private_state(self._roots[roots[i]], self.player), weights[i])
                    for i in found.positioned(kernels)]
        return weighted, most

    def _materialise(self) -> None:
        """Each held world of the C walk as a State of its own (``played_on`` its root),
        held as a root with no moves, so the next walk starts from them."""
        held, roots = Worlds(self._held.width), []
        for i, (root, weight) in enumerate(zip(self._held.roots(), self._held.weights())):
            moves = self._held.moves(i)
            roots.append(self._roots[root].played_on(moves) if moves else self._roots[root])
            held.hold(i, weight)
        self._roots, self._held = roots, held

    def _walk(self, beginnings: np.ndarray, target: int, stop=None) -> tuple[dict, int]:
        """From the held worlds, ply by ply, keep the children whose observer record
        begins the true one (its key is among ``beginnings``, sorted: range_walk.pyx finds
        them in C), weighted by chance and the others' ``strategy``, merged where the
        position and the records agree; stop each at the true record (``target``).
        Weights are rescaled by a power of two (exactly) when they drift far from 1, so a
        long walk does not underflow."""
        observer, layer, found, most = self.observer, self._held, {}, 1
        others = tuple(self.others)
        while layer:
            if stop is not None and stop.is_set():
                raise WalkStopped("the range walk was stopped")
            following: dict = {}
            for key, (world, weight) in layer.items():
                seen = world.information_state_key(observer) if key is None else key[1]
                if seen == target:
                    held = found.get(key)
                    found[key] = (world, weight + (held[1] if held else 0.0))
                    continue
                if world.is_terminal():
                    continue
                mover, moves, chances = world.current_player(), None, None
                if mover >= 0 and mover != observer:
                    strategy = self.strategy(world)
                    moves, chances = list(strategy), list(strategy.values())
                for move, probability, known in children(world.search_kernel(), observer,
                                                         beginnings, others, moves, chances):
                    held = following.get(known)
                    if held:
                        following[known] = (held[0], held[1] + weight * probability)
                    else:
                        child = world.clone()
                        child.play(move)
                        following[known] = (child, weight * probability)
            if len(following) > self.max_worlds:
                raise TooManyWorlds(f"more than {self.max_worlds:,} worlds are consistent with "
                                    f"what player {observer + 1} has seen")
            most = max(most, len(following))
            total = sum(w for _, w in following.values()) + sum(w for _, w in found.values())
            if following and not 2.0 ** -256 < total < 2.0 ** 256:
                scale = 2.0 ** -frexp(total)[1]
                following = {k: (w, p * scale) for k, (w, p) in following.items()}
                found = {k: (w, p * scale) for k, (w, p) in found.items()}
            layer = following
        return found, most
