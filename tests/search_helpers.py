"""Shared by the search tests: exact expectimax for Chance Nim, random movers, match play, and
a Ctrl-C that lands after a number of finished tasks."""
from __future__ import annotations

import random

from crystalpick.engine.game import CHANCE, TERMINAL
from crystalpick.search import analyse
from crystalpick.search.alphabeta import MATE_SCORE, MATE_THRESHOLD_SCORE, PROOF_BOUND_SCORE
from crystalpick.engine.game import sample_chance


def expectimax(state, ply: int = 0, memo=None) -> float:
    """Alpha-beta's score definition by brute force, player 0's view: a win in n plies is
    MATE - n, a draw 0, chance nodes average by probability (see :func:`chance_value`)."""
    memo = {} if memo is None else memo
    key = (state.position(), ply)
    if key not in memo:
        memo[key] = expectimax_uncached(state, ply, memo)
    return memo[key]


def expectimax_uncached(state, ply, memo) -> float:
    player = state.current_player()
    if player == TERMINAL:
        return state.returns()[0] * (MATE_SCORE - ply)
    if player == CHANCE:
        weighted = []
        for outcome, probability in state.chance_outcomes():
            state.play(outcome)
            weighted.append((probability, expectimax(state, ply + 1, memo)))
            state.undo()
        return chance_value(weighted)
    values = []
    for move in state.legal_moves():
        state.play(move)
        values.append(expectimax(state, ply + 1, memo))
        state.undo()
    return max(values) if player == 0 else min(values)


def chance_value(weighted) -> float:
    """A proof survives a chance node only if every outcome is proven the same way;
    otherwise proven outcomes count as +-PROOF_BOUND in the average."""
    values = [v for _, v in weighted]
    if all(v > MATE_THRESHOLD_SCORE for v in values) or \
            all(v < -MATE_THRESHOLD_SCORE for v in values):
        return sum(p * v for p, v in weighted)
    return sum(p * min(max(v, -PROOF_BOUND_SCORE), PROOF_BOUND_SCORE) for p, v in weighted)


def play_match(game, make_engine, limits, games: int, seed: int) -> int:
    """Games won by the engine against a uniformly random mover, colours alternating."""
    rng = random.Random(seed)
    wins = 0
    for number in range(games):
        engine_side = number % 2
        engine = make_engine(number)
        state = game.new_initial_state()
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                state.play(sample_chance(state, rng.random()))
            elif player == engine_side:
                state.play(analyse(state, engine, limits).best_move)
            else:
                state.play(rng.choice(state.legal_moves()))
        wins += state.returns()[engine_side] > 0
    return wins


def ctrl_c_after(monkeypatch, finished: int) -> None:
    """Make the local pool raise KeyboardInterrupt (Ctrl-C's form in the parent) once
    ``finished`` tasks have come back, as a user's Ctrl-C between two results would."""
    from crystalpick.search import executors
    completed = executors.LocalPool.completed

    def interrupted(self, stop=None):
        for number, result in enumerate(completed(self, stop)):
            if number == finished:
                raise KeyboardInterrupt
            yield result
    monkeypatch.setattr(executors.LocalPool, "completed", interrupted)
