"""Generic perft over the game interface, for reference implementations and perft --divide.

Fast implementations override :meth:`State.perft` with a native loop; this module is what
the reference implementations (and any new game) get for free. The last ply is bulk-counted:
at depth 1 the answer is the number of legal moves, so leaves are never played.
Chance outcomes count as plies like decisions, so perft counts every path.

``stop`` is a stop flag (anything with ``is_set()``), read at every inner node as the native
loops read its word: once set, the count unwinds with the position restored and is None.
"""
from __future__ import annotations

from typing import NamedTuple

from .game import State


class _Stopped(Exception):
    """Unwinds the recursion once the stop flag is seen."""


def perft(state: State, depth: int, stop=None) -> int | None:
    try:
        return _count(state, depth, stop)
    except _Stopped:
        return None


def _count(state: State, depth: int, stop) -> int:
    if depth <= 0:
        return 1
    moves = state.legal_moves()
    if depth == 1:
        return len(moves)
    if stop is not None and stop.is_set():
        raise _Stopped
    total = 0
    for move in moves:
        state.play(move)
        try:
            total += _count(state, depth - 1, stop)
        finally:
            state.undo()
    return total


class RootCount(NamedTuple):
    move: str            # the root move, in notation
    nodes: int | None    # perft of its child at depth - 1; None: stopped while counting it
    position: str        # the child's position, the one being counted


def perft_by_move(state: State, depth: int, stop=None):
    """Yield a :class:`RootCount` for each legal move, in order.

    Long counts are driven from here one root move at a time, so a caller can show progress.
    If ``stop`` is set during a root move's count, the last one yielded has ``nodes`` None
    (its position is where the count was when it stopped) and the walk ends; set between
    root moves, the walk just ends.
    """
    if depth < 1:
        raise ValueError("divide needs depth >= 1")
    for move in state.legal_moves():
        if stop is not None and stop.is_set():
            return
        name = state.move_to_str(move)
        state.play(move)
        try:
            count = RootCount(name, state.perft(depth - 1, stop), state.position())
        finally:
            state.undo()
        yield count
        if count.nodes is None:
            return
