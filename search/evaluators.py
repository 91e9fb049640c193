"""Per-game search knowledge by game name: the evaluation hook (zero for games without one)
and MCTS's playout length."""
from __future__ import annotations

from .evaluation import Evaluator
from .maatatahay_eval import MaatatahayEvaluator
from .mattock_eval import MattockEvaluator

EVALUATORS = {"mattock": MattockEvaluator, "maatatahay": MaatatahayEvaluator}

# Plies an MCTS playout plays before the evaluation scores it (0: play to the end). Only a
# game with an evaluation gains. Mattock, 40 games at 0.2 s/move against greedy from 20
# colour-swapped openings (docs/search.md): 1 ply 37/40 (twice), 2 plies 36/40, 4 plies
# 33/40.
PLAYOUT_DEPTH = {"mattock": 1}


def evaluator_for(game) -> Evaluator:
    return EVALUATORS.get(game.name, Evaluator)()


def playout_depth_for(game) -> int:
    return PLAYOUT_DEPTH.get(game.name, 0)
