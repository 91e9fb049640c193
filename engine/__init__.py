"""Game rules, notation and the Cython kernels, one subpackage per game."""
from .game import (CHANCE, TERMINAL, Capabilities, Game, GameError, IllegalMoveError,
                   NotationError, RuleError, RuleOption, State, sample_chance)
from .registry import GAMES, get_game

__all__ = ["CHANCE", "TERMINAL", "Capabilities", "Game", "sample_chance", "GameError", "IllegalMoveError", "NotationError",
           "RuleError", "RuleOption", "State", "GAMES", "get_game"]
