"""Chance Nim, a test game with chance nodes and draws behind the common interface.

A pile of stones; players alternately take 1-3. Whoever empties the pile wins. After each
take that leaves stones, chance puts 0, 1 or 2 stones back (probabilities 1/2, 1/3, 1/6).
After ``turn_limit`` takes without a winner the game is drawn. Positions are written
``pile/to_move/chance/turns/limit``.

Its kernel follows the game contract like a real game's, with the default (zero) evaluator
and playout policy; it is not registered, so it never shows up in the CLI.
"""
from __future__ import annotations

from crystalpick.engine.game import Capabilities, Game, IllegalMoveError, KernelState, NotationError

from ._chance_nim import Kernel

MAX_TURN_LIMIT = 32


class ChanceNim(Game):
    name = "chance-nim"
    player_names = ("first", "second")
    rule_options = ()
    implementations = ("fast",)
    capabilities = Capabilities(chance=True)
    # A take and a chance outcome per turn, at most MAX_TURN_LIMIT turns.
    max_game_length = 2 * MAX_TURN_LIMIT

    def new_initial_state(self, pile: int = 7, turn_limit: int = 8) -> "ChanceNimState":
        return self.parse_position(f"{pile}/0/0/0/{turn_limit}")

    def parse_position(self, text: str) -> "ChanceNimState":
        try:
            pile, to_move, chance, turns, limit = (int(x) for x in text.split("/"))
        except ValueError:
            raise NotationError(f"bad chance-nim position {text!r}") from None
        if not 0 <= turns <= limit <= MAX_TURN_LIMIT:
            raise NotationError(f"bad chance-nim turns {turns}/{limit}: expected "
                                f"0 <= turns <= limit <= {MAX_TURN_LIMIT}")
        return ChanceNimState(self, Kernel(pile, to_move, chance, turns, limit))


class ChanceNimState(KernelState):
    def __init__(self, game, kernel):
        self.game, self.kernel = game, kernel

    def returns(self):
        value = self.kernel.result if self.is_terminal() else 0.0
        return (value, -value)

    def position(self):
        return "/".join(str(x) for x in self.kernel.fields)

    def rules_end_reason(self):
        pile, _, _, turns, _ = self.kernel.fields
        if pile == 0:
            return "the pile is empty"
        return f"{turns} takes without a winner"

    def to_position(self):
        return self.position()

    def move_to_str(self, move):
        return f"add{move}" if self.is_chance_node() else f"take{move}"

    def parse_move(self, text):
        for move in self.legal_moves():
            if self.move_to_str(move) == text.strip():
                return move
        raise IllegalMoveError(f"illegal move {text!r}")

    def render(self, color=False):
        return self.position()
