"""SVG diagrams parse as XML and hold what the position holds."""
import xml.etree.ElementTree as ET

from click.testing import CliRunner

from crystalpick.cli.main import cli
from crystalpick.engine import get_game
from crystalpick.engine.marks import MoveMark

NS = "{http://www.w3.org/2000/svg}"


def parse(text):
    return ET.fromstring(text)


def test_mattock_diagram_has_every_cell_and_miner():
    state = get_game("mattock").state(None, "h5/h4-h5 g3")
    root = parse(state.svg())
    cells = root.findall(f"{NS}polygon")
    assert len(cells) == 61
    assert sum("tile" in c.get("class") for c in cells) == 8
    miners = {(c.get("data-cell"), c.get("class")) for c in root.findall(f"{NS}circle")}
    assert miners == {("h5", "miner first"), ("c6", "miner first"), ("d2", "miner first"),
                      ("g2", "miner second"), ("f7", "miner second"), ("b3", "miner second")}
    assert state.position() in root.find(f"{NS}title").text


def test_marked_move_draws_the_cell_and_the_step():
    state = get_game("mattock", {"size": "7"}).new_initial_state()
    move = state.legal_moves()[1]
    root = parse(state.svg([MoveMark(move)]))
    assert len(root.findall(f"{NS}polygon")) == 127
    assert [p.get("class") for p in root.iter(f"{NS}polygon")].count("mark") == 1
    assert [e.get("class") for e in root.iter(f"{NS}line")].count("mark") == 1


def test_show_and_analyse_write_svg_files(tmp_path):
    shown = tmp_path / "show.svg"
    result = CliRunner().invoke(cli, ["show", "mattock", "--svg", str(shown)])
    assert result.exit_code == 0 and parse(shown.read_text()).tag == f"{NS}svg"
    analysed = tmp_path / "analyse.svg"
    result = CliRunner().invoke(cli, ["analyse", "mattock", "--depth", "2", "--svg", str(analysed)])
    assert result.exit_code == 0
    assert any(p.get("class") == "mark" for p in parse(analysed.read_text()).iter())


def test_maatatahay_diagram_shows_warriors_temples_and_the_reconstruction_label():
    from crystalpick.positions import perft_suite
    case = next(c for c in perft_suite("maatatahay") if c.id == "last-round")
    state = get_game("maatatahay").parse_position(case.position)
    position = state.to_position()
    root = parse(state.svg())
    rects = [r for r in root.iter(f"{NS}rect") if "warrior" in (r.get("class") or "")]
    assert len(rects) == sum(t != -1 for t in position.tile)
    assert sum("dead" in r.get("class") for r in rects) == sum(
        1 for c, t in enumerate(position.tile) if t != -1 and not position.alive[c])
    temples = [r for r in root.iter(f"{NS}rect") if r.get("class") == "cell temple"]
    assert len(temples) == 5
    text = " ".join(t.text or "" for t in root.iter(f"{NS}text"))
    assert "reconstruction" in text and "to act:" in text


def test_maatatahay_placement_mark():
    from crystalpick.positions import perft_suite
    case = next(c for c in perft_suite("maatatahay") if c.id == "elder-and-convert")
    state = get_game("maatatahay").parse_position(case.position)
    move = state.legal_moves()[0]
    root = parse(state.svg([MoveMark(move)]))
    assert any(r.get("class") == "mark" for r in root.iter(f"{NS}rect"))
