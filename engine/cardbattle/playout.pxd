from crystalpick.engine.evaluation cimport PlayoutPolicy
from crystalpick.engine.kernel cimport GameKernel, u64
from crystalpick.engine.cardbattle._fast cimport KState

cdef enum:
    MAX_INFERENCES = 64          # inferences kept about the other hand (the latest)

cdef class CardBattlePlayout(PlayoutPolicy):
    # What infer() found, for determinize(): the searching player, the other seat, and at
    # most allowed[i] of the cards masks[i] in the other hand, for i below inferred.
    cdef int observer, other, inferred
    cdef u64 masks[MAX_INFERENCES]
    cdef int allowed[MAX_INFERENCES]
    cdef KState* call            # the other player's call this round (NULL: none), replayed
    cdef int called              # on each drawn hand: the attribute they called
    cdef int inconsistency(self, KState* s) noexcept nogil
