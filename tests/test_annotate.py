"""``crystalpick annotate``: records from a real match annotated move by move, a proven win
thrown away marked as a blunder, the same annotations on a Dask LocalCluster as in local
processes, replay showing them, Ctrl-C keeping what is finished, and bad input."""
import json
import os
import stat
import threading

import pytest
from click.testing import CliRunner

from crystalpick.cli.main import cli
from crystalpick.engine import GAMES, get_game
from crystalpick.apps.annotate import KEYS, MARKS, mark_for
from crystalpick.search import executors
from crystalpick.apps.match.records import Ply, format_record, new_record, parse_records
from crystalpick.solvers.solved import exact_value, load_solved, view_of
from crystalpick.search.score import WIN
from search_helpers import ctrl_c_after

ENGINE = ["--engine", "alphabeta", "--nodes", "3000"]
SEARCHABLE = sorted(name for name, cls in GAMES.items() if cls.capabilities.perfect_information)
IMPERFECT = sorted(set(GAMES) - set(SEARCHABLE))


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def document(result) -> dict:
    return json.JSONDecoder().raw_decode(result.stdout[result.stdout.index("{"):])[0]


@pytest.fixture(scope="module")
def match_records(tmp_path_factory):
    """Each game's records from a real two-game match (one random player: mistakes to find)."""
    folder = tmp_path_factory.mktemp("records")
    paths = {}
    for game in GAMES:
        path = folder / f"{game}.rec"
        result = run("match", game, "--engine", "greedy", "--engine", "random", "--games", 2,
                     "--seed", 4, "--db", folder / f"{game}.sqlite", "--records", path)
        assert result.exit_code == 0, result.output
        paths[game] = path
    return paths


def movers(record) -> list[int | None]:
    """Who chose each ply (None: a chance outcome), by replaying the record."""
    state, out = record.replay(0), []
    for ply in record.plies:
        out.append(None if state.is_chance_node() else state.current_player())
        state.play(state.parse_move(ply.move))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("game", SEARCHABLE)
def test_every_decision_of_match_records_is_judged_and_chance_is_not(game, match_records,
                                                                     tmp_path):
    out = tmp_path / "annotated.rec"
    result = run("annotate", game, match_records[game], *ENGINE, "-o", out, "--json")
    assert result.exit_code == 0, result.output
    report = document(result)
    assert report["complete"] and report["point_of_view"] == "the mover's, for every move"
    original = parse_records(match_records[game].read_text())
    annotated = parse_records(out.read_text())
    assert len(annotated) == len(original) == len(report["games"]) == 2
    names = get_game(game).player_names
    chance_seen = 0
    for before, after, summary in zip(original, annotated, report["games"]):
        assert [p.move for p in after.plies] == [p.move for p in before.plies]
        assert after.replay().position() == before.replay().position()
        assert after.tags["Annotator"].startswith("alphabeta nodes=3000")
        who = movers(before)
        decisions = [i for i, mover in enumerate(who) if mover is not None]
        assert summary["decisions"] == summary["judged"] == len(decisions)
        counts = {name: [0, 0] for name in names}
        for ply, old, mover in zip(after.plies, before.plies, who):
            kept = {k: v for k, v in ply.comment.items() if k not in KEYS}
            assert kept == old.comment                       # the match's own comment stays
            if mover is None:
                chance_seen += 1
                assert not set(ply.comment) & set(KEYS)     # a draw is nobody's decision
                continue
            comment = ply.comment
            assert comment["eval_pov"] == names[mover]
            loss = float(comment["wp_loss"])
            assert 0 <= loss <= 1 and comment.get("mark") == mark_for(loss)
            assert ("best" in comment) == (loss > 0)
            counts[names[mover]][0] += 1
            counts[names[mover]][1] += comment.get("mark") == "blunder"
        for player in summary["players"]:
            assert [player["moves"], player["blunders"]] == counts[player["player"]]
        assert [m["ply"] - 1 for m in summary["moves"]] == decisions
    if GAMES[game]().capabilities.chance:
        assert chance_seen, "a game with chance played no chance event"
    random_player = report["players"]["random"]
    assert random_player["moves"] > 0
    assert sum(random_player[k] for k in ("inaccuracies", "mistakes", "blunders")) > 0


