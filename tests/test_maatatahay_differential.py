"""Fast against reference on seeded random games: every legal move list, every chance
distribution, every key, score and winner must agree, and crystals are conserved throughout.

Moves are picked uniformly, chance outcomes by their probabilities, from a seeded RNG, so a
failure names a seed that reproduces it.
"""
from __future__ import annotations

import random

import pytest

from crystalpick.engine.maatatahay import Maatatahay
from crystalpick.engine.maatatahay.constants import (ENERGY_TOTAL, FIGHT, LOAD, ORDER, PAIR, PLACE,
                                                     PLAY_OPTIONS, RETURN, SPIRIT_TOTAL)
from crystalpick.engine.maatatahay.tileset import load_tileset
from crystalpick.engine.game import sample_chance

GAMES = 500
CHUNKS = 5


def crystals(pos) -> tuple[int, int]:
    """Spirit and Energy summed over every place a crystal can be (section 9)."""
    spirit = (pos.bag_spirit + sum(pos.storage_spirit) + sum(pos.cell_spirit)
              + sum(pos.warrior_spirit) + pos.removed_spirit)
    energy = (pos.bag_energy + sum(pos.storage_energy) + sum(pos.cell_energy)
              + sum(pos.warrior_energy) + pos.supply_energy)
    return spirit, energy


def pick(state, rng: random.Random, first: float = 0.0) -> int:
    """A chance outcome by its probability, else a uniform legal move, or with probability
    ``first`` the first one (the empty load: storage then piles up and is returned)."""
    if state.is_chance_node():
        return sample_chance(state, rng.random())
    moves = state.legal_moves()
    return moves[0] if rng.random() < first else rng.choice(moves)


def check_same(ref, fast, seed: int, ply: int) -> None:
    where = f"seed {seed} ply {ply}"
    ref_pos, fast_pos = ref.to_position(), fast.to_position()
    assert fast_pos == ref_pos, where
    assert fast.current_player() == ref.current_player(), where
    assert fast.legal_moves() == ref.legal_moves(), where
    if ref.is_chance_node():
        exact = ref.exact_chance_outcomes()
        assert sum(p for _, p in exact) == 1, where
        assert fast.chance_outcomes() == [(m, float(p)) for m, p in exact], where
    assert fast.hash_key() == ref.hash_key(), where
    assert crystals(ref_pos) == (SPIRIT_TOTAL, ENERGY_TOTAL), where
    assert fast.kernel.crystal_totals() == (SPIRIT_TOTAL, ENERGY_TOTAL), where
    assert fast.kernel.deaths() == [ref_pos.deaths(0), ref_pos.deaths(1)], where
    assert fast.scores() == ref.scores(), where


def random_rules(rng: random.Random) -> dict:
    """Every play option at a random value (each value in about half the games), and a
    named layout in a quarter of them."""
    rules = {o.name: rng.choice(o.choices) for o in PLAY_OPTIONS}
    if rng.random() < 0.25:
        rules["layout"] = rng.choice(list(load_tileset().layouts))
    return rules


def play_game(seed: int) -> set[int]:
    """Play one game, setup included, on both implementations; return the phases where a
    player decided something."""
    rules = random_rules(random.Random(seed))
    ref = Maatatahay(rules, impl="reference").setup_state()      # the setup is chance too
    fast = Maatatahay(rules, impl="fast").setup_state()
    rng = random.Random(seed)
    decided, ply = set(), 0
    while True:
        check_same(ref, fast, seed, ply)
        if ref.is_terminal():
            break
        if not ref.is_chance_node():
            decided.add(ref.to_position().phase)
        move = pick(ref, rng, first=0.3)
        ref.play(move)
        fast.play(move)
        ply += 1
    assert fast.returns() == ref.returns()
    assert fast.winner() == ref.winner()
    return decided


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_fast_and_reference_agree_on_random_games(chunk):
    decided = set()
    for seed in range(chunk, GAMES, CHUNKS):
        decided |= play_game(seed)
    assert decided == {PAIR, ORDER, PLACE, LOAD, RETURN, FIGHT}      # every decision point met


@pytest.mark.parametrize("impl", ["fast", "reference"])
def test_undo_restores_every_position(impl):
    state = Maatatahay(impl=impl, seed=99).new_initial_state()
    rng = random.Random(99)
    seen = []
    while not state.is_terminal():
        seen.append((state.position(), state.hash_key()))
        state.play(pick(state, rng))
    while seen:
        state.undo()
        assert (state.position(), state.hash_key()) == seen.pop()


def test_clone_is_independent_and_keeps_its_history():
    for impl in ("fast", "reference"):
        state = Maatatahay(impl=impl, seed=5).new_initial_state()
        start = state.position()
        rng = random.Random(5)
        for _ in range(12):
            state.play(pick(state, rng))
        twin = state.clone()
        assert twin.position() == state.position()
        state.play(state.legal_moves()[0])
        assert twin.position() != state.position()
        for _ in range(12):
            twin.undo()
        assert twin.position() == start
