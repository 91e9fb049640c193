"""Deterministic 64-bit Zobrist keys shared by the fast and reference implementations."""
from __future__ import annotations

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
