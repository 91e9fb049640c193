"""Fast and reference Mattock agree on seeded random games: legal moves, removals, winner.

1,000 games in all: both removal options on size 5, and fewer on size 7, where the reference
implementation is slowest. A failure names the seed and the ply, so it can be replayed.
"""
import random

import pytest

from crystalpick.engine import get_game

GAMES_PER_CONFIG = {("5", "blocking"): 400, ("5", "literal"): 400,
                    ("7", "blocking"): 100, ("7", "literal"): 100}
BATCHES = 4


def play_both(size, removal, seed):
    rules = {"size": size, "removal": removal}
    fast = get_game("mattock", rules).new_initial_state()
    ref = get_game("mattock", rules, impl="reference").new_initial_state()
    rng = random.Random(seed)
    ply = 0
    while True:
        where = f"size {size} {removal} seed {seed} ply {ply} ({ref.position()})"
        assert fast.position() == ref.position(), where
        assert fast.hash_key() == ref.hash_key(), where
        fast_moves, ref_moves = fast.legal_moves(), ref.legal_moves()
        assert fast_moves == ref_moves, where
        if not ref_moves:
            break
        move = rng.choice(ref_moves)
        fast.play(move)
        ref.play(move)
        ply += 1
    assert fast.is_terminal() and ref.is_terminal()
    assert fast.returns() == ref.returns() and fast.winner() == ref.winner() is not None
    return ply


@pytest.mark.slow
@pytest.mark.parametrize("batch", range(BATCHES))
@pytest.mark.parametrize("size,removal", list(GAMES_PER_CONFIG))
def test_random_games_agree(size, removal, batch):
    count = GAMES_PER_CONFIG[size, removal] // BATCHES
    first_seed = 1_000_000 * int(size) + (removal == "literal") * 100_000 + batch * count
    plies = [play_both(size, removal, seed) for seed in range(first_seed, first_seed + count)]
    assert min(plies) > 0


def test_undo_restores_every_position():
    game = get_game("mattock", {"removal": "literal"})
    rng = random.Random(3)
    for _ in range(30):
        s = game.new_initial_state()
        trail = []
        while not s.is_terminal():
            trail.append((s.position(), s.hash_key()))
            s.play(rng.choice(s.legal_moves()))
        while trail:
            s.undo()
            assert (s.position(), s.hash_key()) == trail.pop()
