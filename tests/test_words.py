"""What the outputs say agrees with what they show (issue 45, "words"): every evaluation
names its unit, annotate's verdict agrees with the scores beside it, a stopped match is
called interrupted with the command that continues it, a card set is called a card set and
a finished bench position is not reported as a measurement."""
import json

from click.testing import CliRunner

from crystalpick.apps.annotate import annotation_text
from crystalpick.cli.main import cli
from crystalpick.engine import get_game
from crystalpick.search.bench import BenchRow, Measurement, row_text
from search_helpers import ctrl_c_after


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_every_game_names_its_evaluation_unit_and_analyse_prints_it():
    units = {name: get_game(name).score_unit for name in ("mattock", "maatatahay")}
    assert units["mattock"] != units["maatatahay"] and "evaluation units" not in units.values()
    result = run("analyse", "mattock", "--depth", 2)
    assert result.exit_code == 0, result.output
    assert f"to move; unit: {units['mattock']}" in result.output
    result = run("analyse", "maatatahay", "--seed", 7, "--engine", "mcts:sims=200")
    assert result.exit_code == 0, result.output
    assert "unit: mean result (-1..+1)" in result.output    # MCTS: a mean, not the game's


def test_annotate_names_the_engine_own_move_instead_of_saying_nothing_was_lost():
    comment = {"eval_before": "+214.0", "eval_after": "+108.0", "eval_pov": "first",
               "eval_unit": "Mattock points", "wp_loss": "0.000"}
    said = annotation_text(3, "e3", {**comment, "engine_move": "yes"})
    assert said == ("3. e3  ok: +214.0 -> +108.0 Mattock points for first, the engine's own "
                    "move, no loss counted")
    assert annotation_text(3, "e3", {**comment, "eval_after": "+250.0"}).endswith(
        "+250.0 Mattock points for first, no win probability lost")


def test_an_annotated_record_carries_the_unit_and_the_engine_own_moves(tmp_path):
    records, annotated = tmp_path / "g.rec", tmp_path / "a.rec"
    assert run("match", "mattock", "--engine", "alphabeta:depth=2", "--engine", "greedy",
               "--games", 2, "--seed", 5, "--records", records, "--db",
               tmp_path / "m.sqlite").exit_code == 0
    result = run("annotate", records, "--depth", 3, "-o", annotated, "--json")
    assert result.exit_code == 0, result.output
    moves = [m for game in json.loads(result.stdout)["games"] for m in game["moves"]]
    assert {m["unit"] for m in moves if m["before"]["score"]["type"] == "value"} == \
        {"Mattock points"}
    own = [m for m in moves if m["engine_move"]]
    assert own and all(m["wp_loss"] == 0 and m["best"] is None for m in own)
    text = annotated.read_text()
    assert "eval_unit=Mattock points" in text and "engine_move=yes" in text


def test_results_calls_a_stopped_match_interrupted_and_says_how_to_continue(tmp_path,
                                                                              monkeypatch):
    db = tmp_path / "m.sqlite"
    ctrl_c_after(monkeypatch, 2)
    assert run("match", "mattock", "--engine", "random", "--engine", "greedy", "--games", 6,
               "--seed", 2, "--db", db).exit_code == 130
    monkeypatch.undo()
    result = run("results", "--db", db)
    assert result.exit_code == 0, result.output
    assert f"interrupted): continue with crystalpick match --resume --match-id 1 --db {db}" \
        in result.output and "running" not in result.output
    document = json.loads(run("results", "--db", db, "--json").output)["matches"][0]
    assert document["status"] == "interrupted"
    assert run(*document["resume"].split()[1:]).exit_code == 0     # the command works
    assert "finished)" in run("results", "--db", db).output


def test_results_sends_a_stopped_tournament_pairing_to_the_tournament_resume(tmp_path,
                                                                            monkeypatch):
    db = tmp_path / "t.sqlite"
    ctrl_c_after(monkeypatch, 1)
    assert run("tournament", "mattock", "--engine", "random", "--engine", "greedy",
               "--engine", "alphabeta:depth=1", "--seed", 2, "--db", db).exit_code == 130
    monkeypatch.undo()
    said = run("results", "--db", db).output
    resume = f"continue with crystalpick tournament --resume --tournament-id 1 --db {db}"
    assert f"interrupted, tournament 1): {resume}" in said       # each pairing's line
    assert "tournament 1 (mattock" in said and said.rstrip().endswith(resume)
    assert "crystalpick match --resume" not in said and "running" not in said


def test_a_match_being_played_is_running():
    from crystalpick.apps.match.lock import MatchLock, stored_status
    import tempfile
    from pathlib import Path
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "m.sqlite"
        assert stored_status(db, "match", 1, "running") == "interrupted"
        with MatchLock(db, 1) as lock:
            assert lock.acquire()
            assert stored_status(db, "match", 1, "running") == "running"
        assert stored_status(db, "match", 1, "finished") == "finished"


def test_games_calls_the_card_game_data_a_card_set_and_maatatahay_a_tileset():
    cards, tiles = run("games", "cardbattle").output, run("games", "maatatahay").output
    assert "  card set: " in cards and "tileset:" not in cards
    assert "  tileset: " in tiles


def test_a_finished_bench_position_is_said_to_be_finished_not_measured():
    row = BenchRow("mattock", "end", {"perft": Measurement(0, 0.0)}, terminal=True)
    assert row_text(row, 5) == "  end   a finished game: no moves to count or search"
    playing = BenchRow("mattock", "start", {"perft": Measurement(10, 1.0)})
    assert "perft" in row_text(playing, 5)
