"""Seed derivation: one seed per task from a run's seed and the task's coordinates, so a task
draws the same wherever and in whatever order it runs (matches, annotation, the deck advisor,
job-level proofs all derive their seeds here)."""
from __future__ import annotations

import hashlib


def derive_seed(*parts) -> int:
    """A 63-bit seed from the match seed and a task's coordinates (stable across runs)."""
    digest = hashlib.sha256(repr(parts).encode()).digest()
    return int.from_bytes(digest[:8], "little") >> 1
