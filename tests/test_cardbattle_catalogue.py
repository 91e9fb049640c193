"""``crystalpick cards``: the card set listed and filtered, in the library and on the command
line; a bad --family/--kind/--sort is one line naming the choices, exit 2."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from crystalpick.cli.main import cli
from crystalpick.engine.cardbattle.cards import DEFAULT_CARDSET, load_cardset
from crystalpick.engine.cardbattle.catalogue import families, select_cards
from crystalpick.engine.game import GameError

CARDS = load_cardset()


def run(*args):
    return CliRunner().invoke(cli, ["cards", *args], catch_exceptions=False)


def test_a_family_keeps_its_cards_and_the_neutral_ones():
    for family in families(CARDS):
        chosen = select_cards(CARDS, family=family)
        assert chosen and all(family in c.families or c.neutral for c in chosen)
        assert {c.number for c in CARDS.cards.values() if family in c.families} <= \
            {c.number for c in chosen}


def test_kind_and_sort_by_an_attribute_or_its_gloss():
    creatures = select_cards(CARDS, kind="creature", sort="velocidade")
    assert all(c.is_creature for c in creatures)
    speeds = [c.values[1] for c in creatures]
    assert speeds == sorted(speeds, reverse=True) and len(set(speeds)) > 1
    assert select_cards(CARDS, kind="creature", sort="Speed") == creatures
    names = [c.name for c in select_cards(CARDS, sort="name")]
    assert len(names) == len(CARDS.cards) and names != [c.name for c in CARDS.cards.values()]


@pytest.mark.parametrize("option, value", [("family", "Elfo"), ("kind", "spell"),
                                           ("sort", "luck")])
def test_bad_choices_name_the_choices(option, value):
    with pytest.raises(GameError, match=f"--{option} '{value}': expected one of "):
        select_cards(CARDS, **{option: value})
    result = run(f"--{option}", value)
    assert result.exit_code == 2
    assert len(result.output.strip().splitlines()) == 1 and "expected one of" in result.output


def test_text_lists_names_families_and_values():
    result = run("--family", "robo", "--kind", "creature", "--sort", "forca")
    assert result.exit_code == 0, result.output
    robots = [c for c in CARDS.cards.values() if c.is_creature and "Robô" in c.families]
    for card in robots:
        row = next(line for line in result.output.splitlines() if card.name in line)
        assert row.split()[0] == str(card.number) and "Robô" in row
        assert f"{card.values[0]}*" in row.split()
    assert f"{len(robots)} cards" in result.output
    assert "forca (strength)" in result.output and "invented" in result.output


def test_json_keeps_numbers_names_and_values_by_attribute(tmp_path):
    copy = tmp_path / "set.toml"
    copy.write_text(DEFAULT_CARDSET.read_text(encoding="utf-8"), encoding="utf-8")
    document = json.loads(run("--cardset", str(copy), "--kind", "location", "--json").output)
    assert document["cardset"]["file"] == "set.toml"
    assert document["count"] == len(document["cards"]) > 0
    portal = next(c for c in document["cards"] if c["neutral"])
    card = CARDS.card(portal["number"])
    assert portal["name"] == card.name and portal["kind"] == "location"
    assert portal["bonus"] == dict(zip(CARDS.attributes, card.values))
    assert [a["name"] for a in document["attributes"]] == list(CARDS.attributes)


def test_a_missing_card_set_is_one_line_exit_2(tmp_path):
    result = run("--cardset", str(tmp_path / "none.toml"))
    assert result.exit_code == 2 and "'--cardset': File" in result.output
    assert "does not exist" in result.output
