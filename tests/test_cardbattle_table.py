"""The card table tells the story (issue 45): nothing announced before it is decided, every
chance line says whose draw and why, the screen counts rounds as the notation does, a refused
move says why, the view string comes on request, and the card diagram is drawn for the same
viewer as the screen, with a key, the called attribute and the hand places."""
from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

from crystalpick.cli.main import cli
from crystalpick.engine import sample_chance
from crystalpick.engine.cardbattle import CardBattle
from crystalpick.engine.cardbattle.moves import M_BOOST, M_DRAW, encode, kind_of, payload_of
from crystalpick.engine.cardbattle.position import BOOST, REDEAL, REFILL, SEEK, TIEBREAK
from crystalpick.engine.game import IllegalMoveError
from crystalpick.engine.marks import MoveMark

NS = "{http://www.w3.org/2000/svg}"


def walk(seed: int, stop):
    """A game of random moves and drawn chance from ``seed``, up to the first state where
    ``stop(state)`` holds (None if the game ends first)."""
    state = CardBattle(seed=seed).new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        if stop(state):
            return state
        state.play(sample_chance(state, rng.random()) if state.is_chance_node()
                   else rng.choice(state.legal_moves()))
    return None


def first(stop, seeds=range(1, 60)):
    return next(s for s in (walk(seed, stop) for seed in seeds) if s is not None)


def test_nobody_calls_before_the_coin_toss():
    state = CardBattle(seed=1).state(None, "keep keep")
    assert state.is_chance_node()                       # the toss is still to come
    headline = state.render().splitlines()[0]
    assert not re.search(r"P[12] call", headline) and "coin toss decides" in headline
    state.play(state.parse_move("toss:P2"))
    assert "P2 calls" in state.render().splitlines()[0]


def test_the_screen_counts_rounds_as_the_notation_does():
    state = first(lambda s: s.to_position().round == 2 and not s.is_chance_node())
    rounds = re.search(r" round=(\d+) ", state.position()).group(1)
    assert state.render().splitlines()[0].startswith(f"{rounds} rounds played")
    log = [line.strip() for line in state.render().splitlines() if line.startswith("  round ")]
    assert [line.split(":")[0] for line in log] == ["round 1", "round 2"]


def test_a_refill_draw_says_whose_and_why_and_hides_the_card_from_the_other():
    state = first(lambda s: s.to_position().phase == REFILL)
    move = state.legal_moves()[0]
    actor = state.to_position().actor
    name = state.game.component_name(payload_of(move))
    referee = state.describe_seen(move)
    assert referee == f"P{actor + 1} draw:{payload_of(move)} {name} (refill to 5 cards)"
    assert state.describe_seen(move, 1 - actor) == f"P{actor + 1} draw:? (refill to 5 cards)"


@pytest.mark.parametrize("phase, why", [(REDEAL, "a new hand after the mulligan"),
                                        (SEEK, "no creature in hand: draws until one comes")])
def test_a_mulligan_or_seek_draw_says_why(phase, why):
    state = first(lambda s: s.to_position().phase == phase)
    actor = state.to_position().actor
    assert state.describe_seen(state.legal_moves()[0], 1 - actor) == f"P{actor + 1} draw:? ({why})"


def test_a_tie_break_draw_says_it_is_one_and_what_it_counts():
    state = first(lambda s: s.to_position().phase == TIEBREAK)
    cards = state.game.cardset
    attribute = cards.attributes[state.to_position().attribute]
    for move in state.legal_moves():
        card = cards.card(payload_of(move))
        text = state.describe_seen(move, 0)
        assert f"draw:{card.number} " in text
        value = card.values[cards.attributes.index(attribute)]
        if card.is_creature:
            assert text.endswith(f"(tie-break card: {attribute} {value})")
        else:
            assert text.endswith("(tie-break: not a creature, so discarded and drawn again)")


@pytest.mark.parametrize("impl", ["fast", "reference"])
def test_a_draw_says_when_the_discard_pile_was_just_shuffled_into_the_deck(impl):
    """§4.9: a reshuffle happens when a draw meets an empty deck, so the line says it exactly
    where the drawer's deck was empty after the last ply (before the steps that followed)."""
    said = []
    for seed in (1, 2):
        state = CardBattle(seed=seed, impl=impl).new_initial_state()
        rng = random.Random(seed)
        left = None             # each deck's size after the last ply, before the steps
        while not state.is_terminal():
            pos = state.to_position()
            if state.is_chance_node() and pos.phase != REDEAL and left is not None:
                emptied = left[pos.actor] == 0
                text = state.describe_seen(state.legal_moves()[0])
                assert ("discard pile shuffled into it" in text) == emptied, text
                said.append(emptied)
            left = [len(seat.deck) for seat in pos.seats]
            move = (sample_chance(state, rng.random()) if state.is_chance_node()
                    else rng.choice(state.legal_moves()))
            if state.is_chance_node() and kind_of(move) == M_DRAW:
                left[pos.actor] -= 1
            state.play(move)
    assert any(said) and not all(said)


def test_the_toss_says_who_calls():
    state = CardBattle(seed=1).state(None, "keep keep")
    assert state.describe_seen(state.parse_move("toss:P2"), 0) == \
        "toss:P2 (the coin toss: P2 calls the first round)"


