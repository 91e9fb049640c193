# The stop flag the searchers read inside their loops (see search/stop.pyx).

cdef class StopFlag:
    cdef volatile int* word     # one word of shared memory: nonzero means stop
    cdef object event           # wakes waiters in this process (see StopFlag.wait)
