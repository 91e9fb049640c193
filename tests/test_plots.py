"""The ``--plot FILE`` pictures (annotate, match, tournament, deck, bench) rendered from tiny
real runs and read back: an SVG parsed and searched for the artists it must hold (curves
with one point per game or position, markers where the report marks moves, bounds, bars per
card), a PNG checked for its size and for not being blank; and the terminal charts of
``annotate`` and ``match`` against the figures they draw. Bad --plot input is one line,
exit 2, before any work."""
import json
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from crystalpick.cli.main import cli
from crystalpick.apps.sparkline import BLOCKS, columns, marker_line, sparkline
from search_helpers import ctrl_c_after

mpimage = pytest.importorskip("matplotlib.image")   # the test extra installs it

SVG = "{http://www.w3.org/2000/svg}"
DATA = Path(__file__).parent / "data" / "cardbattle"
SMALL_CARDS = ["--cardset", str(DATA / "small-cards.toml"), "--rule", "hand=3",
               "--rule", "deck-minimum=6", "--rule", "target=3"]
ANNOTATOR = ["--engine", "alphabeta", "--nodes", "2000"]


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def document(result) -> dict:
    return json.JSONDecoder().raw_decode(result.stdout[result.stdout.index("{"):])[0]


def svg_elements(path) -> dict[str, ET.Element]:
    """The SVG's elements by id (the ids plots.py gives its artists)."""
    root = ET.parse(path).getroot()
    assert root.tag == f"{SVG}svg"
    return {element.get("id"): element for element in root.iter() if element.get("id")}


def svg_texts(path) -> str:
    return " ".join("".join(element.itertext()) for element in ET.parse(path).getroot()
                    .iter(f"{SVG}text"))


def vertices(group: ET.Element) -> int:
    """Points of the polyline drawn in an artist's group (its path's M and L commands)."""
    path = next(group.iter(f"{SVG}path"))
    return len(re.findall(r"[ML]", path.get("d")))


def marker_count(group: ET.Element) -> int:
    """Markers drawn by a marker-only line: one <use> of the marker shape each."""
    return len(list(group.iter(f"{SVG}use")))


def check_png(path, width: int, height: int) -> None:
    image = mpimage.imread(path)
    assert image.shape[:2] == (height, width)
    assert image[..., :3].std() > 0.05          # not blank: lines, text and fills on white


@pytest.fixture(scope="module")
def mattock_match(tmp_path_factory):
    """A 4-game Mattock match of greedy against random (with an SPRT), its records and the
    JSON document."""
    folder = tmp_path_factory.mktemp("match")
    result = run("match", "mattock", "--engine", "greedy", "--engine", "random", "--games", 4,
                 "--seed", 4, "--sprt", "elo0=0,elo1=50,model=logistic", "--db",
                 folder / "m.sqlite", "--records", folder / "m.rec", "--plot",
                 folder / "m.svg", "--json")
    assert result.exit_code == 0, result.output
    return {"folder": folder, "records": folder / "m.rec", "svg": folder / "m.svg",
            "document": document(result)}


# -- annotate ---------------------------------------------------------------------------------

def test_annotate_draws_a_curve_per_game_with_its_marked_moves(mattock_match, tmp_path):
    picture = tmp_path / "eval.svg"
    result = run("annotate", "mattock", mattock_match["records"], *ANNOTATOR, "--json",
                 "--plot", picture)
    assert result.exit_code == 0, result.output
    report = document(result)
    elements = svg_elements(picture)
    for number, game in enumerate(report["games"], 1):
        # every position of the game, from the start to its end (the record's result)
        assert [p["ply"] for p in game["curve"]] == list(range(game["decisions"] + 1))
        assert game["curve"][-1]["first_win"] == {"1-0": 1.0, "0-1": 0.0}[game["result"]]
        assert all(0 <= p["first_win"] <= 1 for p in game["curve"])
        assert vertices(elements[f"curve-{number}"]) == len(game["curve"])
        for mark in ("mistake", "blunder"):
            marked = [move for move in game["moves"] if move["mark"] == mark]
            group = elements.get(f"{mark}s-{number}")
            assert (marker_count(group) if group is not None else 0) == len(marked)
    assert any(move["mark"] == "blunder" for game in report["games"] for move in game["moves"])
    texts = svg_texts(picture)
    assert "ply" in texts and "win probability of the first player (first)" in texts
    assert "blunders" in texts                       # the legend explains the markers


