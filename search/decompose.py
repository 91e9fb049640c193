"""When df-pn searches a turn as two decisions of its mover (issue 32): the first stage, then
the rest (Mattock: the dig, then the walk or none; engine/features.py ``StagedTurns``).

The grouping proves exactly what the whole-turn search proves (the same minimum and sum over
the same moves), but a position is expanded into its few stages, each judged by one
representative move, and only a chosen stage's moves are made: six to fourteen plies from
the end of a Mattock game some 17 digs carry 100-470 turns. ``auto`` turns it on for every
game that declares its turns staged, as measured on the endgame suite (docs/search.md).
"""
from __future__ import annotations

from crystalpick.engine.features import StagedTurns, provides, require

DECOMPOSE_CHOICES = ("auto", "on", "off")


def use_decomposition(choice: str, game) -> bool:
    """Whether a search of ``game`` takes its turns in stages: ``off``, ``on`` (a
    GameError for a game that declares no stages) or ``auto`` (where the game declares
    them)."""
    if choice not in DECOMPOSE_CHOICES:
        raise ValueError(f"decompose={choice}: expected {'|'.join(DECOMPOSE_CHOICES)}")
    if choice == "on":
        require(game, StagedTurns, "decompose=on")
    return choice == "on" or (choice == "auto" and provides(game, StagedTurns))
