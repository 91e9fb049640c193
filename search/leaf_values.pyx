# cython: language_level=3
"""Leaf-value providers for depth-limited search (leaf_values.pxd): the search asks one at
each position where it stops walking, so what a leaf is worth can come from an exact
solution, a table or a learnt model as well as from a playout."""
from crystalpick.engine.kernel cimport GameKernel, u64

cdef double NO_VALUE = float("nan")


cdef class LeafValues:
    """Knows no value (NaN everywhere): the base a provider overrides."""

    cdef double value(self, GameKernel kernel) noexcept nogil:
        return NO_VALUE


cdef class TableLeafValues(LeafValues):
    """Values by the position's ``hash_key`` from a dict (``{key: player 0's result}``), e.g.
    a small game's exact continuation values: a search can be checked against an exact
    solution with nothing else estimated. Each look-up takes the GIL: for small games."""
    cdef dict table

    def __init__(self, table):
        self.table = {int(key): float(value) for key, value in table.items()}

    cdef double value(self, GameKernel kernel) noexcept nogil:
        cdef u64 key = kernel.hash_key()
        with gil:
            return self.table.get(key, NO_VALUE)