def test_a_hidden_information_game_is_drawn_at_the_positions_searched(tmp_path):
    """The card battle: chance positions no decision is judged by are not searched, so the
    curve has fewer points than plies; each marked move still sits on its game's curve."""
    records = tmp_path / "c.rec"
    assert run("match", "cardbattle", "--engine", "greedy", "--engine", "random", "--games", 2,
               "--seed", 3, "--db", tmp_path / "c.sqlite", "--records",
               records).exit_code == 0
    picture = tmp_path / "c.svg"
    result = run("annotate", "cardbattle", records, "--sims", 100, "--seed", 1, "--json",
                 "--plot", picture)
    assert result.exit_code == 0, result.output
    elements = svg_elements(picture)
    for number, game in enumerate(document(result)["games"], 1):
        plies = [p["ply"] for p in game["curve"]]
        assert plies == sorted(set(plies)) and plies[0] == 0
        assert game["decisions"] < plies[-1]                   # chance plies in between
        assert vertices(elements[f"curve-{number}"]) == len(plies)
        for mark in ("mistake", "blunder"):
            marked = [m for m in game["moves"] if m["mark"] == mark]
            assert all(m["ply"] in plies for m in marked)
            group = elements.get(f"{mark}s-{number}")
            assert (marker_count(group) if group is not None else 0) == len(marked)


def test_annotate_text_charts_the_evaluation_with_the_marks_under_it(mattock_match):
    report = document(run("annotate", "mattock", mattock_match["records"], *ANNOTATOR,
                          "--json"))
    text = run("annotate", "mattock", mattock_match["records"], *ANNOTATOR).output
    lines = text.splitlines()
    heads = [i for i, line in enumerate(lines) if line.startswith("  win probability of first")]
    assert len(heads) == len(report["games"])
    for head, game in zip(heads, report["games"]):
        chart = lines[head + 1].strip()
        assert len(chart) == len(game["curve"]) and set(chart) <= set(BLOCKS)
        assert chart == sparkline([p["first_win"] for p in game["curve"]])
        marks = {m["ply"]: {"blunder": "X", "mistake": "?"}[m["mark"]] for m in game["moves"]
                 if m["mark"] in ("blunder", "mistake")}
        under = lines[head + 2][2:] if marks else ""
        assert {i: c for i, c in enumerate(under) if c != " "} == marks


def test_an_interrupted_annotate_draws_what_it_finished(mattock_match, tmp_path,
                                                      monkeypatch):
    ctrl_c_after(monkeypatch, 6)
    picture = tmp_path / "partial.svg"
    result = run("annotate", "mattock", mattock_match["records"], *ANNOTATOR, "--plot", picture)
    assert result.exit_code == 130
    drawn = sum(vertices(element) for name, element in svg_elements(picture).items()
                if name.startswith("curve-"))
    curves = sum(1 for name in svg_elements(picture) if name.startswith("curve-"))
    assert 6 <= drawn <= 6 + curves             # six positions, and each game's known end


def test_annotate_png_has_its_size_and_is_not_blank(mattock_match, tmp_path):
    picture = tmp_path / "eval.png"
    result = run("annotate", "mattock", mattock_match["records"], *ANNOTATOR, "--plot", picture)
    assert result.exit_code == 0, result.output
    assert f"plot written to {picture}" in result.stderr
    check_png(picture, 800, 450)


# -- match and tournament ---------------------------------------------------------------------

def test_match_draws_score_elo_and_the_sprt_per_game(mattock_match):
    elements = svg_elements(mattock_match["svg"])
    games = mattock_match["document"]["games"]
    assert vertices(elements["score-1"]) == games         # one point per game played
    assert vertices(elements["llr"]) == games
    for name in ("score-interval-1", "elo-1", "elo-interval-1", "sprt-bound-H0",
                 "sprt-bound-H1"):
        assert name in elements
    sprt = mattock_match["document"]["sprt"]
    texts = svg_texts(mattock_match["svg"])
    assert "games played" in texts and "Elo (95%)" in texts and "SPRT LLR" in texts
    assert f"accept H1 ({sprt['upper_bound']:.2f})" in texts
    assert f"accept H0 ({sprt['lower_bound']:.2f})" in texts


