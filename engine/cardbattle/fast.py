"""The Cython card battle behind the common interface; the kernel lives in ``_fast.pyx``."""
from __future__ import annotations

from ..game import KernelState, KnowingKernel, RuleError
from ._fast import KERNEL_CARDS, KNOWN_HANDS, Kernel
from .knowledge import other_hand
from .observation import observe
from .position import NO_CARD, Position
from .rules import returns
from .state import CardBattleState


class FastState(KernelState, CardBattleState):
    def __init__(self, game, position: Position):
        self.game = game
        for name, seat in zip(game.player_names, position.seats):
            if len(seat.cards()) > KERNEL_CARDS:       # §2 has no upper limit; a pile is 64 bits
                raise RuleError(f"{name} owns {len(seat.cards())} cards; the fast "
                                f"implementation holds at most {KERNEL_CARDS} per player (an "
                                f"engineering limit, not a rule): use --impl reference")
        self.kernel = Kernel(position, game.cardset, game.options)
        self.origin = position          # read, never changed (the kernel holds its own copy)

    def returns(self):
        if self.kernel.current_player() != -2:
            return (0.0, 0.0)
        return returns(self.to_position(), self.kernel.result())

    def hash_key(self) -> int:
        return self.kernel.key

    def information_state_prefix_keys(self, player: int) -> list[int]:
        """The kernel's, one key per event (a ply adds none, one or two)."""
        return self.kernel.information_prefix_keys(player)

    def determinization(self, player: int, seed: int):
        return self.game._state(self.kernel.determinized(player, seed).to_position())

    def knowing_kernel(self, player: int, seed: int, beliefs=None,
                       own_range=None) -> KnowingKernel:
        """§5: with moves since the state was made, the kernel's determinize draws the
        other hand from those ``player``'s whole record allows (knowledge.py); where the
        record says nothing the view does not (none found), from the view. With
        ``beliefs`` (a range of the other player's private states, ranges.py keys), by
        their probabilities: a creature chosen in secret back in the hand, since the
        determinization takes the choice back for the search to make. With ``own_range``
        (``player``'s range as the other player knows it), the kernel's determinize for the
        other player draws ``player``'s hand by it."""
        knowing = (self._believing_kernel(player, beliefs) if beliefs is not None
                   else self._recorded_kernel(player, seed))
        if own_range is not None:
            self._know_range(knowing.kernel, 1 - player, own_range)
        return knowing

    def _recorded_kernel(self, player: int, seed: int) -> KnowingKernel:
        knowing = super().knowing_kernel(player, seed)
        moves = self.played_moves()
        if not moves:
            return knowing
        seen = [self.origin] + [pos for _, pos in self.recorded_plies()]
        known = other_hand(seen, moves, self.game.cardset, player)
        hands = known.hands(KNOWN_HANDS, seed) if known else []
        if not hands:
            return knowing
        knowing.kernel.know_hands(player, known.unseen, hands)
        return KnowingKernel(knowing.kernel, known.plies_seen)

    def _believing_kernel(self, player: int, beliefs) -> KnowingKernel:
        kernel = self.game.parse_position(self.position()).search_kernel()
        self._know_range(kernel, player, beliefs)
        return KnowingKernel(kernel, len(self.played_moves()))

    def _know_range(self, kernel, player: int, beliefs) -> None:
        """``kernel``'s determinize for ``player`` draws the other hand by ``beliefs``."""
        unseen = set()
        hands, weights = [], []
        for (hand, secret), probability in beliefs.items():
            if probability > 0.0:
                hands.append(hand + ((secret,) if secret != NO_CARD else ()))
                weights.append(probability)
                unseen.update(hands[-1])
        if not hands:
            raise RuleError("the range gives every private state probability 0")
        view = observe(self.to_position(), self.game.cardset, player)["seats"][1 - player]
        kernel.know_hands(player, set(view["unseen"]) | unseen, hands, weights)
