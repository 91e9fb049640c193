# cython: language_level=3
"""One stop flag for every searcher: a protocol ``stop``, Ctrl-C and root-parallel MCTS
workers all end a search through it.

The flag is a word of anonymous shared memory, so it is the same word in this process, in
its threads and in worker processes forked after it was made: whoever sets it, every search
holding it sees it at its next check. The Cython searchers read the word through its address
without the GIL (alpha-beta at its clock-check interval, MCTS every few simulations), which
costs one memory load. A flag is shared by fork, never pickled: a copy in another process
could not point at the same memory.
"""
from posix.mman cimport mmap, munmap, PROT_READ, PROT_WRITE, MAP_SHARED, MAP_ANONYMOUS, \
    MAP_FAILED

import os
import threading


cdef class StopFlag:
    """Set to ask every search holding this flag to stop and report its best result so far;
    clear to reuse it for the next search."""

    def __cinit__(self):
        cdef void* memory = mmap(NULL, sizeof(int), PROT_READ | PROT_WRITE,
                                 MAP_SHARED | MAP_ANONYMOUS, -1, 0)
        if memory == MAP_FAILED:
            raise MemoryError("cannot map shared memory for a stop flag")
        self.word = <volatile int*>memory
        self.word[0] = 0
        self.event = threading.Event()

    def __dealloc__(self):
        if self.word != NULL:
            munmap(<void*>self.word, sizeof(int))

    def __reduce__(self):
        raise TypeError("a StopFlag reaches worker processes by fork, not by pickling")

    def set(self):
        self.word[0] = 1
        self.event.set()

    def clear(self):
        self.word[0] = 0
        self.event.clear()

    def is_set(self):
        return self.word[0] != 0

    @property
    def address(self):
        """The word's address, for C loops below the search layer that cannot cimport this
        class (the kernels' perft reads the word through it)."""
        return <size_t>self.word

    def wait(self, timeout=None):
        """Block until :meth:`set` is called in this process (or ``timeout`` seconds pass);
        return whether the flag is set."""
        self.event.wait(timeout)
        return self.is_set()

    def __repr__(self):
        return f"StopFlag({'set' if self.is_set() else 'clear'})"


cdef StopFlag _process_stop = None


def process_stop() -> StopFlag:
    """The flag of a search whose caller passes none (a match's move, an annotated position,
    deep inside a library call): whoever owns the process sets it to stop them all (the
    CLI's interrupt runner, on Ctrl-C or SIGTERM). Each process has its own: a forked child
    gets a fresh one, so what its parent sets does not reach a worker's searches."""
    global _process_stop
    if _process_stop is None:
        _process_stop = StopFlag()
    return _process_stop


def _forget_process_stop():
    global _process_stop
    _process_stop = None


os.register_at_fork(after_in_child=_forget_process_stop)
