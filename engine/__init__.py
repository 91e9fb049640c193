"""Game rules, notation and the Cython kernels, one subpackage per game."""
from .game import (CHANCE, TERMINAL, Game, GameError, IllegalMoveError, NotationError,
                   RuleError, RuleOption, State)
from .registry import GAMES, get_game

__all__ = ["CHANCE", "TERMINAL", "Game", "GameError", "IllegalMoveError", "NotationError",
           "RuleError", "RuleOption", "State", "GAMES", "get_game"]
