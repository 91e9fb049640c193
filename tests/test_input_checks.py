"""Issue 13's reproducers: every one was a traceback, a hang, a wrong exit status, a forfeit
or a silently changed file, and is now a one-line refusal with exit status 2 (or the
promised behaviour)."""
import io
import sqlite3
import subprocess
import sys

import pytest

from interrupt_cases import Case, run as interrupt
from crystalpick.apps.protocol import Session
from crystalpick.apps.match.lock import MatchLock
from crystalpick.apps.match.openings import default_openings, load_openings
from crystalpick.apps.match.settings import MatchSettings
from crystalpick.engine import GameError

from cli_helpers import refused, run

BIG = "9223372036854775808"




@pytest.mark.parametrize("args,fragment", [
    (["analyse", "mattock", "--time", "nan"], "'--time': 'nan': expected a finite number > 0"),
    (["analyse", "mattock", "--time", "inf"], "'--time': 'inf'"),
    (["analyse", "mattock", "--nodes", "9" * 30], "'--nodes'"),
    (["analyse", "mattock", "--multipv", BIG, "--depth", "1"], "expected an integer in 1..64"),
    (["analyse", "mattock", "--depth", BIG], "expected an integer in 1..120"),
    (["analyse", "mattock", "--engine", "mcts:c=nan"], "c=nan: expected a finite number"),
    (["analyse", "mattock", "--engine", "alphabeta:tt_megabytes=-1"], "tt_megabytes=-1"),
    (["perft", "mattock", "--depth", BIG], "expected an integer in 0..256"),
    (["perft", "mattock", "--depth", "0", "--divide"], "--divide needs --depth 1 or more"),
    (["show", "maatatahay", "--seed", "-1"], "'--seed': '-1': expected an integer in 0.."),
    (["show", "maatatahay", "--seed", "9" * 23], "'--seed'"),
    (["bench", "--perft-depth", BIG], "'--perft-depth'"),
    (["bench", "--depth", "1000000"], "expected an integer in 1..30"),
    (["play", "mattock", "--engine", "alphabeta:time=nan", "--human", "none"], "time=nan"),
])
def test_numbers_out_of_range_are_refused_where_they_enter(args, fragment):
    refused(run(*args), fragment)


@pytest.mark.parametrize("extra,fragment", [
    (["--st", "0"], "'--st': '0'"), (["--st", "nan"], "'--st': 'nan'"),
    (["--tc", "nan"], "--tc"), (["--tc", "inf"], "--tc"), (["--tc", "1+nan"], "--tc"),
    (["--tolerance", "-5"], "'--tolerance': '-5'"), (["--tolerance", "nan"], "--tolerance"),
    (["--sprt", "elo0=nan,elo1=5"], "expected a finite number"),
    (["--games", "9" * 20], "'--games'"), (["--concurrency", "100000"], "'--concurrency'"),
    (["--max-plies", "9" * 20], "'--max-plies'"), (["--seed", "-1"], "'--seed'"),
])
def test_bad_match_limits_stop_before_anything_is_written(tmp_path, extra, fragment):
    db = tmp_path / "r.sqlite"
    refused(run("match", "mattock", "--engine", "random", "--engine", "greedy", "--games", "2",
                "--db", str(db), *extra), fragment)
    assert not db.exists()