def test_match_without_sprt_has_no_llr_panel_and_its_text_charts_the_score(tmp_path):
    picture = tmp_path / "m.png"
    result = run("match", "mattock", "--engine", "random", "--engine", "greedy", "--games", 4,
                 "--seed", 2, "--db", tmp_path / "m.sqlite", "--plot", picture)
    assert result.exit_code == 0, result.output
    check_png(picture, 800, 520)               # two panels, 2.6 inches each
    chart = next(line for line in result.stdout.splitlines()
                 if line.startswith("Running score"))
    blocks = chart.rsplit(" ", 1)[1]
    assert chart.startswith("Running score, games 1 to 4") and len(blocks) == 4
    points = float(re.search(r"Points: \S+ \(([\d.]+) %\)", result.stdout).group(1))
    assert blocks[-1] == sparkline([points / 100])   # the last block: the final score
    svg = tmp_path / "m.svg"
    assert run("match", "--resume", "--db", tmp_path / "m.sqlite",
               "--plot", svg).exit_code == 2       # nothing to resume: refused, no picture
    assert not svg.exists()


def test_an_interrupted_match_draws_its_finished_games(tmp_path, monkeypatch):
    ctrl_c_after(monkeypatch, 3)
    picture = tmp_path / "partial.svg"
    result = run("match", "mattock", "--engine", "random", "--engine", "greedy", "--games", 8,
                 "--seed", 2, "--db", tmp_path / "m.sqlite", "--plot", picture)
    assert result.exit_code == 130
    assert vertices(svg_elements(picture)["score-1"]) == 3


def test_tournament_draws_one_curve_per_pairing(tmp_path):
    picture = tmp_path / "t.svg"
    result = run("tournament", "mattock", "--engine", "random", "--engine", "greedy",
                 "--engine", "alphabeta:depth=1", "--seed", 1, "--db", tmp_path / "t.sqlite",
                 "--plot", picture, "--json")
    assert result.exit_code == 0, result.output
    pairings = document(result)["pairings"]
    elements = svg_elements(picture)
    for number, pairing in enumerate(pairings, 1):
        assert vertices(elements[f"score-{number}"]) == pairing["games"]
    assert "score-4" not in elements and "llr" not in elements
    texts = svg_texts(picture)
    assert all(" vs ".join(p["engines"]) in texts for p in pairings)


def test_tournament_shows_every_pairing_elo_and_the_rating_list(tmp_path):
    """A pairing won 100% has no finite Elo: it is named in the Elo panel, not left out
    silently; the rating list is drawn, one point with its interval per engine."""
    picture = tmp_path / "t.svg"
    result = run("tournament", "mattock", "--engine", "alphabeta:depth=2", "--engine",
                 "random", "--engine", "greedy", "--seed", 1, "--db", tmp_path / "t.sqlite",
                 "--plot", picture, "--json")
    assert result.exit_code == 0, result.output
    report = document(result)
    elements, texts = svg_elements(picture), svg_texts(picture)
    unbounded = [p for p in report["pairings"] if p["elo"]["value"] is None]
    assert unbounded                     # alpha-beta beats random every game
    note = "".join(elements["elo-unbounded"].itertext()).replace("\n", " ")
    for pairing in report["pairings"]:
        label = " vs ".join(pairing["engines"])
        assert (label in " ".join(note.split())) == (pairing in unbounded)
    assert marker_count(elements["ratings"]) == len(report["ratings"]["ratings"]) == 3
    assert "Rating list" in texts and all(r["engine"] in texts
                                          for r in report["ratings"]["ratings"])


# -- deck -------------------------------------------------------------------------------------

def test_deck_draws_win_rates_and_a_bar_per_card(tmp_path):
    picture = tmp_path / "deck.svg"
    result = run("deck", "cardbattle", *SMALL_CARDS, "--deck", DATA / "dud.toml", "--against",
                 DATA / "rival.toml", "--engine", "greedy", "--games", 4, "--seed", 3,
                 "--plot", picture, "--json")
    assert result.exit_code == 0, result.output
    report = document(result)
    elements = svg_elements(picture)
    assert marker_count(elements["win-rate"]) == 2             # the opponent and overall
    assert "win-rate-intervals" in elements
    measured = [c for c in report["cards"] if c["swapped_out"] is not None]
    assert measured
    assert {f"card-{c['card']}" for c in measured} == {k for k in elements
                                                       if k.startswith("card-")}
    texts = svg_texts(picture)
    assert "vs rival" in texts or "vs " + str(DATA / "rival.toml") in texts
    assert all(f"{c['card']} {c['name']}" in texts for c in measured)
    zero = xs(elements["no-change"])[0]
    for card in measured:            # each bar on the side of the sign the text prints
        change, ends = card["swapped_out"]["change"], xs(elements[f"card-{card['card']}"])
        assert (max(ends) > zero + 0.01) == (change > 0)
        assert (min(ends) < zero - 0.01) == (change < 0)


