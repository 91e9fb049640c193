"""Maatatahay notation: exact round trips, readable errors for malformed input, fuzzing."""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crystalpick.engine.game import IllegalMoveError, NotationError
from crystalpick.engine.maatatahay import Maatatahay
from crystalpick.engine.maatatahay.constants import PLAY_OPTIONS
from crystalpick.engine.maatatahay.moves import format_move, parse_move_syntax
from crystalpick.engine.maatatahay.notation import format_position, parse_position

from test_maatatahay_support import TILESET, build


def game_positions(seed: int, impl: str = "fast") -> list[str]:
    """Every position of one random game, setup included, in notation."""
    state = Maatatahay(impl=impl).setup_state()
    rng = random.Random(seed)
    texts = [state.position()]
    while not state.is_terminal():
        state.play(rng.choice(state.legal_moves()))
        texts.append(state.position())
    return texts


SAMPLES = [text for seed in range(6) for text in game_positions(seed)]
START = Maatatahay(seed=0).new_initial_state().position()


@pytest.mark.parametrize("impl", ["fast", "reference"])
def test_every_position_of_random_games_round_trips(impl):
    game = Maatatahay(impl=impl)
    for text in SAMPLES:
        assert not text.startswith("-")            # would read as a command-line option
        state = game.parse_position(text)
        assert state.position() == text
        assert parse_position(text, TILESET) == state.to_position()


def test_parsed_position_plays_on_like_the_original():
    state = Maatatahay(seed=11).new_initial_state()
    rng = random.Random(11)
    for _ in range(30):
        state.play(rng.choice(state.legal_moves()))
    twin = Maatatahay().parse_position(state.position())
    assert twin.legal_moves() == state.legal_moves()
    assert twin.hash_key() == state.hash_key()


def test_every_legal_move_string_parses_back():
    game = Maatatahay(seed=3)
    state = game.new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        for move in state.legal_moves():
            assert state.parse_move(state.move_to_str(move)) == move
        state.play(rng.choice(state.legal_moves()))


def test_setup_positions_are_in_the_samples():
    phases = {text.split("pending=")[1].split()[0].split(":")[0] for text in SAMPLES}
    assert {"layout", "crystals", "reveal", "toss", "pair", "place", "load"} <= phases


def test_a_game_record_replays_exactly():
    state = Maatatahay().setup_state()
    start = state.position()
    rng = random.Random(8)
    record = []
    while not state.is_terminal():
        move = rng.choice(state.legal_moves())
        record.append(state.move_to_str(move))
        state.play(move)
    assert Maatatahay().state(start, record).position() == state.position()


def replace_field(text: str, label: str, value: str) -> str:
    return " ".join(f"{label}={value}" if f.startswith(label + "=") else f for f in text.split())


BOARD = START.split()[0]
MALFORMED = [
    ("", "fields"),
    (START.split(maxsplit=1)[1], "fields"),
    (START.replace("/", "|", 1), "rows"),
    (START.replace(BOARD, BOARD.replace(",", ";", 1)), "cells separated by ','"),
    (START.replace(BOARD, "Q9^," + BOARD.split(",", 1)[1]), "board cell a5"),
    (START.replace(BOARD, "1s," + BOARD.split(",", 1)[1]), "board cell a5"),
    (START.replace(BOARD, "-," + BOARD.split(",", 1)[1]), "expected '.' (empty)"),
    (replace_field(START, "temples", "a1,a1,b2,c3,d4"), "temples"),
    (replace_field(START, "temples", "e5,a1,b2,c3,d4"), "board order"),
    (replace_field(START, "store", "se"), "store"),
    (replace_field(START, "bag", "3x"), "bag"),
    (replace_field(START, "supply", "lots"), "supply"),
    (replace_field(START, "relics", "BX"), "relics"),
    (replace_field(START, "relics", "B"), "1 relics taken but 0 temples"),
    (replace_field(START, "active", "X"), "active"),
    (replace_field(START, "pending", "dance"), "pending"),
    (replace_field(START, "pending", "order"), "pending"),
    (replace_field(START, "pairs", "W1+B1"), "pairs"),
    (replace_field(START, "temples", "-"), "temples=- (no layout yet)"),
    (replace_field(START, "pending", "crystals"), "pending=crystals"),
    (replace_field(START, "pending", "reveal"), "pending=reveal"),
    (replace_field(START, "pending", "refill"), "room for a pair"),
    (START + " death-limit=never", "death-limit"),
    (START + " colour=red", "option field"),
    (START + " death-limit=either death-limit=either", "twice"),
    (START.replace(" bag=", " bags="), "expected 'bag=...'"),
]


