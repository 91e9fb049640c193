"""Game rules, notation and the Cython kernels, one subpackage per game (imported on first
use: engine/registry.py)."""
from .features import (FEATURES, DeckBuilding, Feature, GreedyPolicy, ISMCTSDefaults,
                       MCTSDefaults, StagedTurns, TunedSearch, ismcts_defaults, mcts_defaults,
                       provides, Ranges, require)
from .game import (CHANCE, TERMINAL, BenchSettings, Capabilities, Game, GameError,
                   IllegalMoveError, KernelState, NotationError, RuleError, RuleOption, State,
                   sample_chance)
from .registry import GAMES, get_game

__all__ = ["CHANCE", "TERMINAL", "BenchSettings", "Capabilities", "KernelState", "Game",
           "sample_chance", "GameError", "IllegalMoveError", "NotationError", "RuleError",
           "RuleOption", "State", "GAMES", "get_game", "FEATURES", "Feature", "DeckBuilding",
           "GreedyPolicy", "TunedSearch", "StagedTurns", "MCTSDefaults", "mcts_defaults",
           "ISMCTSDefaults", "ismcts_defaults", "provides", "require", "Ranges"]
