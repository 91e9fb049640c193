from search.evaluation cimport Evaluator, EVAL_BOUND
from engine.kernel cimport GameKernel, u64

cdef class MaatatahayEvaluator(Evaluator):
    pass