def test_an_unusable_boost_is_refused_with_its_reason():
    def unusable(state):
        pos = state.to_position()
        return pos.phase == BOOST and any(
            encode(M_BOOST, n) not in state.legal_moves() for n in pos.seats[pos.actor].hand
            if not state.game.cardset.card(n).is_creature)
    state = first(unusable)
    pos = state.to_position()
    cards = state.game.cardset
    number = next(n for n in pos.seats[pos.actor].hand if not cards.card(n).is_creature
                  and encode(M_BOOST, n) not in state.legal_moves())
    with pytest.raises(IllegalMoveError) as refused:
        state.parse_move(f"boost:{number}")
    why = str(refused.value)
    assert f"#{number} {cards.card(number).name}" in why
    assert ("has no bonus in" in why) != ("shares no family with" in why)
    creature = next((n for n in pos.seats[pos.actor].hand if cards.card(n).is_creature), None)
    if creature is not None:
        with pytest.raises(IllegalMoveError, match="is a creature; a boost is an equipment"):
            state.parse_move(f"boost:{creature}")


def test_play_prints_the_view_string_only_when_asked():
    args = ["play", "cardbattle", "--engine", "greedy", "--seed", "1"]
    quiet = CliRunner().invoke(cli, args, input="keep\nquit\n")
    assert quiet.exit_code == 0, quiet.output
    assert "cardbattle view=P1" not in quiet.output
    asked = CliRunner().invoke(cli, args, input="keep\nview\nquit\n")
    assert asked.output.count("P1's view: cardbattle view=P1 ") == 1


def test_play_chance_lines_say_whose_draw_and_why():
    result = CliRunner().invoke(cli, ["play", "cardbattle", "--engine", "greedy", "--seed", "1"],
                                input="keep\nquit\n")
    chances = [line for line in result.output.splitlines() if line.startswith("chance: ")]
    assert chances and all(re.match(r"chance: (P[12] draw:\S+.* \(.+\)|toss:P[12] \(.+\))$",
                                    line) for line in chances), chances
    assert any(line.startswith("chance: toss:") for line in chances)


def test_hint_is_the_players_own_analysis_with_their_win_probability():
    result = CliRunner().invoke(cli, ["play", "cardbattle", "--engine", "greedy", "--seed", "1"],
                                input="hint\nquit\n")
    hint = next(line for line in result.output.splitlines() if line.startswith("hint: "))
    assert re.match(r"hint: (keep|mulligan) \(P1's win probability \d+%; ismcts, 1 s, from "
                    r"P1's view\)$", hint), hint


def svg_of(state, marks=()):
    return ET.fromstring(state.svg(marks))


def texts(element, cls=None):
    return ["".join(t.itertext()) for t in element.iter(f"{NS}text")
            if cls is None or t.get("class") == cls]


def test_the_diagram_is_the_referees_when_the_screen_is():
    state = CardBattle(seed=2).new_initial_state()
    root = svg_of(state)
    hands = [g for g in root.iter(f"{NS}g") if g.get("class") == "hand"]
    assert len(hands) == sum(len(seat.hand) for seat in state.to_position().seats)
    assert root.find(f"{NS}title").text == state.position()
    assert texts(root)[0].startswith("referee's view")
    seen = state.clone()
    seen.observer = 1
    root = svg_of(seen)
    hands = [int(g.get("data-card")) for g in root.iter(f"{NS}g") if g.get("class") == "hand"]
    assert hands == state.to_position().seats[1].hand
    assert root.find(f"{NS}title").text == state.observation_string(1)


def test_the_diagram_has_a_key_the_called_attribute_and_the_hand_places():
    state = CardBattle(seed=3).state(None, "keep keep toss:P1 call:forca")
    root = svg_of(state)
    key = " ".join(t for g in root.iter(f"{NS}g") if g.get("class") == "key" for t in texts(g))
    for words in ("creature", "equipment / location", "face down", "crystal won", "mythic",
                  "called attribute", "hand place"):
        assert words in key
    hand = state.to_position().seats[0].hand
    places = texts(root, "place")
    assert places == [str(i) for i in range(1, len(hand) + 1)] * 2     # both hands
    cards = state.game.cardset
    creatures = [n for seat in state.to_position().seats for n in seat.hand
                 if cards.card(n).is_creature]
    called = texts(root, "called")
    assert len(called) >= len(creatures) and all(t.startswith("forca") and t.endswith("*")
                                                  for t in called)


def test_a_rank_disc_stands_apart_from_its_label():
    state = CardBattle(seed=3).state(None, "keep keep toss:P1 call:forca")
    marks = [MoveMark(m, "69.1%") for m in state.legal_moves()]
    for group in (g for g in svg_of(state, marks).iter(f"{NS}g") if g.get("class") == "line"):
        disc = next(e for e in group if e.get("class") == "line-badge")
        box = next(e for e in group if e.get("class") == "line-box")
        assert float(disc.get("cx")) + float(disc.get("r")) < float(box.get("x"))


def test_analyse_draws_the_analysing_players_view_as_its_screen(tmp_path):
    path = tmp_path / "lines.svg"
    moves = "keep keep toss:P1 call:forca"
    result = CliRunner().invoke(cli, ["analyse", "cardbattle", "--seed", "3", "--moves", moves,
                                      "--sims", "50", "--svg", str(path)])
    assert result.exit_code == 0, result.output
    state = CardBattle(seed=3).state(None, moves)
    root = ET.fromstring(path.read_text(encoding="utf-8"))
    assert root.find(f"{NS}title").text == state.observation_string(0)
    hands = [int(g.get("data-card")) for g in root.iter(f"{NS}g") if g.get("class") == "hand"]
    assert hands == state.to_position().seats[0].hand
    assert state.observation_string(0) in result.output      # the screen's view