@pytest.mark.parametrize("args,fragment", [
    (["analyse", "mattock", "--engine", "mcts:c=1,c=2"], "engine option 'c' given twice"),
    (["match", "mattock", "--engine", "alphabeta:depth=2,depth=3", "--engine", "random"],
     "'depth' given twice"),
    (["analyse", "mattock", "--engine", ""], "'--engine': '': expected ENGINE"),
    (["play", "mattock", "--engine", "", "--human", "none"], "'--engine': '': expected SPEC"),
    (["annotate", "mattock", "{records}", "--engine", ""], "'--engine': '': expected SPEC"),
    (["solve", "mattock", "--resume", "{missing}/t.bin"], "'--resume': '{missing}/t.bin': no "
                                                          "such folder to write the table in"),
    (["analyse", "mattock", "--svg", "{missing}/b.svg"], "no such folder to write the diagram"),
    (["bench", "mattock", "--profile", "{missing}/p"], "no such folder to write the profile"),
    (["match", "mattock", "--engine", "greedy", "--engine", "random", "--records",
      "{missing}/r.rec", "--db", "{tmp}/r.sqlite"], "no such folder to write the records"),
    (["match", "mattock", "--engine", "greedy", "--engine", "random", "--db",
      "{missing}/r.sqlite"], "no such folder to write the results database"),
    (["tournament", "mattock", "--engine", "greedy", "--engine", "random", "--db",
      "{tmp}/r.sqlite", "--tournament-id", "1"], "--tournament-id names a tournament to "
                                                  "continue: give --resume too"),
    (["match", "mattock", "--engine", "greedy", "--engine", "random", "--db",
      "{tmp}/r.sqlite", "--match-id", "1"], "--match-id names a match to continue"),
    (["solve", "cardbattle", "--config", "open-3", "--method", "cfr", "--target", "nan"],
     "'--target': 'nan': expected a finite number"),       # it ran forever (issue 46)
])
def test_bad_specs_and_output_folders_are_refused_before_any_work(tmp_path, args, fragment):
    """Found by fuzzing after the issue's list: duplicate spec keys were silently merged, an
    empty spec meant the default in some commands, and a file to write in a missing folder
    failed after the whole search (or a match's first game), naming a '.partial' file, or
    had the folder created (--db)."""
    records = tmp_path / "game.rec"
    records.write_text('[Game "mattock"]\n[Start "5/3x2/1o5/6o1/9/1x6/5x1/2o3/5 x"]\n'
                       '[Result "*"]\n\n1. h5/h4-h5\n')
    filled = {"tmp": tmp_path, "missing": tmp_path / "missing", "records": records}
    refused(run(*[a.format(**filled) for a in args]), fragment.format(**filled))
    assert not (tmp_path / "missing").exists() and not (tmp_path / "r.sqlite").exists()


