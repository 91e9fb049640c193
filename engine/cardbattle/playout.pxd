from crystalpick.engine.evaluation cimport PlayoutPolicy
from crystalpick.engine.kernel cimport GameKernel, u64

cdef class CardBattlePlayout(PlayoutPolicy):
    pass
