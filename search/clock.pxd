# Monotonic seconds without the GIL, for time limits checked inside C search loops.
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC


cdef inline double now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9