def solved_record(game: str, case, move: str) -> str:
    state = get_game(game).parse_position(case.position)
    record = new_record(state.game, state, "human", "human")
    record.plies.append(Ply(move))
    record.tags["Result"] = "*"
    return format_record(record)


def throws_the_win(state, move: str) -> bool:
    """Alpha-beta's proof that ``move`` leaves the mover without a win."""
    mover = state.current_player()
    child = state.clone()
    child.play(child.parse_move(move))
    if child.is_terminal():
        return child.returns()[mover] <= 0
    value = exact_value(child, 200_000)
    assert value is not None, "the test position is not solved within the node budget"
    return (value if view_of(child) == mover else -value).result != WIN


@pytest.mark.parametrize("game", SEARCHABLE)
def test_a_proven_win_thrown_away_is_a_blunder_and_a_winning_move_is_not(game, tmp_path):
    """Positions from seeded random games (positions/*.solved) where the mover has a forced
    win: a move that throws it away is a blunder from 'win in N' down; a winning move is
    no mistake."""
    case = load_solved(game)[3]
    state = get_game(game).parse_position(case.position)
    losing = next(state.move_to_str(m) for m in state.legal_moves()
                  if state.move_to_str(m) not in case.winning
                  and throws_the_win(state, state.move_to_str(m)))
    path = tmp_path / "solved.rec"
    path.write_text(solved_record(game, case, losing) + "\n" +
                    solved_record(game, case, case.winning[0]))
    result = run("annotate", game, path, "--nodes", 200_000, "-o", tmp_path / "out.rec")
    assert result.exit_code == 0, result.output
    thrown, kept = (record.plies[0].comment for record in
                    parse_records((tmp_path / "out.rec").read_text()))
    assert thrown["mark"] == "blunder" and float(thrown["wp_loss"]) >= MARKS[0][0]
    assert thrown["eval_before"] == f"win in {case.wins} plies"
    assert thrown["best"] in case.winning
    assert "mark" not in kept and float(kept["wp_loss"]) == 0
    assert f"1. {losing}  blunder: win in {case.wins} plies -> " in result.output


@pytest.mark.slow
def test_local_cluster_gives_the_local_pools_annotations(match_records, tmp_path):
    distributed = pytest.importorskip("distributed")
    args = ["annotate", "maatatahay", match_records["maatatahay"], *ENGINE, "--seed", 1]
    local = run(*args, "--concurrency", 2, "-o", tmp_path / "local.rec", "--json")
    assert local.exit_code == 0, local.output
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        remote = run(*args, "--cluster", cluster.scheduler_address, "-o",
                     tmp_path / "cluster.rec", "--json")
    assert remote.exit_code == 0, remote.output
    assert (tmp_path / "local.rec").read_text() == (tmp_path / "cluster.rec").read_text()
    reports = [document(result) for result in (local, remote)]
    for report in reports:
        del report["seconds"], report["positions_per_second"]
    assert reports[0] == reports[1] and reports[0]["positions"] > 0


def test_output_that_is_not_a_regular_file_is_written_not_replaced(match_records, tmp_path):
    """``-o /dev/null`` must not rename a file over the device (root could): here a pipe,
    read while annotate writes it, is still a pipe afterwards."""
    out = tmp_path / "pipe"
    os.mkfifo(out)
    read = {}
    reader = threading.Thread(target=lambda: read.setdefault("text", out.read_text()),
                              daemon=True)
    reader.start()
    result = run("annotate", "mattock", match_records["mattock"], *ENGINE, "-o", out)
    reader.join(30)
    assert result.exit_code == 0, result.output
    assert stat.S_ISFIFO(os.stat(out).st_mode) and not (tmp_path / "pipe.partial").exists()
    assert "eval_before" in parse_records(read["text"])[0].plies[0].comment


