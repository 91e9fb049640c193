"""How large a game's history tree is, estimated by random probes: what decides whether a
game is small enough to solve exactly (``solve``), and so which engine analyses it by default
(``search.engines.default_analyser``) and whether ismcts takes the game's full-size defaults
(``ISMCTSEngine.game_options``)."""
from __future__ import annotations

import random

MAX_HISTORIES = 10**9           # the largest tree the exact solver takes on
PROBES = 200
SIZE_PROBES = 16                # enough to tell a small game from a full-size one
_exactly_solvable: dict[tuple, bool] = {}     # by game identity: the estimate is per game


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


def exactly_solvable(game) -> bool:
    """Whether ``game``'s history tree, estimated as ``solve`` estimates it, is within the
    exact solver's bound: there equilibrium methods (mccfr, the exact solvers) are the
    right tools; beyond it a search plays the full-size game (cached per game identity)."""
    if game.identity not in _exactly_solvable:
        _exactly_solvable[game.identity] = estimate_histories(
            game.new_initial_state(), SIZE_PROBES, stop_above=MAX_HISTORIES) <= MAX_HISTORIES
    return _exactly_solvable[game.identity]