@pytest.mark.parametrize("text,named", MALFORMED)
def test_malformed_positions_name_the_bad_part(text, named):
    with pytest.raises(NotationError, match=None) as caught:
        parse_position(text, TILESET)
    assert named in str(caught.value)


def test_inconsistent_positions_are_rejected():
    deck_field = next(f for f in START.split() if f.startswith("decks="))
    balan, wazu = deck_field[len("decks="):].split("/")
    with pytest.raises(NotationError, match="always equal"):
        parse_position(replace_field(START, "decks", f"{balan}/{wazu.rsplit(',', 1)[0]}"),
                       TILESET)
    with pytest.raises(NotationError, match="tileset order"):
        first, *rest = balan.split(",")
        parse_position(replace_field(START, "decks", f"{','.join(rest + [first])}/{wazu}"),
                       TILESET)
    with pytest.raises(NotationError, match="Energy"):
        parse_position(replace_field(START, "supply", "29"), TILESET)
    with pytest.raises(NotationError, match="already"):
        pair = next(f for f in START.split() if f.startswith("pairs=")).split("=")[1]
        first_pair = pair.split(",")[0]
        parse_position(replace_field(START, "pairs", f"{first_pair},{pair}"), TILESET)


def test_missing_tiles_are_named():
    text = build({}, pending="pair", pairs="B1+W1")
    broken = text.replace("B2,", "").replace("W2,", "")
    with pytest.raises(NotationError, match="B2, W2 are nowhere"):
        parse_position(broken, TILESET)


def test_position_option_may_not_contradict_the_rule_flag():
    text = START + " death-limit=either"
    assert Maatatahay({"death-limit": "either"}).parse_position(text).position() == text
    with pytest.raises(NotationError, match="--rule"):
        Maatatahay({"death-limit": "total"}).parse_position(text)


def test_rule_flag_fills_options_the_position_omits():
    state = Maatatahay({"relic-scoring": "order"}).parse_position(START)
    assert state.position() == START + " relic-scoring=order"


@pytest.mark.parametrize("option", PLAY_OPTIONS, ids=lambda o: o.name)
@pytest.mark.parametrize("impl", ["fast", "reference"])
def test_every_option_is_written_only_when_not_default(option, impl):
    other = next(c for c in option.choices if c != option.default)
    assert Maatatahay({option.name: option.default}, impl=impl).parse_position(
        START).position() == START
    state = Maatatahay({option.name: other}, impl=impl).parse_position(START)
    assert state.position() == f"{START} {option.name}={other}"
    assert Maatatahay(impl=impl).parse_position(state.position()).position() == state.position()


@pytest.mark.parametrize("text", ["", "z9^", "c3", "c3>$", "c3>$-", "B1+W", "W1+B1",
                                  "first:X", "load:1s", "fight:f1", "deal:B1", "draw:q",
                                  "layout:random", "crystal:a1", "crystal:f1s", "toss:X"])
def test_malformed_moves(text):
    with pytest.raises(NotationError):
        parse_move_syntax(TILESET, text)


def test_illegal_move_says_what_is_pending():
    state = Maatatahay().parse_position(START)
    with pytest.raises(IllegalMoveError, match="to choose a pair"):
        state.parse_move("c3^")


# -- fuzzing ---------------------------------------------------------------------------------

@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SAMPLES), st.integers(0, 10_000), st.integers(0, 10_000),
       st.sampled_from(list("-,/=:+sexBW0123456789^>v< ")) | st.text(max_size=3))
def test_mutated_positions_fail_cleanly_or_round_trip(text, at, length, insert):
    start = at % (len(text) + 1)
    mutated = text[:start] + insert + text[start + length % 4:]
    try:
        position = parse_position(mutated, TILESET)
    except NotationError as err:
        assert str(err)
        return
    assert format_position(position) == " ".join(mutated.split())
    fast, ref = (Maatatahay(impl=impl).parse_position(mutated) for impl in ("fast", "reference"))
    assert fast.legal_moves() == ref.legal_moves()
    if ref.legal_moves():
        fast.play(fast.legal_moves()[-1])
        ref.play(ref.legal_moves()[-1])
        assert fast.position() == ref.position()


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=14))
def test_arbitrary_move_text_fails_cleanly_or_round_trips(text):
    try:
        move = parse_move_syntax(TILESET, text)
    except NotationError:
        return
    assert 0 <= move < 2**31
    assert format_move(TILESET, move) == text.strip()
