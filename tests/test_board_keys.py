"""The board diagrams explain themselves (issue 29): a colour key whose swatches are the
board's own colours (Mattock, Maatatahay), Maatatahay's markers (crystals, arrows, the
strength line and its gems) explained, cell names drawn above the warrior tiles, and card
names that fit their cards (the whole name in the card's title)."""
import xml.etree.ElementTree as ET

from crystalpick.engine import get_game
from crystalpick.engine.marks import MoveMark
from crystalpick.positions import perft_suite

NS = "{http://www.w3.org/2000/svg}"


def key_of(root) -> ET.Element:
    return next(g for g in root.iter(f"{NS}g") if g.get("class") == "key")


def texts(element) -> list[str]:
    return ["".join(t.itertext()) for t in element.iter(f"{NS}text")]


def test_mattock_key_names_every_fill_the_board_uses():
    state = get_game("mattock").state(None, "h5/h4-h5 g3")
    root = ET.fromstring(state.svg())
    key = key_of(root)
    assert texts(key) == ["rock", "tile", "first's miner", "second's miner"]
    board_fills = {c.get("fill") for c in root.findall(f"{NS}polygon")} | \
        {c.get("fill") for c in root.findall(f"{NS}circle")}
    key_fills = [s.get("fill") for s in key if s.tag in (f"{NS}polygon", f"{NS}circle")]
    assert len(key_fills) == 4 and set(key_fills) == board_fills


def test_mattock_key_explains_a_marked_move_in_the_marks_colour():
    state = get_game("mattock").state(None, "h5/h4-h5 g3")
    root = ET.fromstring(state.svg([MoveMark(state.legal_moves()[0], "+1.0")]))
    key = key_of(root)
    assert texts(key)[-2:] == ["a line's mined cell: its rank, its score", "its miner's step"]
    mark = next(p for p in root.iter(f"{NS}polygon") if p.get("class") == "mark")
    assert any(s.get("stroke") == mark.get("stroke") for s in key)
    height = float(root.get("height"))
    assert all(float(t.get("y")) < height for t in key.iter(f"{NS}text"))


def maatatahay_root():
    case = next(c for c in perft_suite("maatatahay") if c.id == "last-round")
    return ET.fromstring(get_game("maatatahay").parse_position(case.position).svg())


def test_maatatahay_key_explains_warriors_crystals_arrows_and_gems():
    root = maatatahay_root()
    key = key_of(root)
    said = " ".join(texts(key))
    for words in ("Balan warrior", "Wazu warrior", "dead warrior", "temple", "relic",
                  "Spirit crystal", "Energy crystal", "support arrow", "frame arrow",
                  "printed + Energy + bonus", "E elder / C convert", "1g: points"):
        assert words in said
    warriors = {r.get("fill") for r in root.iter(f"{NS}rect")
                if "warrior" in (r.get("class") or "")}
    assert warriors <= {r.get("fill") for r in key.iter(f"{NS}rect")}
    crystals = {c.get("fill") for c in key.iter(f"{NS}circle")}
    assert crystals == {c.get("fill") for c in root.iter(f"{NS}circle")
                        if "crystal" in (c.get("class") or "")}
    assert max(float(t.get("y")) for t in key.iter(f"{NS}text")) < float(root.get("height"))


def test_maatatahay_cell_names_are_drawn_above_the_warriors():
    elements = list(maatatahay_root().iter())
    names = [i for i, e in enumerate(elements) if e.get("class") == "cell-name"]
    warriors = [i for i, e in enumerate(elements) if "warrior" in (e.get("class") or "")]
    assert len(names) == 25 and warriors and min(names) > max(warriors)
    for i in names:         # each on its own patch, drawn just before it: no paint-order
        assert elements[i - 1].get("class") == "cell-name-patch"
        assert elements[i].get("paint-order") is None and elements[i].get("stroke") is None


def test_every_card_name_of_the_default_set_fits_its_card():
    from crystalpick.engine.cardbattle.cards import load_cardset
    from crystalpick.engine.cardbattle.svg import LINE_CHARS, heading

    cards = load_cardset()
    for number, card in cards.cards.items():
        lines = heading(number, card.name)
        assert 1 <= len(lines) <= 2 and all(len(line) <= LINE_CHARS for line in lines)
        if not lines[-1].endswith("…"):                 # nothing dropped: the whole name
            assert " ".join(lines) == f"#{number} {card.name}"
    assert heading(3, "Averyveryverylongname indeed")[-1].endswith("…")


def test_a_card_diagram_names_its_cards_whole():
    from crystalpick.engine.cardbattle.svg import heading

    state = get_game("cardbattle", seed=2).new_initial_state()
    root = ET.fromstring(state.svg())
    groups = [g for g in root.iter(f"{NS}g") if g.get("class") == "hand"]
    assert groups
    for group in groups:
        title = group.find(f"{NS}title").text
        number = int(group.get("data-card"))
        assert title == f"#{number} {state.game.component_name(number)}"
        lines = heading(number, state.game.component_name(number))
        assert texts(group)[:len(lines)] == lines
