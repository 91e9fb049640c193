"""Adjudication: match rules that end a game its own rules have not ended yet.

Each rule is a small object asked before every ply; it answers with a :class:`GameEnd` (its
termination is ``ADJUDICATION``) or ``None`` to let the game go on. The runner asks them in
order and the first answer wins. Rules that judge by the engines' scores (resign, draw by
evaluation, as in cutechess and fastchess) would be further classes here.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

from .records import GameRecord
from .termination import GameEnd, Termination


class Adjudicator(ABC):
    @abstractmethod
    def __call__(self, state, record: GameRecord) -> GameEnd | None:
        """The adjudicated end of the game in ``state`` (played as ``record``), or None."""


@dataclass(frozen=True)
class MaxPlies(Adjudicator):
    """A draw once the game has lasted ``limit`` plies (chance outcomes count as plies)."""

    limit: int

    def __call__(self, state, record: GameRecord) -> GameEnd | None:
        if len(record.plies) < self.limit:
            return None
        return GameEnd.draw(Termination.ADJUDICATION, f"adjudicated draw at {self.limit} plies")


def adjudicate(adjudicators, state, record: GameRecord) -> GameEnd | None:
    for adjudicator in adjudicators:
        end = adjudicator(state, record)
        if end is not None:
            return end
    return None
