from crystalpick.engine.evaluation cimport PlayoutPolicy
from crystalpick.engine.kernel cimport GameKernel, u64
from crystalpick.engine.cardbattle._fast cimport KState

cdef enum:
    MAX_INFERENCES = 64          # inferences kept about the other hand (the latest)
    MAX_DRAWS = 128              # draws into the other hand followed (more: not followed)
    POOL_SIZE = 256              # fitting hands kept per search, drawn from by determinize

cdef class CardBattlePlayout(PlayoutPolicy):
    # What infer() found, for determinize(): the searching player, the other seat, and at
    # most allowed[i] of the cards masks[i] in the other hand, for i below inferred.
    cdef int observer, other, inferred
    cdef u64 masks[MAX_INFERENCES]
    cdef int allowed[MAX_INFERENCES]
    cdef int ruled_at[MAX_INFERENCES]    # the core whose hand masks[i] is about
    # The other hand's history since the deal (or their mulligan), as the observer saw it:
    # the core after which each of its draws came (-1 draws: not followed), and each card
    # seen leaving it (its index, the core it left at, and how many draws came before).
    cdef int draws, gone
    cdef int drawn_after[MAX_DRAWS]
    cdef int gone_card[MAX_DRAWS]
    cdef int gone_at[MAX_DRAWS]
    cdef int gone_within[MAX_DRAWS]
    # Hands that fit the inferences, found once per search (pooled: looked for already,
    # among the unseen cards pooled_from).
    cdef u64 pool[POOL_SIZE]
    cdef u64 pooled_from
    cdef int pooled, pool_count
    cdef KState* call            # the other player's call this round (NULL: none), replayed
    cdef int called              # on each drawn hand: the attribute they called
    cdef int inconsistency(self, KState* s) noexcept nogil
    cdef bint arrivals_fit(self, u64 hand, u64* rng) noexcept nogil
    cdef int misfit(self, KState* s, u64* rng) noexcept nogil
    cdef void fill_pool(self, KState* s, u64* rng) noexcept nogil
    cdef void set_hand(self, KState* s, u64 hand) noexcept nogil
