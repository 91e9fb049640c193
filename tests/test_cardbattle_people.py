"""The card game for people: names beside numbers, attribute glosses, moves typed by a card's
place in the hand or the start of its name (fuzzed: a clean one-line error or a legal move),
and the player's screen with its round log."""
from __future__ import annotations

import random
import re

import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from crystalpick.cli.main import cli
from crystalpick.engine import sample_chance
from crystalpick.engine.cardbattle import CardBattle
from crystalpick.engine.cardbattle.cards import DEFAULT_CARDSET
from crystalpick.engine.game import GameError, IllegalMoveError, NotationError
from crystalpick.engine.cardbattle.people import folded
from crystalpick.engine.cardbattle.position import CHOOSE, Seat

import cardbattle_helpers as helpers  # noqa: E402  (tests/ is on the path)

GAME = CardBattle()
CARDS = GAME.cardset
TO_CHOOSE = "keep keep toss:P1 call:forca"


def choosing(seed: int = 3, impl: str = "fast"):
    return CardBattle(seed=seed, impl=impl).state(None, TO_CHOOSE)


def test_describe_move_names_the_card_and_glosses_the_attribute():
    state = choosing()
    hand = state.to_position().seats[0].hand
    for move in state.legal_moves():
        number = int(state.move_to_str(move).partition(":")[2])
        assert state.describe_move(move) == f"play:{number} {CARDS.card(number).name}"
    assert number in hand
    call = CardBattle(seed=3).state(None, "keep keep toss:P1")
    described = [call.describe_move(m) for m in call.legal_moves()]
    assert described[0] == "call:forca (strength)" and len(set(described)) == len(described)


def test_a_card_set_without_glosses_keeps_the_bare_names(tmp_path):
    text = DEFAULT_CARDSET.read_text(encoding="utf-8")
    plain = "\n".join(line for line in text.splitlines() if not line.startswith("glosses"))
    path = tmp_path / "plain.toml"
    path.write_text(plain, encoding="utf-8")
    state = CardBattle(seed=3, tileset=str(path)).state(None, "keep keep toss:P1")
    assert state.describe_move(state.legal_moves()[0]) == "call:forca"


def test_a_gloss_for_an_unknown_attribute_is_refused(tmp_path):
    text = DEFAULT_CARDSET.read_text(encoding="utf-8").replace(
        'glosses = { forca', 'glosses = { power = "x", forca')
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(GameError, match="glosses.*unknown field 'power'"):
        CardBattle(tileset=str(path))


@pytest.mark.parametrize("impl", ["fast", "reference"])
def test_a_card_by_its_place_or_the_start_of_its_name(impl):
    state = choosing(impl=impl)
    hand = state.to_position().seats[0].hand
    for place, number in enumerate(hand, 1):
        assert state.move_to_str(state.parse_move(str(place))) == f"play:{number}"
        name = CARDS.card(number).name
        assert state.move_to_str(state.parse_move(name)) == f"play:{number}"
        assert state.move_to_str(state.parse_move(folded(name).upper())) == f"play:{number}"


def test_an_attribute_by_the_start_of_its_name_or_gloss():
    state = CardBattle(seed=3).state(None, "keep keep toss:P1")
    assert state.move_to_str(state.parse_move("vel")) == "call:velocidade"
    assert state.move_to_str(state.parse_move("Strength")) == "call:forca"


def test_the_forms_for_people_fail_cleanly():
    state = choosing()
    hand = state.to_position().seats[0].hand
    with pytest.raises(NotationError, match=f"give a place 1-{len(hand)}"):
        state.parse_move(str(len(hand) + 1))
    with pytest.raises(NotationError, match="the start of its name"):
        state.parse_move("zzz")
    with pytest.raises(NotationError, match="the start of its name"):
        CardBattle(seed=3).new_initial_state().parse_move("1")     # no card to choose yet


def test_a_start_shared_by_two_cards_in_hand_names_both():
    first_words: dict = {}
    for number, card in CARDS.cards.items():
        if card.is_creature:
            first_words.setdefault(card.name.split()[0], []).append(number)
    word, numbers = next((w, n) for w, n in first_words.items() if len(n) >= 2)
    others = [n for n in CARDS.cards if n not in numbers][:15]
    seats = [Seat(hand=sorted(numbers[:2]), deck=others), Seat(hand=[], deck=others)]
    state = helpers.state(None, seats, phase=CHOOSE, actor=0, caller=0, attribute=0)
    with pytest.raises(NotationError, match="could be any of: " + re.escape(
            f"{min(numbers[:2])} {CARDS.card(min(numbers[:2])).name}")):
        state.parse_move(word)
    full = CARDS.card(numbers[0]).name
    assert state.move_to_str(state.parse_move(full)) == f"play:{numbers[0]}"


