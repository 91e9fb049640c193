"""The results database: an embedded SQLite file holding matches and every finished game.

Each game is committed the moment it finishes, so a match stopped in any way (Ctrl-C, a killed
process, a crash) loses nothing that was finished, and ``--resume`` replays only what is
missing. Users keep their databases across versions, so an older file is migrated in place
when opened (``PRAGMA user_version`` counts the migrations applied). The default file is
``crystalpick.sqlite`` in the user's data directory (``$XDG_DATA_HOME/crystalpick`` or
``~/.local/share/crystalpick``).
"""
from __future__ import annotations

import json
import os
import sqlite3
import time
from contextlib import contextmanager
from pathlib import Path

from crystalpick.engine import GameError

from .termination import Termination

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
    termination TEXT,                -- a Termination value; NULL: unknown (an older game)
    PRIMARY KEY (match_id, pair, swapped)
);
CREATE TABLE IF NOT EXISTS tournaments (
    id INTEGER PRIMARY KEY,
    created REAL NOT NULL,
    game TEXT NOT NULL,
    settings TEXT NOT NULL,          -- JSON: format, engines, games per pair, rounds
    status TEXT NOT NULL DEFAULT 'running'   -- running | finished
);
CREATE TABLE IF NOT EXISTS tournament_matches (   -- a tournament's pairings, each a match
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    match_id INTEGER NOT NULL UNIQUE REFERENCES matches(id),
    PRIMARY KEY (tournament_id, match_id)
);
"""
SCHEMA_VERSION = 1
APPLICATION_ID = 0x43505244        # "CPRD" in the SQLite header: a crystalpick results database
OUR_TABLES = {"matches", "games", "tournaments", "tournament_matches"}
# The columns every version wrote (termination: added by the migration to version 1).
OUR_COLUMNS = {"matches": {"id", "created", "game", "settings", "status"},
               "games": {"match_id", "pair", "swapped", "score", "result", "reason", "plies",
                         "record", "finished"},
               "tournaments": {"id", "created", "game", "settings", "status"},
               "tournament_matches": {"tournament_id", "match_id"}}
STATUSES = ("running", "finished", "stopped")
MEND = ("move the file aside (or give --db another) to start afresh, or delete the damaged "
        "rows with the sqlite3 tool")

# How games stored before the termination column read their free-text reason: the first
# matching fragment wins. Engines that failed to start forfeited games then; no termination
# describes that (such an engine now stops the match), so those stay unknown.
LEGACY_REASONS = (
    ("'protocolok'", None), ("cannot start", None),
    ("wins by the rules", Termination.NORMAL), ("lost on time", Termination.TIME_FORFEIT),
    ("adjudicated", Termination.ADJUDICATION), ("illegal move", Termination.ILLEGAL_MOVE),
    ("malformed answer", Termination.ILLEGAL_MOVE), ("engine hangs", Termination.ENGINE_HANG),
    ("engine failed", Termination.ENGINE_CRASH),
)


def legacy_termination(reason: str) -> Termination | None:
    if reason == "draw":
        return Termination.NORMAL
    for fragment, termination in LEGACY_REASONS:
        if fragment in reason:
            return termination
    return None


def default_path() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                           "share")
    return Path(base) / "crystalpick" / "crystalpick.sqlite"


class ResultsDB:
    """``create`` False: the file must exist already (``results`` only reads). A file that
    is not SQLite, is damaged, or is another program's database is refused with a
    :class:`GameError` before anything is written to it."""

    def __init__(self, path: str | os.PathLike, create: bool = True):
        self.path = Path(path)
        if self.path.exists() and not self.path.is_file():
            raise GameError(f"{self.path}: not a regular file, so not a results database")
        if not create and not self.path.exists():
            raise GameError(f"{self.path}: no results database here (a match creates it)")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self.connection = sqlite3.connect(self.path)
        except sqlite3.Error as err:          # e.g. a folder this user may not write
            raise GameError(f"{self.path}: cannot open a results database here ({err})") \
                from None
        try:
            self.check_ours()
            self.connection.executescript(SCHEMA)
            self.migrate()
        except sqlite3.Error as err:
            self.connection.close()
            raise GameError(f"{self.path}: cannot be read as a results database ({err}); "
                            f"left unchanged: {MEND}") from None
        except GameError as err:
            self.connection.close()
            raise GameError(f"{err}: {MEND}") from None

    def check_ours(self) -> None:
        """Refuse a damaged file, or one holding tables that are not ours (an older
        crystalpick file has ours without the application id)."""
        (status,) = self.connection.execute("PRAGMA quick_check").fetchone()
        if status != "ok":
            raise sqlite3.DatabaseError(f"damaged: {status}")
        (application,) = self.connection.execute("PRAGMA application_id").fetchone()
        tables = {name for (name,) in self.connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not (application == APPLICATION_ID or (application == 0 and tables <= OUR_TABLES)):
            raise GameError(f"{self.path}: not a crystalpick results database (it holds "
                            f"{', '.join(sorted(tables)) or 'another application id'}); left "
                            f"unchanged")
        for table in sorted(tables & OUR_TABLES):
            columns = {row[1] for row in self.connection.execute(f"PRAGMA table_info({table})")}
            missing = OUR_COLUMNS[table] - columns
            if missing:
                raise GameError(f"{self.path}: its table {table} lacks the column"
                                f"{'s' if len(missing) > 1 else ''} {', '.join(sorted(missing))}"
                                f" (not a results database crystalpick wrote, or a damaged "
                                f"one); left unchanged")

    @contextmanager
    def writing(self):
        """One transaction; SQLite's refusal to write (a read-only file or folder, a full
        disk, a lock held elsewhere) is a GameError naming the file, with nothing written."""
        try:
            with self.connection:
                yield
        except sqlite3.Error as err:
            raise GameError(f"{self.path}: cannot write to the results database ({err}); "
                            f"left unchanged") from None

    def migrate(self) -> None:
        """Bring a database written by an older version up to :data:`SCHEMA_VERSION`."""
        (application,) = self.connection.execute("PRAGMA application_id").fetchone()
        if application != APPLICATION_ID:
            self.connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        (version,) = self.connection.execute("PRAGMA user_version").fetchone()
        if version >= SCHEMA_VERSION:
            return
        with self.connection:
            self.connection.execute("BEGIN")     # one transaction: all of a migration or none
            columns = {row[1] for row in self.connection.execute("PRAGMA table_info(games)")}
            if "termination" not in columns:      # version 0: terminations were free text
                self.connection.execute("ALTER TABLE games ADD COLUMN termination TEXT")
                for rowid, reason in self.connection.execute(
                        "SELECT rowid, reason FROM games").fetchall():
                    termination = legacy_termination(reason)
                    if termination is not None:
                        self.connection.execute(
                            "UPDATE games SET termination = ? WHERE rowid = ?",
                            (termination.value, rowid))
            self.connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def close(self) -> None:
        self.connection.close()

    def new_match(self, game: str, settings: dict, claim=None) -> int:
        """Store a new match; ``claim(id)`` runs before the row is committed, so no other
        process sees the match before its owner holds it."""
        with self.writing():
            cursor = self.connection.execute(
                "INSERT INTO matches (created, game, settings) VALUES (?, ?, ?)",
                (time.time(), game, json.dumps(settings, sort_keys=True)))
            if claim is not None:
                claim(cursor.lastrowid)
        return cursor.lastrowid

    def match(self, match_id: int | None = None) -> tuple[int, dict, str] | None:
        """(id, settings, status) of a match, or of the newest unfinished one; a row that no
        match wrote (a status crystalpick never writes, a game other than its settings') is
        a GameError naming it."""
        if match_id is None:
            row = self.connection.execute(
                "SELECT id, settings, status, game FROM matches WHERE status != 'finished' "
                "ORDER BY id DESC LIMIT 1").fetchone()
        else:
            row = self.connection.execute(
                "SELECT id, settings, status, game FROM matches WHERE id = ?",
                (match_id,)).fetchone()
        if row is None:
            return None
        found, settings, status, game = row[0], self.settings_of(row[0], row[1]), row[2], row[3]
        if status not in STATUSES:
            raise GameError(f"{self.path}: match {found} has status {status!r}, which no match "
                            f"writes (expected {', '.join(STATUSES)}); left unchanged")
        if "game" in settings and game != settings["game"]:     # (no game: damaged settings)
            raise GameError(f"{self.path}: match {found} is of game {game!r} but its settings "
                            f"are of {settings['game']!r}; left unchanged")
        return found, settings, status

    def settings_of(self, match_id: int, text, what: str = "match") -> dict:
        try:
            settings = json.loads(text)
        except (TypeError, ValueError):
            settings = None
        if not isinstance(settings, dict):
            raise GameError(f"{self.path}: {what} {match_id} has damaged settings (not a JSON "
                            f"object); left unchanged")
        return settings

    def unfinished(self) -> list[int]:
        """The ids of the plain matches (no tournament's pairing) not finished, newest
        first."""
        return [i for (i,) in self.connection.execute(
            "SELECT id FROM matches WHERE status != 'finished' AND id NOT IN "
            "(SELECT match_id FROM tournament_matches) ORDER BY id DESC")]

    def add_game(self, match_id: int, pair: int, swapped: bool, score: float, result: str,
                 termination: Termination, reason: str, plies: int, record: str) -> bool:
        """Store a finished game; False if that game is stored already (another runner wrote
        it: the stored one is kept)."""
        with self.writing():
            cursor = self.connection.execute(
                "INSERT OR IGNORE INTO games (match_id, pair, swapped, score, result, termination,"
                " reason, plies, record, finished) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (match_id, pair, int(swapped), score, result, termination.value, reason, plies,
                 record, time.time()))
        return cursor.rowcount == 1

    def games(self, match_id: int) -> list[tuple[int, bool, float, Termination | None]]:
        """(pair, swapped, engine-1 score, termination) of every finished game of a match;
        a row that no match wrote is a GameError naming it."""
        rows = self.connection.execute(
            "SELECT pair, swapped, score, termination FROM games WHERE match_id = ? "
            "ORDER BY pair, swapped", (match_id,)).fetchall()
        terminations = {t.value: t for t in Termination}
        for row in rows:
            pair, swapped, score, termination = row
            if not (type(pair) is int and 0 <= pair and swapped in (0, 1)
                    and type(score) in (int, float) and score in (0, 0.5, 1)
                    and (termination is None or termination in terminations)):
                raise GameError(f"{self.path}: match {match_id} has a damaged game row "
                                f"{row!r}; left unchanged")
        return [(p, bool(s), float(score), None if t is None else terminations[t])
                for p, s, score, t in rows]

    def set_status(self, match_id: int, status: str) -> None:
        with self.writing():
            self.connection.execute("UPDATE matches SET status = ? WHERE id = ?",
                                    (status, match_id))

    def matches(self) -> list[tuple[int, float, str, dict, str]]:
        return [(i, c, g, self.settings_of(i, s), st) for i, c, g, s, st in
                self.connection.execute(
                    "SELECT id, created, game, settings, status FROM matches ORDER BY id")]

    def new_tournament(self, game: str, settings: dict, pairings: list[dict],
                       claim=None) -> tuple[int, list[int]]:
        """Store a tournament and its pairings' matches in one transaction (all or nothing);
        ``claim(id)`` runs before it is committed, as for :meth:`new_match`. Returns the
        tournament's id and its matches' ids in the order of ``pairings``."""
        with self.writing():
            created = time.time()
            cursor = self.connection.execute(
                "INSERT INTO tournaments (created, game, settings) VALUES (?, ?, ?)",
                (created, game, json.dumps(settings, sort_keys=True)))
            tournament_id = cursor.lastrowid
            match_ids = []
            for pairing in pairings:
                match_ids.append(self.connection.execute(
                    "INSERT INTO matches (created, game, settings) VALUES (?, ?, ?)",
                    (created, game, json.dumps(pairing, sort_keys=True))).lastrowid)
                self.connection.execute("INSERT INTO tournament_matches VALUES (?, ?)",
                                        (tournament_id, match_ids[-1]))
            if claim is not None:
                claim(tournament_id)
        return tournament_id, match_ids

    def tournament(self, tournament_id: int | None = None) -> tuple[int, dict, str] | None:
        """(id, settings, status) of a tournament, or of the newest unfinished one."""
        query = "SELECT id, settings, status FROM tournaments " + (
            "WHERE status != 'finished' ORDER BY id DESC LIMIT 1" if tournament_id is None
            else "WHERE id = ?")
        row = self.connection.execute(query, () if tournament_id is None
                                      else (tournament_id,)).fetchone()
        if row is None:
            return None
        return row[0], self.settings_of(row[0], row[1], "tournament"), row[2]

    def tournaments(self) -> list[tuple[int, float, str, str]]:
        """(id, created, game, status) of every tournament, oldest first."""
        return self.connection.execute(
            "SELECT id, created, game, status FROM tournaments ORDER BY id").fetchall()

    def unfinished_tournaments(self) -> list[int]:
        return [i for (i,) in self.connection.execute(
            "SELECT id FROM tournaments WHERE status != 'finished' ORDER BY id DESC")]

    def tournament_matches(self, tournament_id: int) -> list[int]:
        """The ids of a tournament's pairings' matches, in schedule order."""
        return [i for (i,) in self.connection.execute(
            "SELECT match_id FROM tournament_matches WHERE tournament_id = ? ORDER BY match_id",
            (tournament_id,))]

    def tournament_of(self, match_id: int) -> int | None:
        """The tournament a match is a pairing of (None: a plain match)."""
        row = self.connection.execute(
            "SELECT tournament_id FROM tournament_matches WHERE match_id = ?",
            (match_id,)).fetchone()
        return None if row is None else row[0]

    def set_tournament_status(self, tournament_id: int, status: str) -> None:
        with self.writing():
            self.connection.execute("UPDATE tournaments SET status = ? WHERE id = ?",
                                    (status, tournament_id))
