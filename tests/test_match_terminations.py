"""How match games end: every typed termination provoked by a misbehaving engine, engines
that cannot start stopping the match, the database migration from free-text reasons, and
the move history external engines receive."""
import json
import sqlite3
import sys
from dataclasses import asdict
from pathlib import Path

import pytest
from click.testing import CliRunner

from crystalpick.cli.main import cli
from crystalpick.apps.match import external
from crystalpick.apps.match.adjudication import MaxPlies
from crystalpick.apps.match.db import ResultsDB
from crystalpick.apps.match.records import GameRecord, parse_records
from crystalpick.apps.match.games import play_game
from crystalpick.apps.match.settings import MatchSettings
from crystalpick.apps.match.termination import Termination

STUB = Path(__file__).with_name("stub_engine.py")


def stub(mode, game="mattock", log=None):
    return f"cmd:{sys.executable} {STUB} {game} {mode}" + (f" {log}" if log else "")


def run(*args):
    return CliRunner().invoke(cli, list(args))


@pytest.mark.parametrize("mode,settings,termination,fragment", [
    ("illegal", {"move_time": 0.2}, Termination.ILLEGAL_MOVE, "'zz'"),
    ("crash", {"move_time": 0.2}, Termination.ENGINE_CRASH, "engine exited (status 3)"),
    ("hang", {"move_time": 0.1}, Termination.ENGINE_HANG, "no answer to isready"),
    ("late", {"move_time": 0.1}, Termination.TIME_FORFEIT, "no move within 1.1 s"),
    ("slow", {"tc": (0.2, 0.0)}, Termination.TIME_FORFEIT, "lost on time"),
])
@pytest.mark.slow
def test_a_misbehaving_engine_loses_with_its_termination(mode, settings, termination, fragment):
    outcome = play_game(MatchSettings(game="mattock", engines=[stub(mode), "random"], seed=1,
                                      **settings), 0, False)
    assert outcome.termination is termination
    assert outcome.score == 0 and fragment in outcome.reason, outcome.reason
    record, = parse_records(outcome.record)
    assert record.result == "0-1" and record.tags["Termination"] == termination.value


def test_the_engine_that_behaves_is_not_blamed():
    outcome = play_game(MatchSettings(game="mattock", engines=["random", stub("illegal")],
                                      seed=1, move_time=0.2), 0, True)
    assert outcome.termination is Termination.ILLEGAL_MOVE and outcome.score == 1.0
    assert outcome.reason.startswith("first ")      # engine 2 moved first in a swapped game


def test_rules_and_adjudication_terminations():
    finished = play_game(MatchSettings(game="mattock", engines=["random", "random"], seed=3),
                         0, False)
    assert finished.termination is Termination.NORMAL
    assert parse_records(finished.record)[0].replay().is_terminal()
    cut = play_game(MatchSettings(game="mattock", engines=["random", "random"], seed=3,
                                  max_plies=4), 0, False)
    assert cut.termination is Termination.ADJUDICATION and cut.plies == 4
    assert cut.result == "1/2-1/2"


def test_max_plies_answers_only_at_its_limit():
    record = GameRecord({"Game": "mattock"})
    record.plies = [None] * 3
    assert MaxPlies(4)(None, record) is None
    record.plies.append(None)
    end = MaxPlies(4)(None, record)
    assert end.termination is Termination.ADJUDICATION and end.returns == (0.0, 0.0)


def count_matches(db):
    if not db.exists():
        return 0
    return sqlite3.connect(db).execute("SELECT COUNT(*) FROM matches").fetchone()[0]


@pytest.mark.parametrize("engine,fragment", [
    ("cmd:/nonexistent/engine", "'/nonexistent/engine' did not start: No such file"),
    ("cmd:false", "'false' did not start: engine exited"),
    (stub("silent"), "did not start: no 'protocolok' within 0.5 s"),
    (stub("legal", game="maatatahay"), "it plays 'maatatahay', not 'mattock'"),
])
def test_an_engine_that_cannot_start_stops_the_match_before_any_game(tmp_path, monkeypatch,
                                                                    engine, fragment):
    if "silent" in engine:      # only the silent engine waits for the timeout; a loaded
        monkeypatch.setattr(external, "HANDSHAKE_SECONDS", 0.5)   # machine starts the others late
    db = tmp_path / "r.sqlite"
    result = run("match", "mattock", "--engine", engine, "--engine", "random", "--games", "20",
                 "--db", str(db))
    assert result.exit_code == 2, result.output
    assert fragment in result.output and "no game was played" in result.output
    assert len(result.output.strip().splitlines()) == 1 and "Traceback" not in result.output
    assert count_matches(db) == 0


def test_an_engine_that_stops_starting_mid_match_stops_it_resumably(tmp_path):
    db, marker = tmp_path / "r.sqlite", tmp_path / "started"
    result = run("match", "mattock", "--engine", stub("once", log=marker), "--engine", "random",
                 "--games", "6", "--db", str(db))
    assert result.exit_code == 2, result.output     # it started for the check, never again
    assert "did not start" in result.output and "--resume --match-id 1" in result.output
    connection = sqlite3.connect(db)
    assert connection.execute("SELECT status FROM matches").fetchall() == [("running",)]
    assert connection.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 0