def test_a_table_that_does_not_fit_stops_the_match_before_the_first_game(tmp_path, monkeypatch):
    from crystalpick.search import engines

    def no_memory(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(engines.AlphaBetaEngine, "analyse", no_memory)
    db = tmp_path / "r.sqlite"
    result = run("match", "mattock", "--engine", "alphabeta:depth=1", "--engine", "random",
                 "--db", str(db))
    refused(result, "not enough memory")
    assert "no game was played" in result.output
    assert sqlite3.connect(db).execute("SELECT COUNT(*) FROM matches").fetchone() == (0,)


@pytest.mark.parametrize("content,fragment", [
    (b"\x00\x01\xff binary\n", ":1: not UTF-8 text"),
    (b"[Game \"mattock\"]\ncaf\xe9\n", ":2: not UTF-8 text (byte 0xe9)"),
    (b"ok\n\x00\n", ":2: a NUL byte"),
    (b'[Game "mattock"]\n[Rules "size"]\n[Start "x"]\n[Result "*"]\n', "'size' is not NAME=VALUE"),
    (b'[Game "mattock"]\n[Seed "nan"]\n[Start "x"]\n[Result "*"]\n', '[Seed "nan"]: expected'),
])
def test_bad_record_files_are_refused_naming_file_and_line(tmp_path, content, fragment):
    path = tmp_path / "bad.rec"
    path.write_bytes(content)
    refused(run("replay", str(path)), fragment)
    refused(run("match", "mattock", "--engine", "random", "--engine", "random",
                "--openings", str(path), "--db", str(tmp_path / "r.sqlite")), fragment)


def test_an_empty_openings_file_is_refused(tmp_path):
    with pytest.raises(GameError, match="holds no openings"):
        load_openings("# only a comment\n\n", "empty.txt")


def test_another_programs_database_is_refused_and_left_unchanged(tmp_path):
    path = tmp_path / "other.sqlite"
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE notes (x)")
    connection.commit()
    connection.close()
    before = path.read_bytes()
    refused(run("results", "--db", str(path)), "not a crystalpick results database")
    refused(run("match", "mattock", "--engine", "random", "--engine", "random", "--db",
                str(path)), "not a crystalpick results database")
    assert path.read_bytes() == before


@pytest.mark.parametrize("content", [b"not a database at all", b"SQLite format 3\x00" + b"\x01" * 200])
def test_a_file_that_is_not_sqlite_or_is_damaged_is_refused(tmp_path, content):
    path = tmp_path / "r.sqlite"
    path.write_bytes(content)
    refused(run("results", "--db", str(path)), "cannot be read as a results database")
    assert path.read_bytes() == content
    refused(run("results", "--db", "/dev/null"), "'--db': '/dev/null': a device")


@pytest.mark.parametrize("sql,fragment", [
    ("UPDATE matches SET settings = '{{{'", "damaged settings (not a JSON object)"),
    ("UPDATE matches SET settings = '{}'", "damaged settings"),
    ("UPDATE matches SET settings = json_set(settings, '$.games', 'x')", "--games=x"),
    ("UPDATE games SET score = 'zz'", "damaged game row"),
    ("UPDATE games SET termination = 'bogus'", "damaged game row"),
    ("UPDATE games SET pair = 40", "which is not one of its 2 games"),
])
def test_damaged_rows_are_refused_by_results_and_resume(tmp_path, sql, fragment):
    db = tmp_path / "r.sqlite"
    assert run("match", "mattock", "--engine", "random", "--engine", "random", "--db", str(db),
               "--seed", "1").exit_code == 0
    connection = sqlite3.connect(db)
    connection.execute(sql)
    connection.execute("UPDATE matches SET status = 'running'")
    connection.commit()
    connection.close()
    refused(run("results", "--db", str(db)), fragment)
    refused(run("match", "--resume", "--db", str(db)), fragment)


@pytest.mark.parametrize("sql,fragment", [
    ("UPDATE games SET score = 'zz'", "damaged game row"),
    ("UPDATE matches SET settings = '{}'", "damaged settings"),
    ("UPDATE tournaments SET settings = '[]'", "damaged settings"),
])
def test_every_command_refuses_a_damaged_database_alike_saying_how_to_mend_it(tmp_path, sql,
                                                                          fragment):
    """Before, match and tournament wrote new games beside a damaged row, where results and
    ratings (which refused the file) could never show them."""
    db = tmp_path / "r.sqlite"
    assert run("tournament", "mattock", "--engine", "random", "--engine", "random:seed=2",
               "--db", str(db), "--seed", "1").exit_code == 0
    connection = sqlite3.connect(db)
    connection.execute(sql)
    connection.commit()
    connection.close()
    before = db.read_bytes()
    for args in (["results"], ["ratings"], ["ratings", "--all"],
                 ["match", "mattock", "--engine", "random", "--engine", "random"],
                 ["tournament", "mattock", "--engine", "random", "--engine", "random:seed=2"]):
        refused(run(*args, "--db", str(db)), fragment)
        refused(run(*args, "--db", str(db)), "move the file aside")
    assert db.read_bytes() == before


def test_results_does_not_create_a_database():
    refused(run("results", "--db", "/nonexistent-dir/r.sqlite"), "'--db': File "
            "'/nonexistent-dir/r.sqlite' does not exist")


def test_a_held_lock_refuses_the_match_it_holds(tmp_path):
    db = tmp_path / "r.sqlite"
    assert run("match", "mattock", "--engine", "random", "--engine", "random", "--db", str(db),
               "--seed", "1").exit_code == 0
    sqlite3.connect(db).execute("UPDATE matches SET status = 'running'").connection.commit()
    holder = subprocess.Popen([sys.executable, "-c", (
        "import sys, time; from pathlib import Path\n"
        "from crystalpick.apps.match.lock import MatchLock\n"
        f"lock = MatchLock(Path({str(db)!r}), 1)\nassert lock.acquire()\n"
        "print('held', flush=True); time.sleep(60)")], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        refused(run("match", "--resume", "--db", str(db)), "being played by another process")
        refused(run("match", "--resume", "--match-id", "1", "--db", str(db)),
                f"pid {holder.pid}")
    finally:
        holder.kill()
        holder.wait()
    resumed = run("match", "--resume", "--db", str(db))     # its owner died: free again
    assert resumed.exit_code == 0, resumed.output
    assert not MatchLock(db, 1).path.exists()


def test_deterministic_engines_never_replay_a_pair(tmp_path):
    records = tmp_path / "games.rec"
    result = run("match", "mattock", "--engine", "alphabeta:depth=2", "--engine",
                 "alphabeta:depth=1", "--games", "8", "--seed", "3", "--db",
                 str(tmp_path / "r.sqlite"), "--records", str(records))
    assert result.exit_code == 0, result.output
    assert "no --openings: 4 distinct random openings" in result.output
    from crystalpick.apps.match.records import parse_records
    games = parse_records(records.read_text())
    assert len({tuple(p.move for p in g.plies) for g in games}) == 8
    assert len({g.tags["Start"] for g in games}) == 4


def test_default_openings_are_distinct_reproducible_and_only_where_needed():
    settings = MatchSettings(game="mattock", engines=["random", "random"], games=400, seed=9)
    openings, note = default_openings(settings)
    assert len(openings) == len(set(openings)) == 200 and "seed 9" in note
    assert default_openings(settings)[0] == openings
    chance = MatchSettings(game="maatatahay", engines=["random", "random"], games=4, seed=9)
    assert default_openings(chance)[0] == []


@pytest.mark.parametrize("position", [
    "-x3/-1---1/1--1xo1/2-3--/2-1o--1-/1o-1-1--/1x2--1/1--2-/1---- o",
    "---2/1-1-2/--2x2/1-2o-x1/1-1--2o1/1-2-o-1/1--2x1/1----1/5 o"])   # mattock-end-06-01
def test_a_position_starting_with_a_dash_is_read_as_printed(position):
    for command in (["show", "mattock"], ["moves", "mattock"], ["perft", "mattock", "-d", "1"]):
        result = run(*command, *position.split())
        assert result.exit_code == 0, result.output
        assert position in result.output or command[0] == "moves"
    refused(run("show", "mattock", "--bogus"), "No such option '--bogus'")
    refused(run("show", "mattock", "--bogus=a/b"), "No such option '--bogus'")


def test_perft_prints_the_position_it_counted_and_the_seed():
    result = run("perft", "maatatahay", "--depth", "1", "--seed", "4")
    assert result.exit_code == 0
    assert "position: " in result.output and "seed: 4" in result.output


def session_output(*lines):
    out = io.StringIO()
    session = Session("mattock", out)
    for line in lines:
        assert session.handle(line)
    session.stop_search()
    return out.getvalue().splitlines()


def test_a_pasted_megabyte_is_not_echoed_back_whole():
    """Found by fuzzing: a huge position or command came back whole in the error line."""
    huge = "a" * 100_000
    result = run("show", "mattock", huge)
    refused(result, "... (")
    assert len(result.output) < 1000
    said, ready = session_output(huge, "isready")
    assert said.startswith("info string error: unknown command") and len(said) < 1000
    assert ready == "readyok"


@pytest.mark.parametrize("go,fragment", [
    ("go depth 1e400", "depth=1e400"), ("go nodes inf", "nodes=inf"),
    ("go movetime nan", "movetime=nan"), ("go depth 2.7", "depth=2.7"),
    ("go depth 999999", "depth=999999"), ("go clock nan", "clock=nan"),
    ("go clock 1000 inc -1", "inc=-1"), ("go movetime -5", "movetime=-5"),
])
def test_protocol_go_refuses_bad_limits_and_keeps_running(go, fragment):
    said = session_output(go, "go depth 1", "isready")
    assert said[0].startswith("info string error: go: ") and fragment in said[0], said
    assert any(line.startswith("bestmove ") for line in said) and "readyok" in said


def test_a_refused_rule_value_does_not_stick():
    said = session_output("setoption name rule.size value 9", "setoption name rule.removal "
                          "value literal", "newgame", "position start", "go depth 1")
    errors = [line for line in said if "error" in line]
    assert len(errors) == 1 and "size='9'" in errors[0], said
    assert said[-1].startswith("bestmove ")


def test_ctrl_c_in_perft_prints_what_was_counted_and_exits_130(tmp_path):
    """The native count reads the stop flag: it stops (not 3 hours on) and names the root
    move at work and its position."""
    outcome = interrupt(Case("perft", ["perft", "mattock", "--depth", "7", "--divide"],
                             "root moves", []), tmp_path)
    err = outcome.stderr
    assert outcome.status == 130, err[-2000:]
    assert "interrupted after" in err and "root moves" in err and "Traceback" not in err
    assert "while counting b5 (5/3x2/1o5/6o1/9/1x6/5x1/2o1-1/5 o)" in err


def test_play_says_why_the_game_ended():
    result = run("play", "mattock", "--engine", "random", "--human", "none", "--seed", "2")
    assert "game over after" in result.output and "cannot mine" in result.output
    quit_early = run("play", "mattock", "--engine", "random", "--seed", "2", stdin="quit\n")
    assert "first quit" in quit_early.output


def test_a_reader_that_stops_reading_is_not_an_error():
    """`crystalpick games | head -1`: the pipe closes before the output is written. Click
    exits 1 on that; the command ends quietly with 0, as the reader had what it wanted."""
    import subprocess
    import sys

    started = subprocess.Popen([sys.executable, "-c",
                                "from crystalpick.cli.start import main; main()", "games"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    started.stdout.close()            # before the commands are even imported
    _, said = started.communicate(timeout=120)
    assert (started.returncode, said) == (0, b"")
