"""Typed scores (after python-chess's ``PovScore``/``Cp``/``Mate``): what a search's number
means, from whose point of view, and how it is ordered and written, decided here once.

A :class:`Score` is one of

- :class:`Value`: an evaluation in the game's units, with the game's scale (evaluation units
  per logistic unit) that turns it into a win probability;
- :class:`Proven`: a result proven by search (win, loss or draw), with the plies to the end
  when the searcher knows them (alpha-beta does; MCTS-Solver does not);
- :class:`Mean`: an MCTS mean result in [-1, 1].

A Score is always from one player's view; :class:`PovScore` says whose, and ``.pov(p)``
turns it into any player's (negation for the other player: games are zero-sum).
"""
from __future__ import annotations

import math
from abc import ABC, abstractmethod
from dataclasses import dataclass

from .alphabeta import MATE_SCORE, MATE_THRESHOLD_SCORE

# Evaluation units per logistic unit when no game is at hand (the Game contract's default).
DEFAULT_EVALUATION_SCALE = 150
MEAN_UNIT = "mean result (-1..+1)"


class Score(ABC):
    """A score from one player's view. Ordered: any proven win beats any unproven score,
    which beats any proven loss; a shorter win and a longer loss are better; unproven
    scores (and draws) compare by win probability. Unknown proof lengths count as
    infinitely long."""

    @abstractmethod
    def __neg__(self) -> Score:
        """The same score from the other player's view."""

    @property
    @abstractmethod
    def win_probability(self) -> float:
        """Expected result in [0, 1] (a draw counts one half)."""

    @abstractmethod
    def text(self) -> str:
        """For people: ``+52.0``, ``win in 5 plies``, ``proven loss``, ``+0.075``."""

    @abstractmethod
    def words(self) -> str:
        """For the engine protocol: ``value X``, ``win N``, ``loss N`` or ``draw``."""

    @abstractmethod
    def document(self) -> dict:
        """For JSON: ``{"type": "value"|"mean"|"win"|"loss"|"draw", ...}``."""

    def unit(self, evaluation_unit: str) -> str | None:
        """What :meth:`text`'s number is in, given the game's ``Game.score_unit`` (None: the
        text says it, as ``win in 5 plies`` does)."""
        return None

    def rank(self) -> tuple:
        return (1, self.win_probability)

    def __lt__(self, other: Score) -> bool:
        return self.rank() < other.rank()

    def __le__(self, other: Score) -> bool:
        return self.rank() <= other.rank()

    def __gt__(self, other: Score) -> bool:
        return self.rank() > other.rank()

    def __ge__(self, other: Score) -> bool:
        return self.rank() >= other.rank()

    def __str__(self) -> str:
        return self.text()


@dataclass(frozen=True, eq=True)
class Value(Score):
    units: float
    scale: float = DEFAULT_EVALUATION_SCALE

    def __neg__(self) -> Value:
        return Value(-self.units, self.scale)

    @property
    def win_probability(self) -> float:
        return 1.0 / (1.0 + math.exp(-self.units / self.scale))

    def text(self) -> str:
        return f"{self.units:+.1f}"

    def unit(self, evaluation_unit: str) -> str | None:
        return evaluation_unit

    def words(self) -> str:
        return f"value {self.units:.6g}"

    def document(self) -> dict:
        return {"type": "value", "value": self.units}


@dataclass(frozen=True, eq=True)
class Mean(Score):
    mean: float

    def __neg__(self) -> Mean:
        return Mean(-self.mean)

    @property
    def win_probability(self) -> float:
        return (1.0 + self.mean) / 2

    def text(self) -> str:
        return f"{self.mean:+.3f}"

    def unit(self, evaluation_unit: str) -> str | None:
        return MEAN_UNIT

    def words(self) -> str:
        return f"value {self.mean:.6g}"

    def document(self) -> dict:
        return {"type": "mean", "value": self.mean}


WIN, DRAW, LOSS = 1, 0, -1
RESULT_NAMES = {WIN: "win", DRAW: "draw", LOSS: "loss"}


@dataclass(frozen=True, eq=True)
class Proven(Score):
    """``plies`` to the end; not always whole: at a chance node it is the expected length."""
    result: int
    plies: float | None = None

    def __neg__(self) -> Proven:
        return Proven(-self.result, self.plies)

    @property
    def win_probability(self) -> float:
        return (1.0 + self.result) / 2

    def rank(self) -> tuple:
        length = math.inf if self.plies is None else self.plies
        if self.result == WIN:
            return (2, -length)
        if self.result == LOSS:
            return (0, length)
        return (1, 0.5)

    def text(self) -> str:
        name = RESULT_NAMES[self.result]
        if self.result == DRAW:
            return "proven draw"
        if self.plies is None:
            return f"proven {name}"
        return f"{name} in {self.plies:g} {'ply' if self.plies == 1 else 'plies'}"

    def words(self) -> str:
        name = RESULT_NAMES[self.result]
        return name if self.plies is None or self.result == DRAW else f"{name} {self.plies:g}"

    def document(self) -> dict:
        document = {"type": RESULT_NAMES[self.result]}
        if self.plies is not None and self.result != DRAW:
            document["plies"] = self.plies
        return document


@dataclass(frozen=True)
class PovScore:
    """A score and the player whose view it is from."""
    relative: Score
    player: int

    def pov(self, player: int) -> Score:
        return self.relative if player == self.player else -self.relative

    def viewed_by(self, player: int) -> PovScore:
        return PovScore(self.pov(player), player)

    @property
    def win_probability(self) -> float:
        return self.relative.win_probability

    @property
    def proven(self) -> bool:
        return isinstance(self.relative, Proven)

    def text(self) -> str:
        return self.relative.text()

    def unit(self, evaluation_unit: str) -> str | None:
        return self.relative.unit(evaluation_unit)

    def words(self) -> str:
        return self.relative.words()

    def document(self) -> dict:
        return self.relative.document()


def from_alphabeta(raw: float, scale: float = DEFAULT_EVALUATION_SCALE) -> Score:
    """Alpha-beta's float (search/scores.pxd: a win in n plies is MATE - n, a loss
    -(MATE - n), anything else evaluation units) as a typed score. Alpha-beta scores a
    drawn end 0, indistinguishable from an even evaluation, so it never reports a draw."""
    if raw > MATE_THRESHOLD_SCORE:
        return Proven(WIN, whole(MATE_SCORE - raw))
    if raw < -MATE_THRESHOLD_SCORE:
        return Proven(LOSS, whole(MATE_SCORE + raw))
    return Value(raw, scale)


def from_mcts(mean: float, proven: float | None) -> Score:
    """An MCTS mean result in [-1, 1], or the MCTS-Solver's proven result (-1, 0 or 1)."""
    if proven is not None:
        return Proven(WIN if proven > 0 else LOSS if proven < 0 else DRAW)
    return Mean(mean)


def whole(plies: float) -> float:
    """Plies as an int when whole (a proof's length below a chance node may be an average)."""
    rounded = round(plies)
    return rounded if abs(plies - rounded) < 1e-6 else plies
