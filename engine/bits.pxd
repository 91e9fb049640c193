# Bit tricks on 64-bit sets (Mattock's cells, the card game's piles), in registers.
from crystalpick.engine.kernel cimport u64

cdef extern from *:
    int lowest_bit "__builtin_ctzll"(u64 bits) noexcept nogil    # bits must not be 0

cdef inline int bit_count(u64 bits) noexcept nogil:
    """Population count in registers (GCC's builtin is a library call without -mpopcnt)."""
    bits -= (bits >> 1) & 0x5555555555555555ULL
    bits = (bits & 0x3333333333333333ULL) + ((bits >> 2) & 0x3333333333333333ULL)
    bits = (bits + (bits >> 4)) & 0x0F0F0F0F0F0F0F0FULL
    return <int>((bits * 0x0101010101010101ULL) >> 56)
