"""When a searcher's table should share the entries of symmetric positions (issue 32).

A kernel's ``canonical_key`` (engine/kernel.pxd) is the same for positions that are one game
seen differently. Keying a table by it is sound everywhere, but it only pays where symmetric
positions meet in one search, and in Mattock that is only near a symmetric position (tiles
are never removed, so every position of a search holds its root's tiles, and an asymmetric
root's images cannot be reached). ``auto`` therefore turns it on where the root's first
moves fall into fewer classes than moves, which the kernel tells through the same keys:
the start position's 36 moves are 12 classes, the endgame suite never has two moves alike
(docs/search.md measured both).
"""
from __future__ import annotations

SYMMETRY_CHOICES = ("auto", "on", "off")


def first_move_classes(state) -> list[list[int]]:
    """The legal moves grouped by the canonical key of the position each leads to, in the
    order of their first move (a move whose position is symmetric to an earlier one's joins
    its class)."""
    kernel = state.search_kernel().clone()
    classes: dict[int, list[int]] = {}
    for move in kernel.legal_moves():
        kernel.play(move)
        classes.setdefault(kernel.canonical, []).append(move)
        kernel.undo()
    return list(classes.values())


def use_symmetry(choice: str, state, classes: list[list[int]] | None = None) -> bool:
    """Whether a search of ``state`` keys its table by canonical keys: ``on``, ``off`` or
    ``auto`` (on when two first moves lead to symmetric positions; ``classes``: the
    state's :func:`first_move_classes` if the caller has them)."""
    if choice not in SYMMETRY_CHOICES:
        raise ValueError(f"symmetry={choice}: expected {'|'.join(SYMMETRY_CHOICES)}")
    if choice != "auto":
        return choice == "on"
    classes = first_move_classes(state) if classes is None else classes
    return sum(len(c) for c in classes) > len(classes)


def twins(state, moves) -> dict[int, int]:
    """Each of ``moves`` whose position is symmetric to an earlier one's, mapped to that
    earlier move: the multi-PV lines a search without shared entries shows twice."""
    kernel = state.search_kernel().clone()
    first: dict[int, int] = {}
    found = {}
    for move in moves:
        kernel.play(move)
        found[move] = first.setdefault(kernel.canonical, move)
        kernel.undo()
    return {move: earlier for move, earlier in found.items() if earlier != move}
