"""Who is playing a match: an exclusive lock per match (or tournament) of a results
database, held by the process that runs it (``match``, ``tournament``, their ``--resume``)
until it ends.

The lock is ``flock`` on a file next to the database, ``DB.match-N.lock``, holding the
owner's pid for the message. The kernel releases it when the owner dies however it dies (a
killed process needs no heartbeat or stale-lock clean-up), so ``--resume`` can tell a match
someone is still playing from one that was stopped, and two runners never play, or write,
the same games. (``flock`` is not reliable on some network file systems: keep the database
on a local disk.)
"""
from __future__ import annotations

import fcntl
import os
from pathlib import Path


class MatchLock:
    """``kind`` "tournament": the lock of a tournament (``DB.tournament-N.lock``), held for
    all of its pairings' matches."""

    def __init__(self, db_path: Path, match_id: int, kind: str = "match"):
        self.path = Path(f"{db_path}.{kind}-{match_id}.lock")
        self.handle = None

    def acquire(self) -> bool:
        """Take the lock; False if a live process holds it."""
        while True:
            handle = open(self.path, "a+")
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                handle.close()
                return False
            try:                  # the file may have been removed by its last owner meanwhile
                same = os.stat(self.path).st_ino == os.fstat(handle.fileno()).st_ino
            except FileNotFoundError:
                same = False
            if same:
                break
            handle.close()
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        self.handle = handle
        return True

    def held(self) -> bool:
        """Whether a live process holds the lock now (read without taking it: a shared
        lock tried and dropped at once; no file is written)."""
        try:
            handle = open(self.path)
        except FileNotFoundError:
            return False
        with handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_SH | fcntl.LOCK_NB)
            except BlockingIOError:
                return True
            fcntl.flock(handle, fcntl.LOCK_UN)
            return False

    def owner(self) -> str:
        try:
            return self.path.read_text().strip() or "?"
        except OSError:
            return "?"

    def release(self) -> None:
        if self.handle is not None:
            try:
                self.path.unlink()
            except FileNotFoundError:
                pass
            self.handle.close()
            self.handle = None

    def __enter__(self) -> "MatchLock":
        return self

    def __exit__(self, *exc) -> None:
        self.release()


def stored_status(db_path: Path, kind: str, number: int, status: str) -> str:
    """A match's or tournament's status as stored, except that a 'running' one no live
    process holds is 'interrupted' (stopped by Ctrl-C or killed: ``--resume`` continues)."""
    if status == "running" and not MatchLock(db_path, number, kind).held():
        return "interrupted"
    return status