def test_replay_shows_the_annotations(match_records, tmp_path):
    out = tmp_path / "annotated.rec"
    assert run("annotate", "mattock", match_records["mattock"], *ENGINE, "-o", out).exit_code == 0
    record = parse_records(out.read_text())[0]
    ply = record.plies[0]
    shown = run("replay", out, "--ply", 1)
    assert shown.exit_code == 0, shown.output
    expected = (f"last move 1. {ply.move}  {ply.comment.get('mark', 'ok')}: "
                f"{ply.comment['eval_before']} -> {ply.comment['eval_after']} "
                f"{ply.comment['eval_unit']} for {ply.comment['eval_pov']}")
    assert expected in shown.output
    listed = run("replay", out, "--annotations").output.splitlines()
    lines = [line for line in listed if line[:1].isdigit() and ". " in line]
    assert len(lines) == len(record.plies)          # mattock: every ply is a decision
    marked = [p for p in record.plies if "mark" in p.comment]
    assert sum(" ok:" not in line for line in lines) == len(marked)
    if any("best" in p.comment for p in record.plies):
        assert "; best " in "\n".join(lines)
    plain = run("replay", match_records["mattock"], "--annotations")
    assert plain.exit_code == 2 and "is not annotated" in plain.output


def test_ctrl_c_keeps_and_reports_what_is_finished(match_records, tmp_path, monkeypatch):
    ctrl_c_after(monkeypatch, 6)
    out = tmp_path / "partial.rec"
    result = run("annotate", "mattock", match_records["mattock"], *ENGINE, "-o", out)
    assert result.exit_code == 130
    assert "interrupted: 6 of " in result.output and "totals by player" in result.output
    records = parse_records(out.read_text())
    judged = sum("eval_before" in p.comment for r in records for p in r.plies)
    assert 1 <= judged <= 5                    # six positions judge at most five moves
    assert "interrupted" in records[0].tags["Annotator"]


@pytest.mark.parametrize("args, fragment", [
    (["maatatahay", "{records}"], "record 1 of"),
    (["mattock", "{records}", "--engine", "random"], "annotate searches with alphabeta"),
    (["mattock", "{records}", "--engine", "mcts", "--depth", "3"], "--depth is not a limit"),
    (["mattock", "{bad}"], "expected a tag"),
    (["mattock", "{illegal}"], "record 1 ply 2"),
    (["mattock", "{records}", "--cluster", "nonsense"], "expected a Dask scheduler address"),
    (["mattock", "{records}", "-o", "{missing}/out.rec"], "no such folder"),
    (["mattock", "{empty}"], "holds no game records"),
])
def test_bad_input_is_one_line_exit_2_and_writes_nothing(args, fragment, match_records,
                                                         tmp_path):
    bad = tmp_path / "bad.rec"
    bad.write_text('[Game "mattock"]\n[Start "5/3x2/1o5/6o1/9/1x6/5x1/2o3/5 x"]\n\nnonsense\n')
    illegal = tmp_path / "illegal.rec"
    illegal.write_text('[Game "mattock"]\n[Start "5/3x2/1o5/6o1/9/1x6/5x1/2o3/5 x"]\n\n'
                       '1. h5/h4-h5\n2. z9\n')
    empty = tmp_path / "empty.rec"
    empty.write_text("\n")
    paths = {"records": match_records["mattock"], "bad": bad, "illegal": illegal,
             "empty": empty, "missing": tmp_path / "missing"}
    out = tmp_path / "out.rec"
    given = [a.format(**paths) for a in args]
    result = run("annotate", *given, *([] if "-o" in given else ["-o", out]))
    assert result.exit_code == 2, result.output
    assert fragment in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert not out.exists()


@pytest.mark.parametrize("game", IMPERFECT)
@pytest.mark.parametrize("engine", ["alphabeta", "mcts"])
def test_hidden_information_records_are_refused_before_any_search(game, engine, match_records,
                                                                  tmp_path, monkeypatch):
    """A perfect-information searcher would read the other hands: refused in the parent,
    one line, exit 2, no task started and nothing written."""
    def no_tasks(*args, **kwargs):
        raise AssertionError("a task was submitted")
    monkeypatch.setattr(executors.LocalPool, "submit", no_tasks)
    out = tmp_path / "out.rec"
    result = run("annotate", game, match_records[game], "--engine", engine, "--nodes", 100,
                 "-o", out)
    assert result.exit_code == 2, result.output
    assert f"{engine} cannot play {game}" in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1 and not out.exists()


