"""Recount a game's perft table after a rules change, and say which entries changed.

    python bench/perft_regenerate.py maatatahay [--write]

Every count is recomputed with the fast implementation and, where the tree holds at most
100,000 nodes, with the reference too (they must agree); each position is rewritten as the
game now prints it (an option that became the default drops out). Without ``--write`` the
file is left alone. Comments and layout are kept; a new entry may be added with placeholder
counts (``perft 3 0``) and filled in by this tool.
"""
from __future__ import annotations

import argparse
from pathlib import Path

from crystalpick.engine import get_game
from crystalpick.positions import parse_suite

REFERENCE_NODE_LIMIT = 100_000
TABLES = Path(__file__).resolve().parent.parent / "positions"


def recount(game: str, text: str) -> tuple[str, list[str]]:
    """The table with every count recomputed, and a line per changed entry."""
    fast, reference = get_game(game), get_game(game, impl="reference")
    cases = {case.id: case for case in parse_suite(text, f"{game}.perft", need_counts=True)}
    out, changes, current = [], [], None
    for line in text.splitlines():
        key, _, value = line.split("#", 1)[0].strip().partition(" ")
        if key == "id":
            current = cases[value.strip()]
            state = fast.parse_position(current.position)
        elif key == "position":
            line = f"position {state.position()}"
            if state.position() != current.position:
                changes.append(f"{current.id}: position now written {state.position()!r}")
        elif key == "perft":
            depth, old = (int(v) for v in value.split())
            new = state.perft(depth)
            if new <= REFERENCE_NODE_LIMIT:
                checked = reference.parse_position(current.position).perft(depth)
                if checked != new:
                    raise SystemExit(f"{current.id} perft {depth}: fast {new}, reference "
                                     f"{checked}")
            if new != old:
                changes.append(f"{current.id}: perft {depth} {old} -> {new}")
            line = f"perft {depth} {new}"
        out.append(line)
    return "\n".join(out) + "\n", changes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--write", action="store_true", help="rewrite the table")
    args = parser.parse_args()
    path = TABLES / f"{args.game}.perft"
    text, changes = recount(args.game, path.read_text(encoding="utf-8"))
    print("\n".join(changes) or "no entry changed")
    if args.write:
        path.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
