# Values at a depth-limited search's horizon (search/mccfr.pyx ``leaves``): what stands for
# the rest of the game where the search stops walking, in place of a playout.
from crystalpick.engine.kernel cimport GameKernel

cdef class LeafValues:
    # Player 0's expected result (-1..1) of the rest of the game from the kernel's position
    # (a decision of the search's world, what was hidden drawn); NaN where none is known.
    cdef double value(self, GameKernel kernel) noexcept nogil
