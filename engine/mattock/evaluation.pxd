from crystalpick.engine.evaluation cimport Evaluator, EVAL_BOUND
from crystalpick.engine.kernel cimport GameKernel, u64

cdef class MattockEvaluator(Evaluator):
    pass