def test_lichess_thresholds_on_win_probability():
    """lila's 0.1 / 0.2 / 0.3 on winning chances in [-1, 1] are 0.05 / 0.10 / 0.15 here."""
    assert [mark_for(loss) for loss in (0.0, 0.049, 0.05, 0.099, 0.1, 0.149, 0.15, 1.0)] == \
        [None, None, "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder", "blunder"]


def test_the_engines_own_move_loses_nothing_and_another_is_judged_at_one_horizon():
    """Alpha-beta verdicts of position k at depth D are compared with position k+1 at D-1;
    the engine's own best move at that depth is never marked."""
    from crystalpick.apps.annotate import Decision, Evaluation, Verdict, judge
    from crystalpick.search.score import PovScore, Value

    def verdict(units, player, best=None):
        return Verdict(PovScore(Value(units), player), best, [best] if best else [])

    before = Evaluation(0, 0, verdict(90, 0, "a"), {1: verdict(300, 0, "a"),
                                                    2: verdict(20, 0, "b")})
    after = Evaluation(0, 1, verdict(-500, 1), {1: verdict(400, 1)})   # player 1 to move
    played_b = judge(Decision(0, 0, "b"), before, after)
    assert played_b.loss == 0 and played_b.mark is None      # depth 2 preferred b itself
    played_c = judge(Decision(0, 0, "c"), before, after)
    assert (played_c.before.text(), played_c.after.text()) == ("+20.0", "-400.0")
    assert played_c.mark == "blunder" and played_c.best == "b"


def test_the_game_is_read_from_the_records_when_not_given(match_records, tmp_path):
    named = run("annotate", "mattock", match_records["mattock"], *ENGINE, "--seed", 1, "--json")
    unnamed = run("annotate", match_records["mattock"], *ENGINE, "--seed", 1, "--json")
    assert unnamed.exit_code == 0, unnamed.output
    timing = ("seconds", "positions_per_second")
    assert {k: v for k, v in document(unnamed).items() if k not in timing} == \
        {k: v for k, v in document(named).items() if k not in timing}


@pytest.mark.parametrize("args, fragment", [
    (["{missing}/none.rec"], "does not exist"),
    (["mattock", "{records}", "{records}"], "takes [GAME] RECORDS"),
    (["chess", "{records}"], "unknown game 'chess'"),
])
def test_bad_annotate_arguments_are_one_line_exit_2(args, fragment, match_records, tmp_path):
    paths = {"records": match_records["mattock"], "missing": tmp_path / "missing"}
    result = run("annotate", *[a.format(**paths) for a in args])
    assert result.exit_code == 2 and fragment in result.output, result.output
    assert len(result.output.strip().splitlines()) == 1


def test_replay_json_gives_the_position_the_move_and_the_annotations(match_records, tmp_path):
    out = tmp_path / "annotated.rec"
    assert run("annotate", match_records["mattock"], *ENGINE, "-o", out).exit_code == 0
    record = parse_records(out.read_text())[0]
    shown = json.loads(run("replay", out, "--ply", 2, "--json").output)
    state = record.replay(2)
    assert (shown["ply"], shown["plies"], shown["result"]) == (2, len(record.plies), record.result)
    assert (shown["game"], shown["position"], shown["to_move"]) == \
        ("mattock", state.position(), state.to_move_name())
    assert shown["last_move"] == {"ply": 2, "move": record.plies[1].move, "chance": False,
                                  "comment": record.plies[1].comment}
    assert "annotations" not in shown
    listed = json.loads(run("replay", out, "--json", "--annotations").output)
    assert listed["game_over"] is not None and listed["ply"] == len(record.plies)
    assert [a["move"] for a in listed["annotations"]] == [p.move for p in record.plies]
    assert listed["annotator"] == record.tags["Annotator"]
