"""Card sets and decks as data (rules page §1, §2, §8): the default set's promises, and every
kind of bad file refused with the file, the card and the field named."""
from __future__ import annotations

import json

import pytest

from crystalpick.engine.cardbattle.cards import (CardDataError, load_cardset, load_deck,
                                                 parse_cardset, parse_deck, sample_decks)

GOOD_CREATURE = {"number": 1, "name": "A", "kind": "creature", "families": ["Robô"],
                 "values": {"x": 1, "y": 2}}


def cardset(*cards, attributes=("x", "y")):
    return {"name": "t", "attributes": list(attributes), "card": list(cards)}


def test_the_default_set_keeps_the_rules_page_promises():
    cards = load_cardset()
    assert not cards.reconstruction and "invented" in cards.label()
    assert set(range(1, 171)) <= set(cards.cards)
    portal = cards.card(170)
    assert portal.name == "Portal do Destino" and portal.kind == "location" and portal.neutral
    families = {f for c in cards.cards.values() for f in c.families}
    assert {"Robô", "Guerreiro"} <= families and len(families) >= 6
    creatures = [c for c in cards.cards.values() if c.is_creature]
    assert any(len(c.families) > 1 for c in creatures)
    assert any(c.mythic for c in creatures)
    assert 4 <= len(cards.attributes) <= 5
    for family in families:          # equipment and locations for every family
        assert any(c.kind == "equipment" and family in c.families for c in cards.cards.values())
        assert any(c.kind == "location" and family in c.families for c in cards.cards.values())


def test_no_creature_wins_in_almost_every_attribute():
    cards = load_cardset()
    creatures = [c for c in cards.cards.values() if c.is_creature]
    for card in creatures:       # beats most creatures in all attributes but one: none
        beaten = sum(sum(card.values[a] > o.values[a] for a in range(len(cards.attributes)))
                     >= len(cards.attributes) - 1 for o in creatures)
        assert beaten < 0.9 * len(creatures), card.name


def test_the_sample_decks_are_legal_and_at_least_four():
    cards = load_cardset()
    assert len(sample_decks()) >= 4
    for name in sample_decks():
        deck = load_deck(name, cards, 15)
        assert len(deck.cards) >= 15 and len(set(deck.cards)) == len(deck.cards)


@pytest.mark.parametrize("count, repeat, ok", [(14, False, False), (15, True, False),
                                               (15, False, True), (40, False, True),
                                               (61, False, True), (170, False, True)])
def test_deck_size_and_repeats(count, repeat, ok):
    """§9: 14 cards or a repeated number refused; 15 or 40 different cards accepted; §2: no
    upper limit (61 and the whole card set too)."""
    numbers = list(range(1, count + 1))
    if repeat:
        numbers[-1] = numbers[0]
    data = {"cards": numbers}
    if ok:
        assert parse_deck(data, "d.toml", load_cardset(), 15).cards == tuple(numbers)
    else:
        with pytest.raises(CardDataError, match="d.toml"):
            parse_deck(data, "d.toml", load_cardset(), 15)


@pytest.mark.parametrize("deck, message", [
    ({"cards": list(range(1, 15)) + [999]}, "card 999: field 'cards'.*not in the card set"),
    ({"cards": [1, 1] + list(range(2, 16))}, "card 1: field 'cards'.*at most one copy"),
    ({"cards": list(range(121, 137))}, "at least one creature"),
    ({"cards": list(range(1, 16)), "colour": "red"}, "unknown field 'colour'"),
])
def test_bad_decks_name_the_file_card_and_field(deck, message):
    with pytest.raises(CardDataError, match=f"deck bad.toml: .*{message}"):
        parse_deck(deck, "bad.toml", load_cardset(), 15)


@pytest.mark.parametrize("card, message", [
    ({**GOOD_CREATURE, "colour": 1}, "card 1: unknown field 'colour'"),
    ({**GOOD_CREATURE, "kind": "spell"}, "card 1: field 'kind' is 'spell'"),
    ({**GOOD_CREATURE, "values": {"x": 1}}, "card 1: field 'values' misses attribute 'y'"),
    ({**GOOD_CREATURE, "values": {"x": 1, "y": 2, "z": 3}}, "card 1 field 'values': unknown "
                                                            "field 'z'"),
    ({**GOOD_CREATURE, "values": {"x": -1, "y": 2}}, "card 1 field 'values': field 'x' must be "
                                                    "an integer"),
    ({"number": 2, "name": "B", "kind": "equipment", "bonus": {"x": 1}},
     "card 2: field 'families' is missing"),
    ({k: v for k, v in GOOD_CREATURE.items() if k != "name"}, "card 1: field 'name' is missing"),
])
def test_bad_cards_name_the_file_card_and_field(card, message):
    with pytest.raises(CardDataError, match=f"card set set.toml: {message}"):
        parse_cardset(cardset(card), "set.toml")


def test_duplicate_numbers_are_refused():
    with pytest.raises(CardDataError, match="card 1: field 'number' is used by more than one"):
        parse_cardset(cardset(GOOD_CREATURE, dict(GOOD_CREATURE, name="B")), "set.toml")


def test_json_card_sets_load_and_bad_syntax_is_one_error(tmp_path):
    good = tmp_path / "set.json"
    good.write_text(json.dumps(cardset(GOOD_CREATURE)), encoding="utf-8")
    assert load_cardset(str(good)).card(1).values == (1, 2)
    bad = tmp_path / "bad.toml"
    bad.write_text("name = [", encoding="utf-8")
    with pytest.raises(CardDataError, match="card set bad.toml: not valid TOML"):
        load_cardset(str(bad))
