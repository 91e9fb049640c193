from crystalpick.engine.evaluation cimport Evaluator, EVAL_BOUND
from crystalpick.engine.kernel cimport GameKernel, u64

# Evaluation units per point, per point at stake, per crystal, ... (evaluation.pyx).
cdef struct Weights:
    double points, safety, stored_spirit, stored_energy, relic, remaining
    double cell_spirit, cell_energy
    # the share of each term lost per unit of ``progress`` towards the death limit
    double points_late, safety_late, stored_late, relic_late, remaining_late, tempo_late

cdef class MaatatahayEvaluator(Evaluator):
    cdef Weights w
