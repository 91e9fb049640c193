"""Files of one JSON header line and a body, as the solvers keep their work (the df-pn table
of search/solve.py, the master trees of solvers/jobpns.py): written whole or not at all, the
header carrying the body's SHA-256 so that a damaged body is never trusted (issue 33)."""
from __future__ import annotations

import hashlib
import json
import os

from crystalpick.engine.game import GameError


class DamagedTable(GameError):
    """A ``--resume`` file that is ours but damaged: nothing of it was loaded."""


def digest(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()


def write_headed(path: str, header: dict, body: bytes) -> None:
    """Write ``header`` (a JSON object) and ``body``: the whole file or nothing."""
    partial = f"{path}.partial"
    with open(partial, "wb") as handle:
        handle.write(json.dumps(header).encode() + b"\n")
        handle.write(body)
    os.replace(partial, path)


def read_headed(path: str) -> tuple[dict | None, bytes]:
    """The header (None when the first line is no JSON object) and the body. An empty
    file is :class:`DamagedTable` (a save cut short): solved afresh, not refused."""
    with open(path, "rb") as handle:
        first, body = handle.readline(), handle.read()
    if not first:
        raise DamagedTable(f"--resume {path}: the file is empty (a save cut short?)")
    try:
        header = json.loads(first)
    except ValueError:
        return None, body
    return (header if isinstance(header, dict) else None), body


def check_headed(path: str, header: dict, body: bytes, game, kind: str) -> None:
    """Refuse the ``kind`` of file (table, tree) in ``path`` when it is of another game or
    rule set (a GameError) or its body does not match its checksum (:class:`DamagedTable`)."""
    if header.get("identity") != repr(game.identity):
        raise GameError(f"--resume {path}: a {kind} of {header.get('game')} with other rules "
                        f"or components, not of this {game.name}")
    if header.get("sha256") != digest(body):
        raise DamagedTable(f"--resume {path}: the {kind} is damaged (its checksum does not "
                           f"match)")
