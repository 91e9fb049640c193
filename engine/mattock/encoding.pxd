# Mattock's move as an int, defined once: ``C | (FROM + 1) << 8 | (TO + 1) << 16`` (FROM and TO
# -1 when no miner moves). Inline here so the kernel's generators pay no call; encoding.pyx
# exposes the same functions to Python (notation, reference, SVG).

cdef inline int move_code(int mine, int source, int target) noexcept nogil:
    return mine | (source + 1) << 8 | (target + 1) << 16


cdef inline int move_mine(int move) noexcept nogil:
    return move & 0xFF


cdef inline int move_source(int move) noexcept nogil:
    return ((move >> 8) & 0xFF) - 1


cdef inline int move_target(int move) noexcept nogil:
    return ((move >> 16) & 0xFF) - 1