def test_a_boost_card_in_hand_named_while_choosing_is_illegal_with_names_listed():
    state = choosing()
    state.play(state.legal_moves()[0])
    hand = state.to_position().seats[1].hand
    boost = next(n for n in hand if not CARDS.card(n).is_creature)
    with pytest.raises(IllegalMoveError, match=r"legal here: play:\d+ \w"):
        state.parse_move(CARDS.card(boost).name)


def a_boost_decision():
    """The first decision with a boost card to play in random games (seeds 0, 1, ...)."""
    for seed in range(100):
        state, rng = CardBattle(seed=seed).new_initial_state(), random.Random(seed)
        while not state.is_terminal():
            if not state.is_chance_node() and any(
                    state.move_to_str(m).startswith("boost:") for m in state.legal_moves()):
                return state
            state.play(sample_chance(state, rng.random()) if state.is_chance_node()
                       else rng.choice(state.legal_moves()))
    raise AssertionError("no boost decision in 100 random games")


DECISIONS = [CardBattle(seed=3).state(None, moves)
             for moves in ("", "keep keep toss:P1", TO_CHOOSE)] + [a_boost_decision()]
HAND_WORDS = st.sampled_from(["1", "2", "5", "0", "6", "drag", "Lobo", "lanc", "anel",
                              "FOR", "speed", "ç", "é", "Dragão da Aurora"])


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(range(len(DECISIONS))), st.one_of(st.text(max_size=16), HAND_WORDS))
def test_any_text_at_any_decision_is_a_legal_move_or_one_line_error(decision, text):
    """At the mulligan, the call, the choice and a boost."""
    state = DECISIONS[decision].clone()
    try:
        move = state.parse_move(text)
    except GameError as err:
        assert "\n" not in str(err) and str(err)
        return
    assert move in state.legal_moves()


def test_the_round_log_matches_the_crystals_in_both_implementations():
    """One log line per finished round; its winner is who gained the crystal; the fast and
    reference states tell the same story."""
    logs = []
    for impl in ("fast", "reference"):
        state = CardBattle(seed=11, impl=impl).new_initial_state()
        rng = random.Random(11)
        won_by = []
        while not state.is_terminal():
            before = [s.won for s in state.to_position().seats]
            state.play(sample_chance(state, rng.random()) if state.is_chance_node()
                       else rng.choice(state.legal_moves()))
            after = [s.won for s in state.to_position().seats]
            won_by += [f"P{p + 1} took the crystal" for p in range(2) if after[p] > before[p]]
        screen = state.render()
        log = [line.strip() for line in screen.splitlines() if line.startswith("  round ")]
        assert len(log) == state.to_position().round
        assert [line for line in log if "took the crystal" in line] and all(
            line.endswith(took) for line, took in zip(
                [line for line in log if "took" in line], won_by))
        logs.append(log)
    assert logs[0] == logs[1]


def test_undo_takes_the_move_out_of_the_log():
    state = choosing()
    state.play(state.legal_moves()[0])
    rounds = state.render().count("\n  round ")
    state.undo()
    assert state.played()[1] == state.clone().played()[1]
    assert state.render().count("\n  round ") == rounds == 0


def test_the_players_screen_names_cards_values_and_the_round():
    """A round with a reveal: the screen names every card of the hand with its families and
    values, marks the called attribute and logs the round with both creatures."""
    moves = TO_CHOOSE + " play:52 play:25"
    state = CardBattle(seed=3).state(None, moves)
    seen = state.clone()
    seen.observer = 0
    screen = seen.render()
    hand = state.to_position().seats[0].hand
    for number in hand:
        card = CARDS.card(number)
        row = next(line for line in screen.splitlines() if f" {number}  {card.name}" in line)
        assert "/".join(card.families) in row
        assert f"{card.values[0]}" in row.split()
    mine, theirs = CARDS.card(52), CARDS.card(25)
    assert mine.values[0] < theirs.values[0]            # no boost can help P1 here (seed 3)
    assert (f"round 1: P1 called forca (strength); P1 #52 {mine.name} {mine.values[0]}, "
            f"P2 #25 {theirs.name} {theirs.values[0]}; P2 took the crystal") in screen
    opponent = state.to_position().seats[1].hand
    assert not any(f" {n}  {CARDS.card(n).name}" in screen for n in opponent
                   if n not in hand)
    assert "P1 (you): 0 crystals" in screen and "P2: 1 crystal;" in screen


def test_a_secret_choice_is_not_on_the_screen_until_the_reveal():
    state = CardBattle(seed=3).state(None, TO_CHOOSE + " play:52")
    seen = state.clone()
    seen.observer = 1
    assert "a creature chosen face down" in seen.render()
    assert "Dragão da Aurora" not in seen.render()


