"""The results database: an embedded SQLite file holding matches and every finished game.

Each game is committed the moment it finishes, so a match stopped in any way (Ctrl-C, a killed
process, a crash) loses nothing that was finished, and ``--resume`` replays only what is
missing. The default file is ``crystalpick.sqlite`` in the user's data directory
(``$XDG_DATA_HOME/crystalpick`` or ``~/.local/share/crystalpick``).
"""
from __future__ import annotations

import json
import os
import sqlite3
import time
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY,
    created REAL NOT NULL,
    game TEXT NOT NULL,
    settings TEXT NOT NULL,          -- JSON: everything needed to resume
    status TEXT NOT NULL DEFAULT 'running'   -- running | finished | stopped
);
CREATE TABLE IF NOT EXISTS games (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    pair INTEGER NOT NULL,
    swapped INTEGER NOT NULL,        -- 0: engine 1 moves first; 1: engine 2 moves first
    score REAL NOT NULL,             -- engine 1's score: 1, 0.5 or 0
    result TEXT NOT NULL,            -- 1-0 | 0-1 | 1/2-1/2, the game's point of view
    reason TEXT NOT NULL,
    plies INTEGER NOT NULL,
    record TEXT NOT NULL,
    finished REAL NOT NULL,
    PRIMARY KEY (match_id, pair, swapped)
);
"""


def default_path() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                           "share")
    return Path(base) / "crystalpick" / "crystalpick.sqlite"


class ResultsDB:
    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.connection = sqlite3.connect(self.path)
        self.connection.executescript(SCHEMA)

    def close(self) -> None:
        self.connection.close()

    def new_match(self, game: str, settings: dict) -> int:
        with self.connection:
            cursor = self.connection.execute(
                "INSERT INTO matches (created, game, settings) VALUES (?, ?, ?)",
                (time.time(), game, json.dumps(settings, sort_keys=True)))
        return cursor.lastrowid

    def match(self, match_id: int | None = None) -> tuple[int, dict, str] | None:
        """(id, settings, status) of a match, or of the newest unfinished one."""
        if match_id is None:
            row = self.connection.execute(
                "SELECT id, settings, status FROM matches WHERE status != 'finished' "
                "ORDER BY id DESC LIMIT 1").fetchone()
        else:
            row = self.connection.execute(
                "SELECT id, settings, status FROM matches WHERE id = ?", (match_id,)).fetchone()
        return None if row is None else (row[0], json.loads(row[1]), row[2])

    def add_game(self, match_id: int, pair: int, swapped: bool, score: float, result: str,
                 reason: str, plies: int, record: str) -> None:
        with self.connection:
            self.connection.execute(
                "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (match_id, pair, int(swapped), score, result, reason, plies, record,
                 time.time()))

    def games(self, match_id: int) -> list[tuple[int, bool, float]]:
        """(pair, swapped, engine-1 score) of every finished game of a match."""
        return [(p, bool(s), score) for p, s, score in self.connection.execute(
            "SELECT pair, swapped, score FROM games WHERE match_id = ? ORDER BY pair, swapped",
            (match_id,))]

    def records(self, match_id: int) -> list[str]:
        return [r for (r,) in self.connection.execute(
            "SELECT record FROM games WHERE match_id = ? ORDER BY pair, swapped", (match_id,))]

    def set_status(self, match_id: int, status: str) -> None:
        with self.connection:
            self.connection.execute("UPDATE matches SET status = ? WHERE id = ?",
                                    (status, match_id))

    def matches(self) -> list[tuple[int, float, str, dict, str]]:
        return [(i, c, g, json.loads(s), st) for i, c, g, s, st in self.connection.execute(
            "SELECT id, created, game, settings, status FROM matches ORDER BY id")]
