# cython: language_level=3, boundscheck=False, wraparound=False
"""The hot step of a range's walk (ranges.py): which children of a world keep the observer's
record a beginning of the true one, found with the kernel's make, keys and unmake in C, so
that no State is made, played and undone for a child the walk drops or merges."""
from libc.stdlib cimport free, malloc

from crystalpick.engine.kernel cimport GameKernel, u64


cdef bint among(const u64[::1] sorted_keys, u64 key) noexcept nogil:
    """Whether ``key`` is in ``sorted_keys`` (increasing): a binary search."""
    cdef Py_ssize_t low = 0, high = sorted_keys.shape[0]
    cdef Py_ssize_t middle
    while low < high:
        middle = (low + high) >> 1
        if sorted_keys[middle] < key:
            low = middle + 1
        else:
            high = middle
    return low < sorted_keys.shape[0] and sorted_keys[low] == key


def children(GameKernel kernel, int observer, const u64[::1] beginnings, tuple others,
             list moves, list probabilities):
    """``(move, probability, (hash key, observer's key, each of ``others``' information set
    key))`` for each child of ``kernel``'s node whose observer key is among ``beginnings``
    (sorted): ``moves`` with ``probabilities`` (another player's decision, by the strategy),
    or where ``moves`` is None chance's outcomes with theirs, or the observer's own moves
    with 1. The kernel is left as it was."""
    cdef long long count = kernel.move_count(), i
    cdef int* buffer = <int*>malloc((count + 1) * sizeof(int))
    cdef double* chances = <double*>malloc((count + 1) * sizeof(double))
    cdef int player = kernel.player(), move
    cdef u64 seen
    cdef double probability
    found = []
    if buffer == NULL or chances == NULL:
        free(buffer)
        free(chances)
        raise MemoryError()
    try:
        if moves is None:
            count = kernel.moves(buffer, count + 1)
            if player == -1:
                kernel.outcome_probabilities(chances, count + 1)
        else:
            count = len(moves)
        for i in range(count):
            if moves is None:
                move, probability = buffer[i], chances[i] if player == -1 else 1.0
            else:
                move, probability = moves[i], probabilities[i]
                if probability <= 0.0:
                    continue
            kernel.make(move)
            seen = kernel.information_state_key(observer)
            if among(beginnings, seen):
                found.append((move, probability,
                              (kernel.hash_key(), seen)
                              + tuple(kernel.information_set_key(p) for p in others)))
            kernel.unmake()
        return found
    finally:
        free(buffer)
        free(chances)
