"""Plain-Python card battle State, written from the rules page: its moves step the position
with the reference rules of :mod:`.steps`; ``undo`` restores a snapshot.
"""
from __future__ import annotations

from fractions import Fraction

from ..game import CHANCE, TERMINAL, CopyMakeState
from .cards import CardSet
from .moves import KEEP, M_BOOST, M_CALL, M_DRAW, M_PLAY, M_TOSS, MULLIGAN, PASS, encode
from .position import (BOOST, CALL, CHANCE_PHASES, CHOOSE, MULLIGAN as MULLIGAN_PHASE, OVER,
                       TOSS, Position)
from .rules import playable_boosts, returns
from .state import CardBattleState
from .steps import step


class ReferenceState(CopyMakeState, CardBattleState):
    def __init__(self, game, position: Position):
        super().__init__(game, position)
        self.origin = position.copy()       # ``pos`` itself changes with every move

    def clone(self):
        twin = super().clone()
        twin.origin = self.origin
        return twin

    @property
    def cards(self) -> CardSet:
        return self.game.cardset

    def to_position(self) -> Position:
        return self.pos

    def current_player(self) -> int:
        if self.pos.phase == OVER:
            return TERMINAL
        if self.pos.phase in CHANCE_PHASES:
            return CHANCE
        return self.pos.actor

    def legal_moves(self) -> list[int]:
        pos = self.pos
        if pos.phase == MULLIGAN_PHASE:
            return [KEEP, MULLIGAN]
        if pos.phase == CALL:
            return [encode(M_CALL, a) for a in range(len(self.cards.attributes))]
        if pos.phase == CHOOSE:
            return [encode(M_PLAY, n) for n in pos.seats[pos.actor].hand
                    if self.cards.card(n).is_creature]
        if pos.phase == BOOST:
            return [encode(M_BOOST, n) for n in playable_boosts(pos, self.cards, pos.actor)] \
                + [PASS]
        return [move for move, _ in self.exact_chance_outcomes()]

    def exact_chance_outcomes(self) -> list[tuple[int, Fraction]]:
        """A draw is uniform over the cards left in the deck; the toss is fair (§3, §4)."""
        pos = self.pos
        if pos.phase == TOSS:
            return [(encode(M_TOSS, p), Fraction(1, pos.players)) for p in range(pos.players)]
        if pos.phase not in CHANCE_PHASES:
            return []
        deck = pos.seats[pos.actor].deck
        return [(encode(M_DRAW, n), Fraction(1, len(deck))) for n in deck]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.is_chance_node():
            return super().chance_outcomes()
        return [(m, float(p)) for m, p in self.exact_chance_outcomes()]

    def play(self, move: int) -> None:
        self.remember(move)
        step(self.pos, self.cards, self.game.options, move)

    def returns(self):
        if self.pos.phase != OVER:
            return tuple(0.0 for _ in self.pos.seats)
        return returns(self.pos, self.pos.result)
