# cython: language_level=3
"""Python access to Mattock's move encoding (defined in encoding.pxd, inlined by the kernel),
so the notation and the reference implementation encode exactly as the kernel does."""


def encode_move(int mine, int source=-1, int target=-1):
    return move_code(mine, source, target)


def decode_move(int move):
    """``(mine, source, target)``; source and target are -1 when no miner moves."""
    return move_mine(move), move_source(move), move_target(move)