def test_external_engine_gets_the_whole_game(tmp_path):
    log = tmp_path / "commands.log"
    settings = MatchSettings(game="mattock", engines=[stub("legal", log=log), "random"], seed=5,
                             rules={"removal": "literal"}, move_time=0.2, max_plies=6)
    outcome = play_game(settings, 0, False)
    record, = parse_records(outcome.record)
    commands = log.read_text().splitlines()
    assert "setoption name rule.removal value literal" in commands
    positions = [c for c in commands if c.startswith("position")]
    moves = [ply.move for ply in record.plies]
    assert positions == ["position start"] + [f"position start moves {' '.join(moves[:n])}"
                                              for n in (2, 4)]


def test_external_engine_gets_the_opening_and_chance_outcomes(tmp_path):
    log = tmp_path / "commands.log"
    settings = MatchSettings(game="maatatahay", engines=[stub("legal", "maatatahay", log),
                                                         stub("legal", "maatatahay")],
                             seed=2, move_time=0.2, max_plies=12)
    outcome = play_game(settings, 0, False)
    assert outcome.termination is Termination.ADJUDICATION, outcome.reason
    record, = parse_records(outcome.record)
    last = [c for c in log.read_text().splitlines() if c.startswith("position")][-1]
    start = record.tags["Start"]          # drawn from the match seed: not the engine's "start"
    assert last.startswith(f"position {start} moves ")
    sent = last[len(f"position {start} moves "):].split()
    assert sent == [ply.move for ply in record.plies[:len(sent)]]
    assert any(ply.chance for ply in record.plies[:len(sent)])


@pytest.mark.slow
def test_match_against_our_own_engine_through_the_protocol(tmp_path):
    command = " ".join([sys.executable, "-c", '"from crystalpick.cli.main import main; main()"',
                        "engine", "mattock"])
    db = tmp_path / "r.sqlite"
    result = run("match", "mattock", "--engine", f"cmd:{command}", "--engine", "random",
                 "--games", "2", "--st", "0.05", "--rule", "removal=literal", "--seed", "4",
                 "--db", str(db), "--json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.output[result.output.index("{"):])
    assert document["terminations"] == {"normal": 2}
    assert document["wins"] == 2
    for (record_text,) in sqlite3.connect(db).execute("SELECT record FROM games"):
        assert parse_records(record_text)[0].replay().is_terminal()


OLD_SCHEMA = """
CREATE TABLE matches (id INTEGER PRIMARY KEY, created REAL NOT NULL, game TEXT NOT NULL,
    settings TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'running');
CREATE TABLE games (match_id INTEGER NOT NULL REFERENCES matches(id), pair INTEGER NOT NULL,
    swapped INTEGER NOT NULL, score REAL NOT NULL, result TEXT NOT NULL, reason TEXT NOT NULL,
    plies INTEGER NOT NULL, record TEXT NOT NULL, finished REAL NOT NULL,
    PRIMARY KEY (match_id, pair, swapped));
"""
OLD_REASONS = [  # free-text reasons the runner wrote before terminations were typed
    ("draw", "normal"),
    ("second wins by the rules", "normal"),
    ("first lost on time", "time_forfeit"),
    ("adjudicated draw at 40 plies", "adjudication"),
    ("first engine failed: illegal move from the engine: illegal move 'zz'", "illegal_move"),
    ("second engine failed: engine exited (status 3) before 'bestmove'", "engine_crash"),
    ("first engine failed: no 'bestmove' within 1.2 s (engine hangs)", "engine_hang"),
    ("first engine failed: engine exited (status 1) before 'protocolok'", None),
    ("first engine failed: cannot start 'x': [Errno 2] No such file", None),
]


def test_an_old_database_is_migrated_and_resumes(tmp_path):
    db = tmp_path / "old.sqlite"
    connection = sqlite3.connect(db)
    connection.executescript(OLD_SCHEMA)
    settings = MatchSettings(game="mattock", engines=["random", "random"], seed=6,
                             games=len(OLD_REASONS) + 3)
    connection.execute("INSERT INTO matches (created, game, settings) VALUES (0, 'mattock', ?)",
                       (json.dumps(asdict(settings)),))
    tasks = [(pair, swapped) for pair in range(settings.pairs) for swapped in (0, 1)]
    for (pair, swapped), (reason, _) in zip(tasks, OLD_REASONS):
        connection.execute("INSERT INTO games VALUES (1, ?, ?, 0.5, '1/2-1/2', ?, 3, '', 0)",
                           (pair, swapped, reason))
    connection.commit()
    connection.close()

    ResultsDB(db).close()
    stored = sqlite3.connect(db).execute(
        "SELECT reason, termination FROM games ORDER BY pair, swapped").fetchall()
    assert stored == OLD_REASONS
    assert sqlite3.connect(db).execute("PRAGMA user_version").fetchone() == (1,)

    resumed = run("match", "--resume", "--db", str(db), "--json")
    assert resumed.exit_code == 0, resumed.output
    document = json.loads(resumed.output[resumed.output.index("{"):])
    assert document["games"] == settings.games
    counts = document["terminations"]
    assert counts["unknown"] == 2 and counts["engine_crash"] == 1
    assert counts["normal"] == 2 + 3 and sum(counts.values()) == settings.games
    listed = run("results", "--db", str(db))
    assert "Terminations: normal 5, adjudication 1, time forfeit 1, illegal move 1, " \
           "engine crash 1, engine hang 1, unknown 2" in listed.output, listed.output
