# cython: language_level=3
"""Base of the fast game kernels; see kernel.pxd for the contract. Subclasses override all."""


cdef class GameKernel:
    cdef int player(self) noexcept nogil:
        return -2

    cdef long long move_count(self) noexcept nogil:
        return 0

    cdef long long moves(self, int* out, long long capacity) noexcept nogil:
        return 0

    cdef long long outcome_probabilities(self, double* out, long long capacity) noexcept nogil:
        return 0

    cdef void make(self, int move) noexcept nogil:
        pass

    cdef void unmake(self) noexcept nogil:
        pass

    cdef u64 hash_key(self) noexcept nogil:
        return 0

    cdef double terminal_value(self) noexcept nogil:
        return 0.0
