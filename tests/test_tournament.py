"""Tournaments through the real CLI: round-robin and gauntlet schedules, the results database
and the rating list, JSON of what was finished when stopped, and a tournament killed mid-way
that resumes without losing or repeating a game."""
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from crystalpick.cli.main import cli
from crystalpick.engine import GAMES
from crystalpick.apps.match.records import parse_records
from crystalpick.apps.match.runner import MatchState, interleaved
from crystalpick.apps.match.settings import MatchSettings
from crystalpick.apps.match.tournament import TournamentSettings

COMMAND = [sys.executable, "-c", "from crystalpick.cli.main import main; main()"]
STUB = Path(__file__).with_name("stub_engine.py")


def run(*args):
    return CliRunner().invoke(cli, list(args))


def document_of(output: str) -> dict:
    return json.loads(output[output.index("{"):])


def stored_games(db: Path) -> list[tuple]:
    """(match, pair, swapped, first mover, second mover, record) of every stored game."""
    rows = sqlite3.connect(db).execute(
        "SELECT match_id, pair, swapped, record FROM games ORDER BY match_id, pair, swapped")
    games = []
    for match_id, pair, swapped, record in rows:
        tags = parse_records(record)[0].tags
        games.append((match_id, pair, swapped, tags["First"], tags["Second"], record))
    return games


def check_schedule(db: Path, pairings: list[tuple[str, str]], pairs: int) -> None:
    """Each pairing a match of exactly ``pairs`` colour-swapped pairs; every engine moves
    first as often as second."""
    games = stored_games(db)
    played = Counter(frozenset((first, second)) for _, _, _, first, second, _ in games)
    assert played == Counter({frozenset(p): 2 * pairs for p in pairings})
    by_match = Counter((match_id, pair) for match_id, pair, *_ in games)
    assert set(by_match.values()) == {2} and len(by_match) == pairs * len(pairings)
    first = Counter(game[3] for game in games)
    second = Counter(game[4] for game in games)
    assert first == second


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(GAMES))
def test_round_robin_every_pairing_its_pairs_colours_balanced(tmp_path, game):
    """Also an external engine (cmd:) taking part like the built-in ones."""
    db = tmp_path / "rr.sqlite"
    external = f"cmd:{sys.executable} {STUB} {game} legal"
    engines = ["random", "greedy", "random:seed=9"] + ([external] if game == "mattock" else [])
    result = run("tournament", game, *[a for e in engines for a in ("--engine", e)],
                 "--games-per-pair", "2", "--rounds", "2", "--seed", "3", "--db", str(db),
                 "--json")
    assert result.exit_code == 0, result.output
    document = document_of(result.output)
    pairings = [(a, b) for i, a in enumerate(engines) for b in engines[i + 1:]]
    assert [tuple(p["engines"]) for p in document["pairings"]] == pairings
    assert document["games"] == 4 * len(pairings)
    check_schedule(db, pairings, pairs=2)
    rated = document["ratings"]
    assert sorted(r["engine"] for r in rated["ratings"]) == sorted(engines)
    assert sum(r["games"] for r in rated["ratings"]) == 2 * document["games"]
    assert rated["seed"] == 3 and rated["anchor"] == "mean"
    assert abs(sum(r["elo"] for r in rated["ratings"])) < 0.5
    # the pair k of every pairing starts from the same position (opening, setup or deal)
    starts = {}
    for match_id, pair, swapped, *_, record in stored_games(db):
        starts.setdefault(pair, set()).add(parse_records(record)[0].tags["Start"])
    assert all(len(positions) == 1 for positions in starts.values())


def test_gauntlet_plays_the_first_engine_against_each_other(tmp_path):
    db = tmp_path / "g.sqlite"
    engines = ["greedy", "random", "random:seed=5", "random:seed=6"]
    result = run("tournament", "mattock", *[a for e in engines for a in ("--engine", e)],
                 "--format", "gauntlet", "--games-per-pair", "4", "--seed", "2",
                 "--db", str(db))
    assert result.exit_code == 0, result.output
    check_schedule(db, [("greedy", other) for other in engines[1:]], pairs=2)
    assert "LOS (row stronger than column)" in result.output
    assert "greedy vs random:seed=5" in result.output
    listed = json.loads(run("results", "--db", str(db), "--json").output)
    assert [(m["tournament"], m["games"], m["status"]) for m in listed["matches"]] == \
        [(1, 4, "finished")] * 3
    assert [(t["tournament_id"], t["matches"], t["status"]) for t in listed["tournaments"]] \
        == [(1, [1, 2, 3], "finished")]
    assert "ratings --tournament 1" in run("results", "--db", str(db)).output


