"""The card battle position: what both implementations (and the notation) hold.

Every pile is a set of card numbers, kept sorted: a deck's order is never stored because a
draw is a chance event uniform over the cards left in the deck (docs/cardbattle.md, "Chance"),
which is exactly a draw from a deck shuffled in secret. The table holds the round's chosen
creatures, boosts and tie-break cards until clean-up (§4.8).
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field

# Phases: decisions (M), chance (C) and the end.
DEAL, MULLIGAN, REDEAL, TOSS, CALL, SEEK, CHOOSE, BOOST, TIEBREAK, REFILL, OVER = range(11)
PHASE_NAMES = ("deal", "mulligan", "redeal", "toss", "call", "seek", "choose", "boost",
               "tiebreak", "refill", "over")
CHANCE_PHASES = frozenset({DEAL, REDEAL, TOSS, SEEK, TIEBREAK, REFILL})
NO_CARD = 0
DRAW_RESULT = -1               # result of a drawn game; -2 while it is not over
UNDECIDED = -2
# Mulligan decisions (§3.2), public.
PENDING, KEPT, TAKEN = 0, 1, 2
# Crystal tokens each player brings (§1); with crystals=stake they are the ones at stake (§6).
CRYSTAL_TOKENS = 8


@dataclass
class Seat:
    hand: list[int] = field(default_factory=list)
    deck: list[int] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)
    table: list[int] = field(default_factory=list)
    chosen: int = NO_CARD          # the creature chosen this round (secret until the reveal)
    tie_card: int = NO_CARD        # the current tie-break card
    value: int = 0                 # the value in the comparison now (after the reveal)
    boosted: bool = False          # has played this round's boost card (§4.4)
    passed: bool = False           # passed on boosting: final for the round (§4.4)
    contending: bool = True        # still in this round's comparison
    mulligan: int = PENDING
    won: int = 0                   # rounds won (crystals gained)
    tokens: int = 0                # crystals held (crystals=stake, §6)
    out: bool = False              # no crystal left (crystals=stake)
    refill_left: int = 0           # cards still to draw in refill=one

    def cards(self) -> list[int]:
        """Every card this player owns: the deck list."""
        return sorted(self.hand + self.deck + self.discard + self.table)


@dataclass
class Position:
    seats: list[Seat]
    phase: int = DEAL
    actor: int = 0                 # who decides or draws in this phase
    caller: int = 0
    attribute: int = -1            # called this round, -1 before the call
    tiebreak: bool = False         # the round is in its tie-break (§4.6)
    round: int = 0                 # rounds finished
    ply: int = 0
    result: int = UNDECIDED        # winner, DRAW_RESULT, or UNDECIDED

    def copy(self) -> "Position":
        return copy.deepcopy(self)

    @property
    def players(self) -> int:
        return len(self.seats)
