from search.evaluation cimport Evaluator, EVAL_BOUND
from engine.kernel cimport GameKernel

cdef class MattockEvaluator(Evaluator):
    pass
