"""Deterministic 64-bit Zobrist keys shared by the fast and reference implementations."""
from __future__ import annotations

import hashlib
from typing import Mapping

MASK64 = (1 << 64) - 1


def zobrist_keys(count: int, seed: int) -> list[int]:
    """``count`` pseudo-random 64-bit keys from splitmix64, fixed by ``seed`` (never changes,
    so transposition tables and stored keys stay valid across versions)."""
    keys, state = [], seed & MASK64
    for _ in range(count):
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        keys.append(z ^ (z >> 31))
    return keys


def digest64(*parts) -> int:
    """A 64-bit digest of ``parts`` (ints, strings and tuples of them, hashed by their repr):
    the same content gives the same digest in every process and version, unlike ``hash``."""
    digest = hashlib.blake2b(repr(parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little")


def rules_key(rules: Mapping[str, str]) -> int:
    """One key per ``(option, value)`` of the rule options that change play, XORed together.

    A game XORs it into every position key, so the same cells under other rules are another
    position to a transposition table (and searches under different rules never share one).
    """
    key = 0
    for name, value in rules.items():
        key ^= digest64("rule", name, value)
    return key
