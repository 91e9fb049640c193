"""A tiny game behind the contract with closed-form equilibria, for the exact solvers' tests:
chance draws a coin (heads 2/3, tails 1/3), then P1 and P2 each secretly pick 0 or 1 (hidden
sequential moves, P2 never sees P1's pick). Heads: matching pennies (P1 wins on a match).
Tails: P1 wins on 0-0, 1-1 is a draw, a mismatch loses. With ``hidden_coin`` only P1 sees
the coin.

Closed forms (P1's win probability, a draw 1/2): tails alone is the 2x2 [[1, 0], [0, 1/2]]
worth 1/3, so with the coin public the game is worth 2/3 * 1/2 + 1/3 * 1/3 = 4/9; with it
hidden from P2, P2 must pick 0 with the same q in both cases and P1's best reply gets
2/3 max(q, 1-q) + 1/3 max(q, (1-q)/2), least at q = 1/2: worth 1/2.
"""
from __future__ import annotations

from crystalpick.engine.game import CHANCE, TERMINAL, Game, State

HEADS, TAILS = 0, 1


class Pennies(Game):
    name = "pennies"
    player_names = ("P1", "P2")
    rule_options = ()
    max_game_length = 3

    def __init__(self, hidden_coin: bool = False):
        super().__init__()
        self.hidden_coin = hidden_coin

    def new_initial_state(self):
        return PenniesState(self)

    def parse_position(self, text):
        state = PenniesState(self)
        for move in text.split(":")[1:]:
            state.play(int(move))
        return state


class PenniesState(State):
    def __init__(self, game):
        self.game = game
        self.moves: list[int] = []

    def current_player(self):
        return (CHANCE, 0, 1, TERMINAL)[len(self.moves)]

    def legal_moves(self):
        return [] if len(self.moves) == 3 else [0, 1]

    def chance_outcomes(self):
        return [(HEADS, 2 / 3), (TAILS, 1 / 3)]

    def play(self, move):
        self.moves.append(move)

    def undo(self):
        self.moves.pop()

    def clone(self):
        twin = PenniesState(self.game)
        twin.moves = list(self.moves)
        return twin

    def returns(self):
        coin, a, b = self.moves
        if coin == HEADS:
            first = 1.0 if a == b else -1.0
        else:
            first = 1.0 if a == b == 0 else 0.0 if a == b == 1 else -1.0
        return (first, -first)

    def hash_key(self):
        return hash(tuple(self.moves)) & (2**64 - 1)

    def position(self):
        return ":".join(["pennies"] + [str(m) for m in self.moves])

    def observation_string(self, player):
        seen = list(self.moves)
        if len(seen) > 1 and player == 1:
            seen[1] = "?"                     # P1's pick is secret
        if seen and player == 1 and self.game.hidden_coin:
            seen[0] = "?"
        return ":".join(["pennies"] + [str(m) for m in seen])

    def information_state(self, player):
        """The observation already lists every move the player saw, in order."""
        return (("view", self.observation_string(player)),)

    def rules_end_reason(self):
        return "both pennies shown"

    def move_to_str(self, move):
        return str(move)

    def parse_move(self, text):
        return int(text)

    def render(self, color=False):
        return self.position()
