"""Which evaluation each game gets (by game name); games without one get the zero evaluation."""
from __future__ import annotations

from .evaluation import Evaluator
from .mattock_eval import MattockEvaluator

EVALUATORS = {"mattock": MattockEvaluator}


def evaluator_for(game) -> Evaluator:
    return EVALUATORS.get(game.name, Evaluator)()