def test_play_shows_the_screen_and_takes_moves_by_place_and_name():
    result = CliRunner().invoke(cli, ["play", "cardbattle", "--engine", "greedy", "--seed", "3",
                                      "--human", "first"],
                                input="keep\nfor\n2\nmoves\nzzz\n1\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "P1's hand (type a move, the place or the start of a name):" in out
    assert "Dragão da Aurora" in out and "FOR*" in out
    assert "round 1: P1 called forca (strength); P1 #71 Bruxo Errante 2" in out
    assert "the start of its name (type 'help' for commands)" in out
    assert "Traceback" not in out


def test_show_prints_the_screen_of_a_view():
    state = CardBattle(seed=3).state(None, TO_CHOOSE)
    view = state.observation_string(0)
    result = CliRunner().invoke(cli, ["show", "cardbattle", view])
    assert result.exit_code == 0, result.output
    assert "P1 (you)" in result.output and "Bruxo Errante" in result.output


def test_moves_lists_names_and_json_adds_them_beside_the_numbers():
    import json
    text = CliRunner().invoke(cli, ["moves", "cardbattle", "--seed", "3", "--moves", TO_CHOOSE])
    assert "play:52 Dragão da Aurora" in text.output.splitlines()
    document = json.loads(CliRunner().invoke(cli, ["moves", "cardbattle", "--seed", "3",
                                                   "--moves", TO_CHOOSE, "--json"]).output)
    assert "play:52" in document["moves"]
    assert document["descriptions"][document["moves"].index("play:52")] == \
        "play:52 Dragão da Aurora"
    mattock = json.loads(CliRunner().invoke(cli, ["moves", "mattock", "--json"]).output)
    assert "descriptions" not in mattock


def test_annotations_name_the_played_and_the_best_card():
    """annotate's and replay's lines: each move of the record, and the better one, read in
    the position before the ply, with the card's name."""
    from crystalpick.apps.annotate import annotation_text, move_describer
    from crystalpick.apps.match.records import Ply, new_record
    game = CardBattle(seed=3)
    state = game.new_initial_state()
    record = new_record(game, state, "a", "b", 3)
    for text in TO_CHOOSE.split():
        record.plies.append(Ply(text, chance=text.startswith("toss")))
    chosen = state.clone()
    for text in TO_CHOOSE.split():
        chosen.play(chosen.parse_move(text))
    played, better = chosen.legal_moves()[:2]
    record.plies.append(Ply(chosen.move_to_str(played)))
    comment = {"eval_before": "+0.1", "eval_after": "-0.1", "eval_pov": "P1", "wp_loss": "0.2",
               "mark": "blunder", "best": chosen.move_to_str(better), "best_line": "x"}
    ply = len(record.plies)
    line = annotation_text(ply, chosen.move_to_str(played), comment, move_describer(record))
    assert line.startswith(f"{ply}. {chosen.describe_move(played)}  blunder")
    assert f"best {chosen.describe_move(better)} (x)" in line
    assert chosen.describe_move(played) != chosen.move_to_str(played)
    assert annotation_text(ply, "play:9999", comment, move_describer(record)).startswith(
        f"{ply}. play:9999  blunder")            # what does not read stays as written


def test_a_boost_card_by_its_place_or_name():
    state = DECISIONS[-1].clone()
    hand = state.to_position().seats[state.current_player()].hand
    boosts = [m for m in state.legal_moves() if state.move_to_str(m).startswith("boost:")]
    for move in boosts:
        number = int(state.move_to_str(move).partition(":")[2])
        assert state.parse_move(str(hand.index(number) + 1)) == move
        assert state.parse_move(CARDS.card(number).name) == move


def test_analyse_names_the_options_in_text_and_json():
    import json
    args = ["analyse", "cardbattle", "--seed", "3", "--moves", TO_CHOOSE, "--sims", "200"]
    text = CliRunner().invoke(cli, args)
    assert text.exit_code == 0, text.output
    hand = choosing().to_position().seats[0].hand
    for number in hand:
        assert f"play:{number} {CARDS.card(number).name}" in text.output
    assert "P1 (you)" in text.output                 # the viewer's screen above the table
    out = CliRunner().invoke(cli, args + ["--json"]).output
    document = json.loads(out[out.index("{"):])
    for line in document["result"]["lines"]:
        number = int(line["move"].partition(":")[2])
        assert line["description"] == f"{line['move']} {CARDS.card(number).name}"


def test_the_called_attribute_is_coloured_on_a_terminal():
    from crystalpick.engine.cardbattle.render import BOLD, hand_table
    rows = hand_table([52, 71], CARDS, called=1, color=True)
    assert all(BOLD in row for row in rows) and not any(
        BOLD in row for row in hand_table([52, 71], CARDS, called=1))


def test_every_game_describes_a_move_starting_with_its_notation():
    """The contract (State.describe_move): what people read can be typed back."""
    from crystalpick.engine import GAMES
    for name, game_class in GAMES.items():
        state = game_class(seed=1).new_initial_state()
        while state.is_chance_node():
            state.play(state.legal_moves()[0])
        for move in state.legal_moves():
            text = state.describe_move(move)
            assert text.startswith(state.move_to_str(move)), (name, text)
            assert state.parse_move(text.split(" ")[0]) == move