def test_the_schedule_interleaves_pairings_pair_by_pair():
    states = [MatchState(number, MatchSettings("mattock", pairing, games=4))
              for number, pairing in enumerate(TournamentSettings(
                  ["a", "b", "c"]).pairings(), 1)]
    states[1].add(0, False, 1.0, None)         # a resumed pairing: one game done
    order = [(state.match_id, pair, swapped) for state, pair, swapped in interleaved(states)]
    assert order == [(1, 0, False), (1, 0, True), (2, 0, True), (3, 0, False), (3, 0, True),
                     (1, 1, False), (1, 1, True), (2, 1, False), (2, 1, True), (3, 1, False),
                     (3, 1, True)]


def test_ratings_of_tournaments_and_of_every_match_together(tmp_path):
    db = str(tmp_path / "all.sqlite")
    played = run("tournament", "mattock", "--engine", "greedy", "--engine", "random",
                 "--engine", "random:seed=4", "--games-per-pair", "2", "--seed", "1",
                 "--db", db, "--json")
    assert played.exit_code == 0
    # by default 'ratings' prints the tournament's own list again, exactly
    again = document_of(run("ratings", "--db", db, "--json").output)["lists"]
    assert again == [{"title": "tournament 1: mattock", **document_of(played.output)["ratings"]}]
    assert run("match", "mattock", "--engine", "greedy", "--engine", "random", "--games", "2",
               "--seed", "2", "--db", db).exit_code == 0
    maatatahay = run("match", "maatatahay", "--engine", "greedy", "--engine", "random",
                     "--games", "2", "--seed", "2", "--db", db, "--json")
    assert maatatahay.exit_code == 0
    newest = document_of(run("ratings", "--db", db, "--seed", "5", "--json").output)["lists"]
    assert [lst["title"] for lst in newest] == ["tournament 1: mattock"]
    assert newest[0]["games"] == 6 and newest[0]["seed"] == 5
    everything = document_of(run("ratings", "--db", db, "--all", "--json", "--anchor",
                                 "random").output)["lists"]
    assert {lst["title"]: lst["games"] for lst in everything} == {"mattock": 8,
                                                                  "maatatahay": 2}
    mattock, = [lst for lst in everything if lst["title"] == "mattock"]
    two, = [lst for lst in everything if lst["title"] == "maatatahay"]   # one match's games
    assert two["los"]["greedy"]["random"] == document_of(maatatahay.output)["los"]
    assert {r["engine"]: r["games"] for r in mattock["ratings"]} == \
        {"greedy": 6, "random": 6, "random:seed=4": 4}
    assert [r["elo"] for r in mattock["ratings"] if r["engine"] == "random"] == [0]
    text = run("ratings", "--db", db, "--tournament", "1", "--seed", "5")
    assert "tournament 1: mattock" in text.output and "seed 5" in text.output
    # two engines that met no one else: a group of their own, titled as one; an anchor
    # says which groups it leaves out
    assert run("match", "mattock", "--engine", "random:seed=7", "--engine", "random:seed=8",
               "--games", "2", "--seed", "3", "--db", db).exit_code == 0
    grouped = document_of(run("ratings", "--db", db, "--all", "--json").output)
    titles = sorted(lst["title"] for lst in grouped["lists"])
    assert titles == ["maatatahay"] + [f"mattock: group {n} of 2 (these engines never met "
                                       f"those of the other groups: rated apart)"
                                       for n in (1, 2)]
    anchored = run("ratings", "--db", db, "--all", "--anchor", "random:seed=7")
    assert anchored.exit_code == 0
    assert anchored.output.count("group 2 of 2") == 1
    assert "--anchor random:seed=7 is not in 2 of the 3 lists, left out: " in anchored.output
    assert "maatatahay (engines greedy, random)" in anchored.output.splitlines()[-1]
    assert "group 1 of 2 (these engines never met those of the other groups: rated apart) " \
        "(engines greedy, random, random:seed=4)" in anchored.output.splitlines()[-1]


@pytest.mark.parametrize("args,fragment", [
    (["--engine", "random"], "at least two --engine"),
    (["--engine", "random", "--engine", "random"], "given twice"),
    (["--engine", "random", "--engine", "greedy", "--games-per-pair", "3"], "even number"),
    (["--engine", "random", "--engine", "nosuch"], "unknown engine 'nosuch'"),
    (["--engine", "random", "--engine", "greedy", "--format", "swiss"], "--format"),
])
def test_bad_tournaments_exit_2_with_one_line(tmp_path, args, fragment):
    result = run("tournament", "mattock", *args, "--db", str(tmp_path / "x.sqlite"))
    assert result.exit_code == 2 and fragment in result.output, result.output
    assert len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "x.sqlite").exists() or not sqlite3.connect(
        tmp_path / "x.sqlite").execute("SELECT COUNT(*) FROM matches").fetchone()[0]


def default_sigint():
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start(args: list[str]) -> subprocess.Popen:
    """The command in its own session, SIGINT at its default disposition (a test run in the
    background of a script ignores it, and children inherit that)."""
    return subprocess.Popen(COMMAND + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True, preexec_fn=default_sigint)