def xs(group: ET.Element) -> list[float]:
    """The x coordinates of the path drawn in an artist's group."""
    numbers = [float(n) for n in re.findall(r"-?[\d.]+", next(group.iter(f"{SVG}path"))
                                            .get("d"))]
    return numbers[0::2]


def test_a_deck_run_stopped_before_a_complete_pair_still_draws(tmp_path, monkeypatch):
    ctrl_c_after(monkeypatch, 1)
    picture = tmp_path / "deck.svg"
    result = run("deck", "cardbattle", *SMALL_CARDS, "--deck", DATA / "dud.toml", "--against",
                 DATA / "rival.toml", "--engine", "greedy", "--games", 4, "--seed", 3,
                 "--plot", picture)
    assert result.exit_code == 130
    elements = svg_elements(picture)
    assert marker_count(elements["win-rate"]) == 0          # no pair: no win rate yet
    assert not any(name.startswith("card-") for name in elements)


# -- bench ------------------------------------------------------------------------------------

def test_bench_draws_a_bar_per_game_and_part(tmp_path):
    picture = tmp_path / "bench.svg"
    result = run("bench", "mattock", "--perft-depth", 2, "--depth", 2, "--sims", 50,
                 "--plot", picture, "--json")
    assert result.exit_code == 0, result.output
    parts = document(result)["total"]
    elements = svg_elements(picture)
    assert {k for k in elements if k.startswith("rate-")} == {f"rate-mattock-{part}"
                                                             for part in parts}
    texts = svg_texts(picture)
    assert "nodes/s (linear, from 0)" in texts and all(part in texts for part in parts)
    assert "10^" not in texts and "$" not in texts          # no log axis's tick labels


def test_perf_table_refuses_a_picture_it_cannot_draw(capsys):
    sys.path.insert(0, str(Path(__file__).parents[1] / "bench"))
    try:
        import perf_table
    finally:
        sys.path.pop(0)
    with pytest.raises(SystemExit) as stop:
        perf_table.main(["--plot", "table.pdf"])
    assert stop.value.code == 2
    assert "expected a file ending in .svg or .png" in capsys.readouterr().err


# -- bad input --------------------------------------------------------------------------------

@pytest.mark.parametrize("name, fragment", [
    ("eval.pdf", "expected a file ending in .svg or .png"),
    ("missing/eval.svg", "no such folder"),
])
def test_a_plot_that_cannot_be_written_is_refused_before_any_work(name, fragment,
                                                                  mattock_match, tmp_path):
    out = tmp_path / "annotated.rec"
    result = run("annotate", "mattock", mattock_match["records"], *ANNOTATOR, "-o", out,
                 "--plot", tmp_path / name)
    assert result.exit_code == 2
    assert fragment in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert not out.exists()                     # refused before the positions were searched


@pytest.mark.parametrize("command", [
    ["match", "mattock", "--engine", "random", "--engine", "random"],
    ["deck", "cardbattle", "--deck", "titas", "--against", "arsenal"],
    ["bench", "mattock"],
])
def test_without_matplotlib_plot_names_the_extra_to_install(command, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)      # import matplotlib fails
    db = tmp_path / "m.sqlite"
    extra = ["--db", db] if command[0] == "match" else []
    result = run(*command, *extra, "--plot", tmp_path / "x.svg")
    assert result.exit_code == 2
    assert result.stderr.strip() == \
        'Error: drawing plots needs matplotlib: pip install "crystalpick[plots]"'
    assert not db.exists()


# -- the terminal chart -----------------------------------------------------------------------

def test_sparkline_maps_the_range_onto_the_blocks():
    assert sparkline([0.0, 0.5, 1.0, float("nan"), 2.0]) == "▁▅█ █"
    assert sparkline([-1, 1], low=-1, high=1) == "▁█"


def test_a_long_series_is_sampled_at_the_end_of_each_column():
    values = [i / 999 for i in range(1000)]
    line = sparkline(values, width=10)
    assert len(line) == 10 and line[-1] == "█" and line == "".join(sorted(line))
    assert columns(1000, 10)[-1] == 999 and columns(5, 10) == [0, 1, 2, 3, 4]
    # two marks in one column: the one ranked first shows
    assert marker_line(1000, {0: "?", 50: "X", 999: "?"}, "X?", width=10) == "X        ?"
