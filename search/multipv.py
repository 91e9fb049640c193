"""The lines a stopped alpha-beta search reports, in Stockfish's multi-PV order.

Iterative deepening searches the root moves in the order of the last finished iteration (best
first), so an iteration stopped part-way has searched its first moves completely and the rest
against a bound or not at all. A stopped search reports, best first:

1. the moves the unfinished iteration searched completely (an exact score, not a bound),
   ranked by that score, at the unfinished iteration's depth;
2. then the other lines of the last finished iteration, in its order, at its depth.

Every line carries the depth its score comes from. Scores of different depths are not ranked
against each other (an odd and an even depth differ systematically): a deeper line leads
because it is the better-informed one, not because its score is higher. With one line this is
the unfinished iteration's best complete move when it has one, else the finished iteration's.
"""
from __future__ import annotations


def stopped_lines(finished, unfinished, multipv: int) -> list[tuple]:
    """``finished`` is ``(depth, [(score, pv), ...])`` of the last finished iteration (None if
    none finished); ``unfinished`` the unfinished iteration's complete ``(score, pv)`` lines,
    best first. Returns at most ``multipv`` ``(score, pv, depth)`` lines, none if neither
    iteration has one."""
    depth, lines = finished if finished is not None else (0, [])
    deeper = [(score, pv, depth + 1) for score, pv in unfinished[:multipv]]
    searched = {pv[:1] for _, pv, _ in deeper}
    shallower = [(score, pv, depth) for score, pv in lines if pv[:1] not in searched]
    return (deeper + shallower)[:multipv]
