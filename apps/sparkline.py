"""Small charts for the terminal: a series drawn as one line of unicode blocks (``▁`` to
``█``), with an optional line of markers under it, so the text output of ``annotate`` and
``match`` shows the shape of a game or a match without a plotting library.

A series longer than the chart is sampled at the end of each column's span (a running
figure is what it is after the column's last point); a marker falls into the column of its
point, the worst of several winning.
"""
from __future__ import annotations

import math

BLOCKS = "▁▂▃▄▅▆▇█"
WIDTH = 72


def columns(count: int, width: int = WIDTH) -> list[int]:
    """The index of the last point each column shows, for ``count`` points."""
    if count <= width:
        return list(range(count))
    return [math.ceil((column + 1) * count / width) - 1 for column in range(width)]


def sparkline(values: list[float], low: float = 0.0, high: float = 1.0,
              width: int = WIDTH) -> str:
    """``values`` between ``low`` and ``high`` as blocks, at most ``width`` of them (a
    value that is not finite is a blank)."""
    def block(value: float) -> str:
        if not math.isfinite(value):
            return " "
        share = (min(max(value, low), high) - low) / (high - low)
        return BLOCKS[min(int(share * len(BLOCKS)), len(BLOCKS) - 1)]
    return "".join(block(values[index]) for index in columns(len(values), width))


def marker_line(count: int, markers: dict[int, str], rank: str, width: int = WIDTH) -> str:
    """A line under :func:`sparkline` of ``count`` points with ``markers`` (point index ->
    symbol) in their columns; of several in one column the first in ``rank`` wins."""
    shown = columns(count, width)
    line = [" "] * len(shown)
    column = 0
    for index in sorted(markers):
        while shown[column] < index:
            column += 1
        if line[column] == " " or rank.index(markers[index]) < rank.index(line[column]):
            line[column] = markers[index]
    return "".join(line).rstrip()
