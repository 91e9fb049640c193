"""Chance Nim, a test game with chance nodes and draws behind the common interface.

A pile of stones; players alternately take 1-3. Whoever empties the pile wins. After each
take that leaves stones, chance puts 0, 1 or 2 stones back (probabilities 1/2, 1/3, 1/6).
After ``turn_limit`` takes without a winner the game is drawn. Positions are written
``pile/to_move/chance/turns/limit``.
"""
from __future__ import annotations

from crystalpick.engine.game import Capabilities, Game, NotationError, IllegalMoveError, State

from ._chance_nim import Kernel


class ChanceNim(Game):
    name = "chance-nim"
    player_names = ("first", "second")
    rule_options = ()
    implementations = ("fast",)
    capabilities = Capabilities(chance=True)
    # From the default start: 8 takes and a chance event after each of the first 7.
    max_game_length = 15

    def new_initial_state(self, pile: int = 7, turn_limit: int = 8) -> "ChanceNimState":
        return ChanceNimState(self, Kernel(pile, 0, 0, 0, turn_limit))

    def parse_position(self, text: str) -> "ChanceNimState":
        try:
            pile, to_move, chance, turns, limit = (int(x) for x in text.split("/"))
        except ValueError:
            raise NotationError(f"bad chance-nim position {text!r}") from None
        return ChanceNimState(self, Kernel(pile, to_move, chance, turns, limit))


class ChanceNimState(State):
    def __init__(self, game, kernel):
        self.game, self.kernel = game, kernel

    def current_player(self):
        return self.kernel.current_player()

    def legal_moves(self):
        return self.kernel.legal_moves()

    def chance_outcomes(self):
        return list(zip(self.kernel.legal_moves(), self.kernel.probabilities()))

    def play(self, move):
        self.kernel.play(move)

    def undo(self):
        self.kernel.undo()

    def clone(self):
        return ChanceNimState(self.game, self.kernel.copy())

    def returns(self):
        value = self.kernel.result if self.is_terminal() else 0.0
        return (value, -value)

    def hash_key(self):
        return self.kernel.key

    def position(self):
        return "/".join(str(x) for x in self.kernel.fields)

    def move_to_str(self, move):
        return f"add{move}" if self.is_chance_node() else f"take{move}"

    def parse_move(self, text):
        for move in self.legal_moves():
            if self.move_to_str(move) == text.strip():
                return move
        raise IllegalMoveError(f"illegal move {text!r}")

    def render(self, color=False):
        return self.position()
