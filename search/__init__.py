"""Searchers (alpha-beta, MCTS, ISMCTS, df-pn) over the games' C kernels, as engines
(search/engines/) behind one analysis API."""
from .analysis import analyse
from .engines import AlphaBetaEngine, MCTSEngine, make_engine
from .limits import Limits
from .result import Analysis, Line
from .score import Mean, PovScore, Proven, Score, Value
from .stop import StopFlag

__all__ = ["analyse", "Analysis", "Line", "Limits", "AlphaBetaEngine", "MCTSEngine",
           "make_engine", "StopFlag", "Score", "PovScore", "Value", "Mean", "Proven"]
