"""analyse --svg draws the analysis's lines (issue 29): a mark per line shown, labelled with
the line's score (the card battle: its probability in the mixed strategy), in rank order with
rank 1 the most prominent; a move kind a diagram cannot show draws nothing."""
import json
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

from crystalpick.cli.main import cli
from crystalpick.engine import get_game
from crystalpick.engine.marks import MoveMark, styles
from crystalpick.positions import perft_suite

NS = "{http://www.w3.org/2000/svg}"
TO_CHOOSE = "keep keep toss:P1 call:forca"
TO_CALL = "keep keep toss:P1"


def analysed(tmp_path, *args) -> tuple[dict, ET.Element]:
    """The JSON analysis and the diagram ``analyse ARGS --svg`` wrote."""
    path = tmp_path / "lines.svg"
    result = CliRunner().invoke(cli, ["analyse", *map(str, args), "--json", "--svg", str(path)])
    assert result.exit_code == 0, result.output
    document = json.JSONDecoder().raw_decode(result.stdout[result.stdout.index("{"):])[0]
    return document, ET.fromstring(path.read_text(encoding="utf-8"))


def marks_of(root) -> list[ET.Element]:
    return [g for g in root.iter(f"{NS}g") if g.get("class") == "line"]


def label(group) -> str:
    return next(t.text for t in group.iter(f"{NS}text") if t.get("class") == "line-label")


def widths(group) -> list[float]:
    return [float(e.get("stroke-width")) for e in group if e.get("class") == "mark"]


def assert_rank_order(groups):
    """Ranks 1..n in the marks, each drawn no stronger than the rank before it, and rank 1
    drawn last (on top of the others)."""
    ranks = [int(g.get("data-rank")) for g in groups]
    assert sorted(ranks) == list(range(1, len(groups) + 1)) and ranks[-1] == 1
    by_rank = sorted(groups, key=lambda g: int(g.get("data-rank")))
    opacities = [float(g.get("opacity")) for g in by_rank]
    strokes = [max(widths(g)) for g in by_rank]
    assert opacities == sorted(opacities, reverse=True) and opacities[0] == 1.0
    assert strokes == sorted(strokes, reverse=True) and strokes[0] > strokes[-1]
    return by_rank


def test_mattock_lines_are_arrows_labelled_with_their_scores(tmp_path):
    document, root = analysed(tmp_path, "mattock", "--depth", 2, "--multipv", 4)
    lines = document["result"]["lines"]
    groups = assert_rank_order(marks_of(root))
    assert len(groups) == len(lines) == 4
    for group, line in zip(groups, lines):
        assert group.get("data-move") == line["move"]
        assert label(group) == line["score_text"]
        steps = [e for e in group.iter(f"{NS}line") if e.get("class") == "mark"]
        assert len(steps) == ("/" in line["move"])       # a move with a step has its arrow
        assert steps[0].get("marker-end") == "url(#line-arrow)"


def test_maatatahay_placements_are_marked_cells_and_other_kinds_draw_nothing(tmp_path):
    case = next(c for c in perft_suite("maatatahay") if c.id == "elder-and-convert")
    document, root = analysed(tmp_path, "maatatahay", case.position, "--depth", 1,
                              "--multipv", 3)
    lines = document["result"]["lines"]
    groups = assert_rank_order(marks_of(root))
    assert [g.get("data-move") for g in groups] == [line["move"] for line in lines]
    assert [label(g) for g in groups] == [line["score_text"] for line in lines]
    panel = " ".join(t.text or "" for t in root.iter(f"{NS}text") if t.get("class") == "panel")
    assert all(f"line {rank}: {line['move']}" in panel for rank, line in enumerate(lines, 1))
    # the start of the game is a choice of pair, which the board cannot show: listed only
    state = get_game("maatatahay").parse_position(
        next(c for c in perft_suite("maatatahay") if c.id == "start-diagonal").position)
    moves = state.legal_moves()[:3]
    root = ET.fromstring(state.svg([MoveMark(m, "+0.5") for m in moves]))
    assert marks_of(root) == []
    panel = " ".join(t.text or "" for t in root.iter(f"{NS}text") if t.get("class") == "panel")
    assert f"line 1: {state.move_to_str(moves[0])} +0.5" in panel
    placing = get_game("maatatahay").parse_position(case.position)
    many = ET.fromstring(placing.svg([MoveMark(m, "+1.0") for m in placing.legal_moves()[:20]]))
    assert len(marks_of(many)) == 20       # every line listed and its key still in the picture
    assert max(float(t.get("y")) for t in many.iter(f"{NS}text")) < float(many.get("height"))


def percent(text: str) -> float:
    assert text.endswith("%")
    return float(text[:-1]) / 100


@pytest.mark.parametrize("moves, kind", [(TO_CHOOSE, "play"), (TO_CALL, "call")])
def test_cardbattle_mixed_strategy_is_drawn_as_probabilities(tmp_path, moves, kind):
    document, root = analysed(tmp_path, "cardbattle", "--seed", 3, "--moves", moves,
                              "--sims", 200)
    lines = document["result"]["lines"]
    groups = assert_rank_order(marks_of(root))
    assert len(groups) == len(lines) > 1
    assert [g.get("data-move") for g in groups] == [line["move"] for line in lines]
    assert all(line["move"].startswith(f"{kind}:") for line in lines)
    shares = [percent(label(g)) for g in groups]
    assert shares == pytest.approx([line["probability"] for line in lines], abs=0.001)
    assert sum(shares) == pytest.approx(1.0, abs=0.005)
    bars = [float(next(e for e in g if e.get("class") == "line-bar").get("width"))
            for g in groups]
    assert bars == sorted(bars, reverse=True) and bars[0] > 0


def test_card_moves_mark_their_cards_and_a_move_without_a_card_draws_nothing():
    state = get_game("cardbattle", seed=3).state(None, TO_CHOOSE)
    plays = state.legal_moves()
    root = ET.fromstring(state.svg([MoveMark(m, f"{k}%") for k, m in enumerate(plays)]))
    cards = {g.get("data-card"): g for g in root.iter(f"{NS}g") if g.get("class") == "hand"}
    for group in marks_of(root):
        number = group.get("data-move").partition(":")[2]
        outline = next(e for e in group if e.get("class") == "mark")
        card = cards[number].find(f"{NS}rect")        # the outline surrounds its card
        assert float(outline.get("x")) < float(card.get("x")) < \
            float(outline.get("x")) + float(outline.get("width"))
    start = get_game("cardbattle", seed=3).new_initial_state()
    while start.is_chance_node():
        start.play(start.legal_moves()[0])
    keep = [MoveMark(m, "50.0%", 0.5) for m in start.legal_moves()]     # keep, mulligan
    assert marks_of(ET.fromstring(start.svg(keep))) == []


def test_rank_one_is_most_prominent_whatever_the_weights():
    marks = [MoveMark(1, "", 0.2), MoveMark(2, "", 1.0), MoveMark(3, "", 0.9)]
    drawn = styles(marks)
    assert [s.rank for s in drawn] == [1, 2, 3]
    assert drawn[0].width >= drawn[1].width >= drawn[2].width
    assert drawn[0].opacity >= drawn[1].opacity >= drawn[2].opacity
    tie = styles([MoveMark(1), MoveMark(2)])
    assert tie[0].width > tie[1].width               # a tie still shows which is first
