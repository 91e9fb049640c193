"""When a search takes a turn as two decisions of its mover (issue 32): the first stage, then
the rest (Mattock: the dig, then the walk or none; engine/features.py ``StagedTurns``).

Six to fourteen plies from the end of a Mattock game some 17 digs carry 100-470 turns. df-pn
grouped so proves exactly what the whole-turn search proves (the same minimum and sum over
the same moves), but a position is expanded into its few stages, each judged by one
representative move, and only a chosen stage's moves are made; MCTS shares a stage's
statistics across its moves. Whether ``auto`` turns it on for a game that declares its turns
staged is each searcher's measured answer (docs/search.md): on for df-pn (the endgame
suite), ``MCTS_AUTO`` for MCTS (a match at equal simulations).
"""
from __future__ import annotations

from crystalpick.engine.features import StagedTurns, provides, require

DECOMPOSE_CHOICES = ("auto", "on", "off")


# Whether MCTS's ``decompose=auto`` takes staged turns in stages: its measured answer
# (docs/search.md, MCTS, "Turns in stages").
MCTS_AUTO = False


def use_decomposition(choice: str, game, auto: bool = True) -> bool:
    """Whether a search of ``game`` takes its turns in stages: ``off``, ``on`` (a
    GameError for a game that declares no stages) or ``auto`` (where the game declares
    them and ``auto``, the searcher's measured answer, is true)."""
    if choice not in DECOMPOSE_CHOICES:
        raise ValueError(f"decompose={choice}: expected {'|'.join(DECOMPOSE_CHOICES)}")
    if choice == "on":
        require(game, StagedTurns, "decompose=on")
    return choice == "on" or (choice == "auto" and auto and provides(game, StagedTurns))
