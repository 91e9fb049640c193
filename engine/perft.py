"""Generic perft over the game interface, for reference implementations and perft --divide.

Fast implementations override :meth:`State.perft` with a native loop; this module is what
the reference implementations (and any new game) get for free. The last ply is bulk-counted:
at depth 1 the answer is the number of legal moves, so leaves are never played.
Chance outcomes count as plies like decisions, so perft counts every path.
"""
from __future__ import annotations

from .game import State


def perft(state: State, depth: int) -> int:
    if depth <= 0:
        return 1
    moves = state.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        state.play(move)
        total += perft(state, depth - 1)
        state.undo()
    return total


def perft_by_move(state: State, depth: int):
    """Yield ``(move notation, perft of its child at depth - 1)`` for each legal move.

    Long counts are driven from here one root move at a time, so a caller can show progress
    and a Ctrl-C is honoured between root moves (a native perft runs without the GIL).
    """
    if depth < 1:
        raise ValueError("divide needs depth >= 1")
    for move in state.legal_moves():
        name = state.move_to_str(move)
        state.play(move)
        try:
            count = state.perft(depth - 1)
        finally:
            state.undo()
        yield name, count
