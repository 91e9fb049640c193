"""How large a game's history tree is, estimated by random probes: what decides whether a
game is small enough to solve exactly (``solve``) and so which engine analyses it by default
(``search.engines.default_analyser``)."""
from __future__ import annotations

import random

MAX_HISTORIES = 10**9           # the largest tree the exact solver takes on
PROBES = 200


def estimate_histories(state, probes: int = PROBES, seed: int = 1,
                       stop_above: float | None = None) -> float:
    """Knuth's unbiased estimate of the number of nodes of the game's history tree; with
    ``stop_above``, a value above it as soon as the estimate must exceed it (one probe past
    ``probes`` times it: a full-size game needs a few plies of one probe to tell)."""
    rng = random.Random(seed)
    total = 0.0
    for _ in range(probes):
        walk = state.clone()
        weight = count = 1.0
        while not walk.is_terminal():
            moves = walk.legal_moves()
            weight *= len(moves)
            count += weight
            if stop_above is not None and count > probes * stop_above:
                return count / probes
            walk.play(rng.choice(moves))
        total += count
    return total / probes
