# A tiny seeded generator (splitmix64) for C loops: reproducible per seed, no GIL needed.
ctypedef unsigned long long u64


cdef inline u64 next_random(u64* state) noexcept nogil:
    cdef u64 z
    state[0] += 0x9E3779B97F4A7C15ULL
    z = state[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline long long random_below(u64* state, long long n) noexcept nogil:
    """Uniform in [0, n) (the modulo bias is below 2**-40 for any n a game produces)."""
    return <long long>(next_random(state) % <u64>n)


cdef inline double random_unit(u64* state) noexcept nogil:
    """Uniform in [0, 1)."""
    return (next_random(state) >> 11) * (1.0 / 9007199254740992.0)


cdef inline long long random_index(const double* probabilities, long long n,
                                   u64* state) noexcept nogil:
    """An index in [0, n) drawn by ``probabilities`` (summing to 1; the last index takes
    what rounding leaves)."""
    cdef double draw = random_unit(state)
    cdef long long i
    for i in range(n - 1):
        draw -= probabilities[i]
        if draw < 0:
            return i
    return n - 1
