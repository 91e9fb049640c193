"""How a game of a match ended, as data: the typed termination, the end of a game, and the
engine failures that end one.

Every finished game has exactly one :class:`Termination`; it is stored in the results
database and in the record's ``Termination`` tag, and ``results`` counts games by it (as
fastchess does), so a match with crashing or flagging engines shows it at a glance. An
engine that fails *during* a game loses that game (an :class:`EngineFailure`); an engine
that cannot even start stops the whole match (:class:`EngineStartError`), since every game
would be forfeited the same way.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Termination(Enum):
    NORMAL = "normal"                # won, lost or drawn by the game's rules
    ADJUDICATION = "adjudication"    # ended by a match rule (e.g. --max-plies)
    TIME_FORFEIT = "time_forfeit"    # over the clock, or no move in time from a live engine
    ILLEGAL_MOVE = "illegal_move"    # an illegal or unparseable move
    ENGINE_CRASH = "engine_crash"    # the engine process exited, or a built-in engine raised
    ENGINE_HANG = "engine_hang"      # the engine stopped answering altogether

    @property
    def label(self) -> str:
        return label(self.value)


UNKNOWN = "unknown"    # the name shown for games stored before terminations were recorded


def label(name: str) -> str:
    """A termination's name for people: ``time_forfeit`` -> ``time forfeit``."""
    return name.replace("_", " ")


@dataclass(frozen=True)
class GameEnd:
    """The end of a game: returns per player, how it ended, and why in words (for records)."""

    returns: tuple[float, float]
    termination: Termination
    reason: str

    @classmethod
    def by_rules(cls, state) -> "GameEnd":
        winner = state.winner()
        outcome = "draw" if winner is None else f"{state.game.player_names[winner]} wins"
        reason = f"{outcome}: {state.end_reason()}"     # in the game's terms
        return cls(tuple(state.returns()), Termination.NORMAL, reason)

    @classmethod
    def forfeit(cls, loser: int, termination: Termination, reason: str) -> "GameEnd":
        return cls((-1.0, 1.0) if loser == 0 else (1.0, -1.0), termination, reason)

    @classmethod
    def draw(cls, termination: Termination, reason: str) -> "GameEnd":
        return cls((0.0, 0.0), termination, reason)


class EngineFailure(Exception):
    """An engine failed during a game: it loses the game and the match goes on. Each
    subclass names the termination it causes."""

    termination: Termination


class EngineCrashed(EngineFailure):
    termination = Termination.ENGINE_CRASH


class EngineHung(EngineFailure):
    termination = Termination.ENGINE_HANG


class OutOfTime(EngineFailure):
    termination = Termination.TIME_FORFEIT


class IllegalMove(EngineFailure):
    termination = Termination.ILLEGAL_MOVE


class EngineStartError(Exception):
    """An engine could not be started or did not complete the handshake: the match stops."""