def wait_for_games(process, db: Path, count: int) -> int:
    """Wait (at most 2 minutes) until ``count`` games are stored; how many there are."""
    deadline = time.monotonic() + 120
    stored = 0
    while time.monotonic() < deadline and process.poll() is None and stored < count:
        time.sleep(0.05)
        try:
            stored = sqlite3.connect(db).execute("SELECT COUNT(*) FROM games").fetchone()[0]
        except sqlite3.OperationalError:        # not created yet, or locked for a moment
            continue
    assert process.poll() is None, "the run ended before it could be stopped"
    return stored


TOURNAMENT = ["tournament", "mattock", "--engine", "alphabeta:depth=2", "--engine", "random",
              "--engine", "greedy", "--games-per-pair", "4", "--seed", "8"]


def test_killed_tournament_resumes_without_losing_or_repeating_games(tmp_path):
    db = tmp_path / "kill.sqlite"
    process = start(TOURNAMENT + ["--db", str(db)])
    try:
        wait_for_games(process, db, 3)
        os.kill(process.pid, signal.SIGKILL)
    finally:
        if process.poll() is None:
            process.kill()
        process.communicate()
    before = stored_games(db)
    assert 3 <= len(before) < 12
    resumed = run("tournament", "--resume", "--db", str(db), "--concurrency", "2", "--json")
    assert resumed.exit_code == 0, resumed.output
    after = stored_games(db)
    assert set(before) <= set(after)          # finished games kept exactly as they were
    check_schedule(db, [("alphabeta:depth=2", "random"), ("alphabeta:depth=2", "greedy"),
                        ("random", "greedy")], pairs=2)
    assert document_of(resumed.output)["games"] == 12
    assert run("tournament", "--resume", "--db", str(db)).exit_code == 2   # nothing left


@pytest.mark.parametrize("command, stop", [
    (TOURNAMENT, signal.SIGINT),
    (TOURNAMENT, signal.SIGTERM),
    (["match", "mattock", "--engine", "alphabeta:depth=2", "--engine", "random", "--games",
      "12", "--seed", "8"], signal.SIGINT),
], ids=["tournament-ctrl-c", "tournament-sigterm", "match-ctrl-c"])
def test_json_of_what_was_finished_when_stopped(tmp_path, command, stop):
    """With --json a stopped run prints one JSON document holding every stored game."""
    db = tmp_path / "stop.sqlite"
    process = start(command + ["--db", str(db), "--json"])
    try:
        wait_for_games(process, db, 1)
        os.killpg(process.pid, stop)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    assert process.returncode == 128 + stop, err[-2000:]
    document = json.loads(out)
    assert document["interrupted"] is True
    stored = len(stored_games(db))
    assert document["games"] == stored >= 1
    assert "Traceback" not in err
    if stop == signal.SIGINT:
        assert "--resume" in err


def test_a_tournament_on_a_dask_cluster_plays_the_local_pools_games(tmp_path):
    """--cluster: every pairing's games are tasks on the cluster, the same games as local."""
    distributed = pytest.importorskip("distributed")
    import dask

    args = ["tournament", "mattock", "--engine", "greedy", "--engine", "random", "--engine",
            "random:seed=3", "--games-per-pair", "2", "--seed", "4", "--json"]
    local = run(*args, "--db", str(tmp_path / "local.sqlite"))
    with dask.config.set({"temporary-directory": str(tmp_path)}), \
            distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                     dashboard_address=None) as cluster:
        remote = run(*args, "--cluster", cluster.scheduler_address,
                     "--db", str(tmp_path / "cluster.sqlite"))
    assert local.exit_code == 0 and remote.exit_code == 0, remote.output

    def moves(db):
        return [(match_id, pair, swapped, [p.move for p in parse_records(record)[0].plies])
                for match_id, pair, swapped, *_, record in stored_games(db)]
    assert moves(tmp_path / "local.sqlite") == moves(tmp_path / "cluster.sqlite")
    assert len(moves(tmp_path / "local.sqlite")) == 6
    assert document_of(local.output)["ratings"] == document_of(remote.output)["ratings"]


def test_report_of_a_stop_between_storing_and_counting_a_game(tmp_path, monkeypatch):
    """A Ctrl-C landing just after a game is stored, before it is counted, still reports
    every stored game (the report is read back from the database)."""
    from crystalpick.apps.match.db import ResultsDB

    add_game = ResultsDB.add_game
    calls = []

    def stored_then_interrupted(self, *args):
        added = add_game(self, *args)
        calls.append(added)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return added

    monkeypatch.setattr(ResultsDB, "add_game", stored_then_interrupted)
    db = tmp_path / "race.sqlite"
    result = run(*TOURNAMENT, "--db", str(db), "--json")
    output = result.output          # the JSON document, then the one line saying where
    document, _ = json.JSONDecoder().raw_decode(output[output.index("{"):])
    assert document["interrupted"] is True
    assert document["games"] == len(stored_games(db)) == 2
