"""Card battle notation: positions round-trip, moves round-trip, and malformed text of any
kind (fuzzed) is a one-line NotationError, never a traceback."""
from __future__ import annotations

import random

import pytest

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crystalpick.engine import GameError, sample_chance
from crystalpick.engine.cardbattle import CardBattle

GAME = CardBattle()
POSITIONS = []
state = CardBattle(seed=11).new_initial_state()
rng = random.Random(11)
while not state.is_terminal():
    POSITIONS.append(state.position())
    state.play(sample_chance(state, rng.random()) if state.is_chance_node()
               else rng.choice(state.legal_moves()))
POSITIONS.append(state.position())


def test_every_position_of_a_game_round_trips():
    for text in POSITIONS:
        assert GAME.parse_position(text).position() == text


def one_line_error(call) -> None:
    try:
        call()
    except GameError as err:
        assert "\n" not in str(err)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(POSITIONS), st.integers(0, 2000), st.integers(0, 30),
       st.text(alphabet="0123456789.-=|?Pabcdefghijklmnoprstuvwxyz ", max_size=12))
def test_mutated_positions_are_a_one_line_error_or_a_position(text, at, cut, insert):
    at %= len(text) + 1
    mutated = text[:at] + insert + text[at + cut:]
    one_line_error(lambda: play_on(GAME.parse_position(mutated)))


def play_on(state) -> None:
    """A parsed position must also be playable: a few plies of its first moves."""
    for _ in range(6):
        if state.is_terminal():
            return
        state.play(state.legal_moves()[0])
    state.position()


@settings(max_examples=300)
@given(st.text(max_size=40))
def test_any_text_is_a_one_line_error_or_a_position(text):
    one_line_error(lambda: GAME.parse_position(text))


@settings(max_examples=300)
@given(st.text(max_size=20))
def test_any_move_text_is_a_one_line_error_or_a_legal_move(text):
    state = GAME.parse_position(POSITIONS[len(POSITIONS) // 2])
    one_line_error(lambda: state.parse_move(text))


def test_moves_round_trip_in_every_phase():
    state = CardBattle({"deck1": "arsenal", "deck2": "arsenal"}, seed=5).new_initial_state()
    rng = random.Random(5)
    kinds = set()
    while not state.is_terminal():
        for move in state.legal_moves():
            text = state.move_to_str(move)
            kinds.add(text.partition(":")[0])
            assert state.parse_move(text) == move
        state.play(sample_chance(state, rng.random()) if state.is_chance_node()
                   else rng.choice(state.legal_moves()))
    assert kinds >= {"keep", "mulligan", "call", "play", "draw", "toss", "pass", "boost"}


def with_cards(count: int) -> str:
    """POSITIONS[0] with P1 owning ``count`` cards (more of them in the discard pile)."""
    head, first, second = POSITIONS[0].split(" | ")
    owned = set(GAME.parse_position(POSITIONS[0]).to_position().seats[0].cards())
    extra = [n for n in GAME.cardset.cards if n not in owned][:count - len(owned)]
    crowded = first.replace("discard=-", f"discard={'.'.join(map(str, sorted(extra)))}")
    return " | ".join([head, crowded, second])


def test_no_upper_deck_size_but_the_kernel_holds_64_cards():
    """§2 has no upper limit: the reference reads a player of 65 cards; the fast
    implementation keeps piles in 64 bits and refuses it in one line."""
    reference = CardBattle(impl="reference")
    assert len(reference.parse_position(with_cards(65)).to_position().seats[0].cards()) == 65
    assert len(GAME.parse_position(with_cards(64)).to_position().seats[0].cards()) == 64
    with pytest.raises(GameError, match="P1 owns 65 cards; the fast implementation holds at "
                                        "most 64 per player .*--impl reference"):
        GAME.parse_position(with_cards(65))
