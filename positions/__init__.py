"""Position suites as data (perft tables, solved positions, opening sets), shipped in the wheel.

Perft tables (``*.perft``) and the games' bench suites (``positions.bench`` in each game's
package, the same blocks without counts; ``Game.bench_suite()``) follow python-chess's perft
file layout, one entry per blank-line-separated
block (``#`` starts a comment)::

    id start-5
    position 5/3x2/1o5/6o1/9/1x6/5x1/2o3/5 x
    perft 1 36
    perft 2 1314
"""
from __future__ import annotations

from dataclasses import dataclass, field
from importlib import resources


def read_text(name: str) -> str:
    """The text of a data file in this package, wherever the package is installed."""
    return resources.files(__name__).joinpath(name).read_text(encoding="utf-8")


@dataclass
class PerftCase:
    id: str
    position: str
    counts: dict[int, int] = field(default_factory=dict)   # depth -> node count


def parse_suite(text: str, source: str = "<suite>", need_counts: bool = False) -> list[PerftCase]:
    """Blocks of ``id``/``position`` (and ``perft`` lines where ``need_counts``)."""
    cases: list[PerftCase] = []
    current: PerftCase | None = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            current = None
            continue
        key, _, value = line.partition(" ")
        if key == "id":
            current = PerftCase(value.strip(), "")
            cases.append(current)
        elif current is None:
            raise ValueError(f"{source}:{number}: {key!r} before an 'id' line")
        elif key == "position":
            current.position = value.strip()
        elif key == "perft":
            depth, count = value.split()
            current.counts[int(depth)] = int(count)
        else:
            raise ValueError(f"{source}:{number}: unknown key {key!r}; expected id, position "
                             f"or perft")
    for case in cases:
        if not case.position or (need_counts and not case.counts):
            raise ValueError(f"{source}: entry {case.id!r} needs a position"
                             + (" and perft lines" if need_counts else ""))
    return cases


def perft_suite(game: str) -> list[PerftCase]:
    """The perft table of ``game`` (``positions/<game>.perft``)."""
    name = f"{game}.perft"
    return parse_suite(read_text(name), name, need_counts=True)
