"""Matches through the real CLI: statistics out, games in the database, records that replay,
and a match killed mid-way that resumes without losing or repeating a game."""
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from crystalpick.cli.main import cli
from crystalpick.engine import GAMES, GameError, get_game
from crystalpick.search.specs import parse_spec
from crystalpick.apps.match.records import format_record, parse_records
from crystalpick.engine import sample_chance
from crystalpick.apps.match.games import play_game
from crystalpick.apps.match.settings import MatchSettings
from crystalpick.apps.match.termination import Termination


def run(*args):
    return CliRunner().invoke(cli, list(args))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_random_vs_greedy_match(tmp_path, game):
    db = tmp_path / "results.sqlite"
    records = tmp_path / "games.rec"
    result = run("match", game, "--engine", "random", "--engine", "greedy", "--games", "4",
                 "--seed", "5", "--db", str(db), "--records", str(records), "--json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.output[result.output.index("{"):])
    assert document["games"] == 4 and document["seed"] == 5
    assert document["wins"] + document["draws"] + document["losses"] == 4
    assert sum(document["pentanomial"].values()) == 2
    stored = sqlite3.connect(db).execute("SELECT COUNT(*) FROM games").fetchone()[0]
    assert stored == 4
    listed = json.loads(run("results", "--db", str(db), "--json").output)["matches"]
    assert [(m["match_id"], m["games"], m["status"]) for m in listed] == [(1, 4, "finished")]
    assert listed[0]["wins"] == document["wins"]
    parsed = parse_records(records.read_text(), str(records))
    assert len(parsed) == 4
    for record in parsed:
        final = record.replay()
        assert final.is_terminal() or "adjudicated" in record.tags["Reason"]
        assert {record.tags["First"], record.tags["Second"]} == {"random", "greedy"}


def test_same_seed_same_games(tmp_path):
    settings = MatchSettings(game="mattock", engines=["random", "greedy"], seed=9)
    def moves(outcome):
        return [ply.move for ply in parse_records(outcome.record)[0].plies]

    first = moves(play_game(settings, 0, False))
    assert moves(play_game(settings, 0, False)) == first      # comments hold times; moves not
    assert moves(play_game(settings, 0, True)) != first


def test_record_round_trip_replays_to_the_same_final_position():
    settings = MatchSettings(game="mattock", engines=["random", "random"], seed=4,
                             rules={"removal": "literal"})
    outcome = play_game(settings, 1, False)
    record, = parse_records(outcome.record)
    assert format_record(record) == outcome.record
    final = record.replay()
    assert final.position().endswith("removal=literal")
    replayed = get_game("mattock", {"removal": "literal"}).state(
        record.tags["Start"], [p.move for p in record.plies])
    assert replayed.position() == final.position()
    assert outcome.plies == len(record.plies)
    assert record.result == {1.0: "1-0", -1.0: "0-1"}[final.returns()[0]]


def test_replay_command_shows_any_ply(tmp_path):
    outcome = play_game(MatchSettings(game="mattock", engines=["random", "random"], seed=2), 0,
                        False)
    path = tmp_path / "one.rec"
    path.write_text(outcome.record)
    shown = run("replay", str(path), "--ply", "2")
    assert shown.exit_code == 0 and "ply 2 of" in shown.output
    record, = parse_records(outcome.record)
    assert f"position: {record.replay(2).position()}" in shown.output
    assert run("replay", str(path), "--ply", "999").exit_code == 2


def test_openings_file_and_sequential_order(tmp_path):
    openings = tmp_path / "openings.txt"
    openings.write_text("# two openings\nh5/h4-h5 g3\n5/3x2/1o5/6o1/9/1x6/5x1/2o3/5 o\n")
    db = tmp_path / "r.sqlite"
    result = run("match", "mattock", "--engine", "random", "--engine", "random", "--games", "4",
                 "--openings", str(openings), "--db", str(db), "--seed", "1")
    assert result.exit_code == 0, result.output
    starts = [parse_records(r)[0].tags["Start"] for (r,) in sqlite3.connect(db).execute(
        "SELECT record FROM games ORDER BY pair, swapped")]
    expected_first = get_game("mattock").state(None, "h5/h4-h5 g3").position()
    assert starts == [expected_first, expected_first,
                      "5/3x2/1o5/6o1/9/1x6/5x1/2o3/5 o", "5/3x2/1o5/6o1/9/1x6/5x1/2o3/5 o"]


def test_sprt_stops_a_lopsided_match(tmp_path):
    result = run("match", "mattock", "--engine", "greedy", "--engine", "random", "--games", "200",
                 "--sprt", "elo0=0,elo1=50,alpha=0.05,beta=0.05,model=logistic", "--seed", "3",
                 "--db", str(tmp_path / "s.sqlite"), "--json")
    document = json.loads(result.output[result.output.index("{"):])
    assert document["sprt"]["decision"] == "H1"
    assert document["games"] < 200
    assert document["sprt"]["llr"] >= document["sprt"]["upper_bound"]


@pytest.mark.parametrize("args,fragment", [
    (["--engine", "random"], "exactly two --engine"),
    (["--engine", "random", "--engine", "stockfish"], "unknown engine 'stockfish'"),
    (["--engine", "mcts:c=abc", "--engine", "random"], "c=abc: expected a finite number"),
    (["--engine", "alphabeta:c=1.4", "--engine", "random"], "alphabeta has no option 'c'"),
    (["--engine", "random", "--engine", "random", "--tc", "fast"], "expected SECONDS"),
    (["--engine", "random", "--engine", "random", "--sprt", "elo0=3,elo1=1"], "elo0 < elo1"),
])
def test_bad_match_settings_exit_2(tmp_path, args, fragment):
    result = run("match", "mattock", *args, "--db", str(tmp_path / "x.sqlite"))
    assert result.exit_code == 2 and fragment in result.output, result.output


def test_engine_specs():
    spec = parse_spec("mcts:time=0.5,c=1.4,workers=2")
    assert spec.limits == {"time": 0.5} and spec.options == {"c": 1.4, "workers": 2}
    assert parse_spec("greedy").limits == {"depth": 1}


def test_chance_outcome_drawn_by_cumulative_probability():
    class Chance:
        def chance_outcomes(self):
            return [(7, 0.25), (8, 0.5), (9, 0.25)]
    assert [sample_chance(Chance(), u) for u in (0.0, 0.24, 0.25, 0.74, 0.75, 0.999)] == \
        [7, 7, 8, 8, 9, 9]


def test_killed_match_resumes_without_losing_or_repeating_games(tmp_path, monkeypatch):
    """... also with another --concurrency than the match started with (how many games run
    at once changes no game)."""
    from crystalpick.search import executors
    pools = []
    opened = executors.open_executor
    monkeypatch.setattr(executors, "open_executor",
                        lambda concurrency, cluster: pools.append(concurrency)
                        or opened(concurrency, cluster))
    db = tmp_path / "kill.sqlite"
    command = [sys.executable, "-c", "from crystalpick.cli.main import main; main()", "match", "mattock",
               "--engine", "alphabeta:depth=2", "--engine", "random", "--games", "12",
               "--seed", "8", "--db", str(db)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    finished = 0
    while time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.05)
        if db.exists():
            try:
                finished = sqlite3.connect(db).execute("SELECT COUNT(*) FROM games").fetchone()[0]
            except sqlite3.OperationalError:
                continue
            if finished >= 3:
                break
    assert process.poll() is None, "the match ended before it could be killed"
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    before = sqlite3.connect(db).execute(
        "SELECT pair, swapped, record FROM games ORDER BY pair, swapped").fetchall()
    assert 3 <= len(before) < 12
    resumed = run("match", "--resume", "--db", str(db), "--concurrency", "2", "--json")
    assert resumed.exit_code == 0, resumed.output
    assert pools == [2]
    after = sqlite3.connect(db).execute(
        "SELECT pair, swapped, record FROM games ORDER BY pair, swapped").fetchall()
    assert [(p, s) for p, s, _ in after] == [(p, s) for p in range(6) for s in (0, 1)]
    assert set(before) <= set(after)          # finished games kept exactly as they were
    assert json.loads(resumed.output[resumed.output.index("{"):])["games"] == 12


def test_a_game_another_runner_stored_stops_the_match_and_keeps_that_game(tmp_path):
    """Two runners of one match (the lock cannot hold on some network file systems): the
    game the other one stored stays as it is and this runner stops with a GameError."""
    from crystalpick.apps.match.session import MatchSession

    with MatchSession(tmp_path / "two.sqlite") as session:
        session.plan_match(MatchSettings(game="mattock", engines=["random", "greedy"], games=4,
                                         seed=3))
        session.open(1, None)
        session.begin()
        db, state = session.db, session.states[0]
        assert db.add_game(state.match_id, 1, True, 0.5, "1/2-1/2", Termination.ADJUDICATION,
                           "the other runner", 7, "its record")
        with pytest.raises(GameError, match="pair 1 .colours swapped. was stored meanwhile"):
            session.run()
        stored = db.connection.execute("SELECT pair, swapped, reason FROM games WHERE pair = 1 "
                                       "AND swapped = 1").fetchall()
    assert stored == [(1, 1, "the other runner")]


def test_a_game_finished_twice_is_stored_and_counted_once(tmp_path):
    """An executor may hand back a game twice (a task retried after its worker was lost
    while the first result was on its way): the match stores and counts it once."""
    from crystalpick.search.executors import LocalPool
    from crystalpick.apps.match.session import MatchSession

    class Twice(LocalPool):
        def completed(self, stop=None):
            for outcome in super().completed(stop):
                yield outcome
                yield outcome

    with MatchSession(tmp_path / "twice.sqlite") as session:
        session.plan_match(MatchSettings(game="mattock", engines=["random", "greedy"], games=4,
                                         seed=3))
        session.executor = Twice()
        session.begin()
        session.run()
        state = session.states[0]
        assert [(p, s) for p, s, _, _ in session.db.games(state.match_id)] == \
            [(0, False), (0, True), (1, False), (1, True)]
    results = state.results
    assert sum(state.terminations.values()) == 4 and sum(results.pairs) == 2
    assert results.wins + results.draws + results.losses == 4


def test_workers_die_with_a_runner_killed_outright(tmp_path):
    """SIGTERM ends the runner without any clean-up of its own; its forked workers must not
    play their games on (they get SIGTERM when their parent dies; without it each would
    finish its game, here at 3 s a move, before it noticed)."""
    command = [sys.executable, "-c", "from crystalpick.cli.main import main; main()", "match",
               "mattock", "--engine", "alphabeta:time=3", "--engine", "greedy",
               "--games", "40", "--concurrency", "2", "--db", str(tmp_path / "t.sqlite")]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def workers():
        path = f"/proc/{process.pid}/task/{process.pid}/children"
        try:
            return [int(pid) for pid in open(path).read().split()]
        except FileNotFoundError:
            return []
    deadline = time.monotonic() + 60
    while len(workers()) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    started = workers()
    assert len(started) == 2, "the match did not start its two workers"
    time.sleep(0.5)                       # the workers are in their first search
    process.terminate()
    try:                                  # the runner's clean-up is bounded: it must end
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        raise AssertionError("the runner did not end within 30 s of SIGTERM") from None
    deadline = time.monotonic() + 2.5
    alive = started
    while alive and time.monotonic() < deadline:
        time.sleep(0.05)
        alive = [pid for pid in started if os.path.exists(f"/proc/{pid}")
                 and "zombie" not in open(f"/proc/{pid}/status").read()]
    assert not alive, f"workers {alive} outlived their runner"


def test_a_library_session_writes_the_records_the_command_writes(tmp_path):
    """The records file is the session's work, not the command's: a library user of
    MatchSession gets every stored game's record, equal to what `match --records` writes."""
    from crystalpick.apps.match.session import MatchSession
    from crystalpick.apps.match.settings import new_match_settings

    settings, _ = new_match_settings("mattock", ["random", "greedy"], 4, rules={}, seed=5)
    with MatchSession(tmp_path / "lib.sqlite", records=tmp_path / "lib.rec") as session:
        session.plan_match(settings)
        session.open(1, None)
        session.begin()
        session.run()
        stored = sorted(record for *_, record in session.db.connection.execute(
            "SELECT pair, swapped, record FROM games"))
    written = (tmp_path / "lib.rec").read_text()
    assert sorted(format_record(record) for record in parse_records(written, "lib.rec")) == \
        sorted(format_record(record) for text in stored for record in parse_records(text, "db"))
    assert len(stored) == 4
    command = run("match", "mattock", "--engine", "random", "--engine", "greedy", "--games", "4",
                  "--seed", "5", "--db", str(tmp_path / "cli.sqlite"), "--records",
                  str(tmp_path / "cli.rec"))
    assert command.exit_code == 0, command.output

    def games(text):      # the moves and results (the comments hold each move's time)
        return sorted((tuple(ply.move for ply in record.plies), record.tags["Result"])
                      for record in parse_records(text, "records"))
    assert games((tmp_path / "cli.rec").read_text()) == games(written)


def test_records_that_cannot_be_written_are_refused_before_the_first_game(tmp_path):
    from crystalpick.apps.match.session import MatchSession

    (tmp_path / "a-folder").mkdir()
    with MatchSession(tmp_path / "m.sqlite", records=tmp_path / "a-folder") as session:
        session.plan_match(MatchSettings(game="mattock", engines=["random", "greedy"], games=2,
                                         seed=5))
        session.open(1, None)
        with pytest.raises(GameError, match="--records .*cannot be written.*no game was played"):
            session.begin()
        assert session.db.connection.execute("SELECT COUNT(*) FROM games").fetchone() == (0,)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_records_that_fail_mid_match_stop_it_keeping_every_stored_game(tmp_path):
    """A records file that opens but cannot take a write (a full disk): the game that
    finished is stored, and the match stops in one line naming the file and how to go on."""
    from crystalpick.apps.match.session import MatchSession

    with MatchSession(tmp_path / "m.sqlite", records="/dev/full") as session:
        session.plan_match(MatchSettings(game="mattock", engines=["random", "greedy"], games=4,
                                         seed=5))
        with pytest.raises(GameError, match=r"--records /dev/full: cannot be written .*1 "
                                            r"finished games are saved.*--resume --match-id 1"):
            session.play(1, None)
        assert session.db.connection.execute("SELECT COUNT(*) FROM games").fetchone() == (1,)


def stop_after_the_first_game(tmp_path, concurrency, cluster=None):
    """A library session told to stop (its flag set from on_game, as another thread
    would) after the first stored game: what ``play`` says, the games stored, the status."""
    from crystalpick.apps.match.session import MatchSession
    from crystalpick.search.stop import StopFlag

    stop, db = StopFlag(), tmp_path / "stopped.sqlite"
    with MatchSession(db) as session:
        session.plan_match(MatchSettings(game="mattock", engines=["random", "greedy"],
                                         games=8, seed=3))
        done = session.play(concurrency, cluster, on_game=lambda *_: stop.set(), stop=stop)
        report = session.report()
    rows = sqlite3.connect(db).execute("SELECT COUNT(*) FROM games").fetchone()[0]
    status = sqlite3.connect(db).execute("SELECT status FROM matches").fetchone()[0]
    return done, rows, status, report


@pytest.mark.parametrize("concurrency", [1, 2])
def test_a_library_session_stops_at_its_flag_and_the_match_resumes(tmp_path, concurrency):
    """MatchSession.play takes a stop flag (the library installs no signal handler): once
    set, no more games are stored, the rest are cancelled, play says False and the match
    is left to resume, which plays the other seven."""
    done, rows, status, report = stop_after_the_first_game(tmp_path, concurrency)
    assert (done, rows, status, report["games"]) == (False, 1, "running", 1)
    resumed = run("match", "--resume", "--db", str(tmp_path / "stopped.sqlite"))
    assert resumed.exit_code == 0, resumed.output
    assert sqlite3.connect(tmp_path / "stopped.sqlite").execute(
        "SELECT COUNT(*) FROM games").fetchone()[0] == 8
