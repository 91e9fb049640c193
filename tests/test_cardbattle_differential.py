"""Fast against reference on seeded random games, the deal included: every position, legal
move list, chance distribution (exact: uniform over the cards left), key, observation and
result must agree, under every rule option value and several deck pairings.

Moves are picked uniformly, chance outcomes by their probabilities, from a seeded RNG, so a
failure names a seed that reproduces it.
"""
from __future__ import annotations

import random
from fractions import Fraction

import pytest

from crystalpick.engine.cardbattle import CardBattle
from crystalpick.engine.cardbattle.cards import sample_decks
from crystalpick.engine.game import sample_chance
from crystalpick.engine.kernel import MAX_PLIES

GAMES = 1000
CHUNKS = 10


def rule_sets() -> list[dict]:
    """The defaults, every other value of every option on its own, and a few mixtures with
    small games (short hands and targets, so decks run out and tie-breaks chain)."""
    sets = [{}]
    for option in CardBattle.rule_options:
        sets += [{option.name: choice} for choice in option.choices if choice != option.default
                 and option.name not in ("deck-minimum",)]
    sets += [{"hand": "2", "target": "4", "refill": "one", "deck-out": "lose"},
             {"hand": "1", "refill": "none", "no-creature": "forfeit", "tie-card": "zero"},
             {"tie-boosts": "yes", "boost-order": "caller-order", "crystals": "stake",
              "hand": "3"}]
    return sets


RULE_SETS = rule_sets()


def check_same(ref, fast, where: str) -> None:
    assert fast.to_position() == ref.to_position(), where
    assert fast.position() == ref.position(), where
    assert fast.current_player() == ref.current_player(), where
    assert fast.legal_moves() == ref.legal_moves(), where
    if ref.is_chance_node():
        exact = ref.exact_chance_outcomes()
        assert sum(p for _, p in exact) == 1 and len({p for _, p in exact}) == 1, where
        assert exact[0][1] == Fraction(1, len(exact)), where
        assert fast.chance_outcomes() == [(m, float(p)) for m, p in exact], where
    assert fast.hash_key() == ref.hash_key(), where
    for player in (0, 1):
        assert fast.observation_string(player) == ref.observation_string(player), where
    assert fast.returns() == ref.returns(), where


def play_game(seed: int, rules: dict | None = None) -> int:
    """One game, deal included, on both implementations (rules drawn from the seed unless
    given); returns its plies."""
    rng = random.Random(seed)
    rules = dict(rng.choice(RULE_SETS)) if rules is None else dict(rules)
    decks = sample_decks()
    rules.setdefault("deck1", rng.choice(decks))
    rules.setdefault("deck2", rng.choice(decks))
    ref = CardBattle(rules, impl="reference").setup_state()
    fast = CardBattle(rules, impl="fast").setup_state()
    plies = 0
    while True:
        check_same(ref, fast, f"seed {seed} ply {plies} rules {rules}")
        if ref.is_terminal():
            return plies
        move = sample_chance(ref, rng.random()) if ref.is_chance_node() \
            else rng.choice(ref.legal_moves())
        ref.play(move)
        fast.play(move)
        plies += 1


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_fast_and_reference_agree_on_random_games(chunk):
    for seed in range(chunk, GAMES, CHUNKS):
        play_game(seed)


@pytest.mark.parametrize("seed, rules, longer_than", [
    (131, {"target": "15", "deck1": "arsenal", "deck2": "arsenal", "tie-boosts": "yes"},
     MAX_PLIES),
    (1, {"deck1": ".".join(map(str, range(1, 62))), "deck2": ".".join(map(str, range(101, 165)))},
     0),
])
def test_agree_past_the_ply_capacity_and_with_decks_above_sixty(seed, rules, longer_than):
    """A game longer than MAX_PLIES (the kernel's history grows: no ply cap ends a game,
    §6), and decks of 61 and 64 cards (§2 has no upper limit)."""
    assert play_game(seed, rules) > longer_than


def test_every_rule_set_is_played():
    assert len(RULE_SETS) > 20
    assert {frozenset(r) for r in RULE_SETS} >= {frozenset({o.name}) for o in
                                                 CardBattle.rule_options
                                                 if len(o.choices) > 1
                                                 and o.name != "deck-minimum"}


@pytest.mark.parametrize("impl", ["fast", "reference"])
def test_undo_restores_every_position(impl):
    state = CardBattle(impl=impl, seed=99).new_initial_state()
    rng = random.Random(99)
    seen = []
    while not state.is_terminal():
        seen.append((state.position(), state.hash_key()))
        state.play(sample_chance(state, rng.random()) if state.is_chance_node()
                   else rng.choice(state.legal_moves()))
    while seen:
        state.undo()
        assert (state.position(), state.hash_key()) == seen.pop()


def test_kernel_combat_checks_match_the_rules():
    """The kernel's read-outs of next booster and top players follow rules.py."""
    from crystalpick.engine.cardbattle.rules import next_booster, top_players
    for seed in range(20):
        game = CardBattle(seed=seed)
        state = game.new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            pos = state.to_position()
            if pos.phase == 7:       # BOOST
                assert state.kernel.next_booster() == next_booster(pos, game.cardset,
                                                                   game.options)
                assert state.kernel.top_players() == top_players(pos)
            state.play(sample_chance(state, rng.random()) if state.is_chance_node()
                       else rng.choice(state.legal_moves()))


def test_native_playouts_restore_the_position_and_count_every_game():
    state = CardBattle({"deck1": "titas", "deck2": "arsenal"}, seed=2).new_initial_state()
    before = (state.position(), state.hash_key())
    plies, results = state.kernel.random_playouts(300, 7)
    assert sum(results) == 300 and plies >= 300 * 20
    assert (state.position(), state.hash_key()) == before
    assert state.kernel.random_playouts(300, 7) == (plies, results)     # seeded
