"""Tileset files: the default one is labelled a reconstruction, and bad files are rejected
with the field and the tile named."""
from __future__ import annotations

import copy
import json
import tomllib

import pytest

from crystalpick.engine.game import RuleError
from crystalpick.engine.maatatahay import Maatatahay
from crystalpick.engine.maatatahay.tileset import DEFAULT_PATH, TilesetError, load_tileset, parse_tileset

DEFAULT = tomllib.loads(DEFAULT_PATH.read_text())


def test_default_tileset_is_marked_as_a_reconstruction_everywhere():
    header = DEFAULT_PATH.read_text().splitlines()[0]
    assert "RECONSTRUCTION" in header
    game = Maatatahay()
    assert game.describe()["tileset"]["reconstruction"] is True
    assert "reconstruction" in game.describe()["tileset"]["label"]
    assert "reconstruction" in game.new_initial_state().render()


def test_default_tileset_follows_section_8():
    tiles = load_tileset().tiles
    balan, wazu = tiles[:12], tiles[12:]
    mirror = {0: 0, 1: 7, 2: 6, 3: 5, 4: 4, 5: 3, 6: 2, 7: 1}
    for b, w in zip(balan, wazu):
        assert (b.strength, b.gems, b.ability) == (w.strength, w.gems, w.ability)
        assert tuple(b.arrows[mirror[d]] for d in range(8)) == w.arrows
        assert 1 <= b.strength <= 4 and 0 <= b.gems <= 2 and sum(b.arrows) <= 3
    for tribe in (balan, wazu):
        assert [t.ability for t in tribe].count("elder") == 1
        assert [t.ability for t in tribe].count("convert") == 1
    assert load_tileset().layouts["diagonal"] == (0, 6, 12, 18, 24)
    assert set(load_tileset().layouts) == {"diagonal", "partial-diagonal", "even", "chaos"}


def broken(edit) -> dict:
    data = copy.deepcopy(DEFAULT)
    edit(data)
    return data


BROKEN = [
    (lambda d: d["tiles"][2].update(strength="strong"), "tile 'B3' (tiles[2]): field 'strength'"),
    (lambda d: d["tiles"][4].pop("gems"), "tile 'B5' (tiles[4]): field 'gems' is missing"),
    (lambda d: d["tiles"][5].update(arrows={"UP": 1}), "tile 'B6' (tiles[5]) field 'arrows'"),
    (lambda d: d["tiles"][6].update(ability="wizard"), "tile 'B7' (tiles[6]): field 'ability'"),
    (lambda d: d["tiles"][13].update(tribe="Orc"), "tile 'W2' (tiles[13]): field 'tribe'"),
    (lambda d: d["tiles"][1].update(id="b2"), "tiles[1]: field 'id'"),
    (lambda d: d["tiles"][1].update(id="B1"), "tile 'B1': field 'id' is used by more"),
    (lambda d: d["tiles"][0].update(colour="red"), "tiles[0]: unknown field 'colour'"),
    (lambda d: d["tiles"].pop(), "Wazu has 11 tiles"),
    (lambda d: d["frame"][0].update(cell="c3"), "frame[0]: field 'from'"),
    (lambda d: d["frame"][1].update(cell="z9"), "frame[1]: field 'cell'"),
    (lambda d: d["layouts"].update(diagonal=["a1", "a1", "b2", "c3", "d4"]), "twice"),
    (lambda d: d["layouts"].update(random=["a1", "e1", "b2", "c3", "d4"]), "reserved"),
    (lambda d: d["layouts"].update(tiny=["a1"]), "layout 'tiny'"),
    (lambda d: d["abilities"].update(elder=9), "[abilities]: field 'elder'"),
    (lambda d: d.pop("layouts"), "layouts"),
    (lambda d: d["tileset"].pop("name"), "[tileset]: field 'name' is missing"),
]


@pytest.mark.parametrize("edit,message", BROKEN)
def test_bad_tilesets_name_the_field_and_tile(edit, message):
    with pytest.raises(TilesetError) as caught:
        parse_tileset(broken(edit), "bad.toml")
    assert message in str(caught.value)
    assert "bad.toml" in str(caught.value)


def test_json_tileset_and_custom_layouts(tmp_path):
    data = broken(lambda d: d["layouts"].update(ring=["b2", "b4", "d2", "d4", "c1"]))
    data["tileset"].update(name="mine", reconstruction=False)
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(data))
    game = Maatatahay({"layout": "ring"}, tileset=str(path), seed=1)
    assert game.describe()["tileset"]["reconstruction"] is False
    assert game.new_initial_state().to_position().temples == (2, 6, 8, 16, 18)
    with pytest.raises(RuleError, match="ring"):
        Maatatahay({"layout": "ring"})


def test_unreadable_and_invalid_files(tmp_path):
    with pytest.raises(TilesetError, match="cannot read"):
        load_tileset(str(tmp_path / "missing.toml"))
    path = tmp_path / "bad.toml"
    path.write_text("[tileset\nname=")
    with pytest.raises(TilesetError, match="not valid TOML"):
        load_tileset(str(path))


def test_component_values_come_from_the_tileset(tmp_path):
    """Change one printed strength in a copy of the default and the fight result follows."""
    from test_maatatahay_support import build
    text = build({"a1": "B8^", "b1": "W1^"}, pending="place:W5,B12")      # 3 vs 1 + 2
    data = broken(lambda d: d["tiles"][7].update(strength=1))            # B8: 3 -> 1
    path = tmp_path / "weak.json"
    path.write_text(json.dumps(data))
    for impl in ("fast", "reference"):
        for tileset, survives in ((None, True), (str(path), False)):
            game = Maatatahay(impl=impl, tileset=tileset)
            state = game.parse_position(text)
            state.play(state.parse_move("a2^"))
            assert state.to_position().alive[0] is survives
