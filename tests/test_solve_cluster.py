"""Job-level proof search (solvers/jobpns.py, ``crystalpick solve --cluster``): the value the
single-machine solver proves, on small Mattock endgames; the master tree resumed from its
file; and on real ``dask scheduler`` / ``dask worker`` processes on the loopback interface,
a worker killed in the middle of a job (the job runs again elsewhere) and per-worker
throughput in the JSON document. Every process a test starts is ended by its pid."""
import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from crystalpick.cli.main import cli
from crystalpick.engine import GameError, get_game
from crystalpick.positions import parse_suite, read_text
from crystalpick.solvers.jobpns import JobLevelSolver
from crystalpick.search import executors
from crystalpick.search.executors import LocalPool
from crystalpick.search.solve import DamagedTable, Solver
from crystalpick.solvers.solved import load_solved
from crystalpick.search.stop import StopFlag
from crystalpick.search.symmetry import first_move_classes

pytestmark = pytest.mark.slow      # over a second a test: `pytest -m "not slow"` skips it

distributed = pytest.importorskip("distributed")
from cluster_helpers import (STARTUP, dask_processes, dask_scratch_space,  # noqa: E402,F401
                             free_port, wait_until)

SCHEMA = json.loads((Path(__file__).parent.parent / "docs" / "solve.schema.json").read_text())
GAME = get_game("mattock")
# Small jobs, so that even these small proofs take many jobs and a master tree of depth.
JOB_NODES = 20_000
SOLVE = [sys.executable, "-c", "from crystalpick.cli.main import main; main()", "solve",
         "mattock"]
# A worker preload: no job this worker takes ever finishes (it writes the job's name to a
# file), so the test knows the worker is in the middle of a job when it kills it.
STUCK_IN_A_JOB = '''
import threading
from pathlib import Path
import crystalpick.solvers.proof_jobs as proof_jobs


def stuck(name, job):
    Path({marker!r}).write_text(name)
    threading.Event().wait()

proof_jobs.run_job = stuck
'''


def suite_position(case_id: str) -> str:
    """A position of the endgame suite (bench/endgame_suite.py) or of the solved ones."""
    cases = [(case.id, case.position) for case in parse_suite(read_text("mattock.endgames"))]
    cases += [(case.id, case.position) for case in load_solved("mattock")]
    return next(position for name, position in cases if name == case_id)


def single_machine(position: str):
    return Solver(GAME, 16).solve(GAME.state(position))


@pytest.mark.parametrize("case_id", ["mattock-end-06-01", "mattock-end-06-02",
                                     "mattock-win-3-1", "mattock-win-5-2"])
def test_the_job_level_proof_is_the_single_machine_one(case_id):
    """Wins and losses, exact lengths, and every first move both searches settled."""
    position = suite_position(case_id)
    expected = single_machine(position)
    solution = JobLevelSolver(GAME, LocalPool(1), hash_mb=16, job_nodes=JOB_NODES).solve(
        GAME.state(position))
    assert expected.score is not None and expected.exact
    assert (solution.score, solution.exact) == (expected.score, expected.exact)
    assert len(solution.jobs) > 1 and solution.tree_nodes > 1     # the master did the work
    both = {row.move: row.status for row in expected.root_moves if row.status != "unknown"}
    ours = {row.move: row.status for row in solution.root_moves if row.move in both
            and row.status != "unknown"}
    assert ours and ours == {move: both[move] for move in ours}
    assert sum(stats.jobs for stats in solution.workers) == len(solution.jobs)
    assert sum(stats.nodes for stats in solution.workers) == solution.nodes


def test_a_second_run_continues_the_saved_tree(tmp_path):
    """(A position no other test solves: a job's table outlives it on its worker thread.)"""
    position = suite_position("mattock-end-06-08")
    tree = tmp_path / "tree.jobpns"
    first = JobLevelSolver(GAME, LocalPool(1), hash_mb=16, job_nodes=JOB_NODES)
    stopped = first.solve(GAME.state(position), nodes=1, save_path=str(tree))
    assert stopped.score is None and len(stopped.jobs) == 1     # the root's job, then the limit
    second = JobLevelSolver(GAME, LocalPool(1), hash_mb=16, job_nodes=JOB_NODES)
    assert second.load(str(tree)) == stopped.tree_nodes > 1
    solution = second.solve(GAME.state(position), save_path=str(tree))
    assert solution.loaded_entries == stopped.tree_nodes
    assert solution.jobs[0][2] != position          # the first job goes below the root
    assert solution.score == single_machine(position).score


def test_a_stop_keeps_what_is_proven_and_the_tree(tmp_path):
    """The stop flag (Ctrl-C's, set here when the third job has come back) ends the solve
    with what is known, the tree written for a later run."""
    position = suite_position("mattock-end-06-04")
    tree = tmp_path / "tree.jobpns"
    stop = StopFlag()

    def progress(report):
        reports.append(report)
        if len(reports) == 3:
            stop.set()
    reports = []
    master = JobLevelSolver(GAME, LocalPool(1), hash_mb=16, job_nodes=JOB_NODES)
    solution = master.solve(GAME.state(position), stop=stop, progress=progress,
                            save_path=str(tree))
    assert solution.interrupted and solution.score is None and len(solution.jobs) == 3
    assert reports[-1].nodes == solution.nodes
    assert JobLevelSolver(GAME, LocalPool(1)).load(str(tree)) == solution.tree_nodes > 1


def test_the_starts_symmetric_first_moves_share_one_node_each(tmp_path):
    """The start's 36 first moves are 12 classes (search/symmetry.py): after the root's job
    the master searches 12 children, the others aliases, kept so in the tree file."""
    state = GAME.new_initial_state()
    tree = tmp_path / "start.jobpns"
    master = JobLevelSolver(GAME, LocalPool(1), hash_mb=16, job_nodes=JOB_NODES)
    solution = master.solve(state, nodes=1, save_path=str(tree))
    classes = first_move_classes(state)
    root = master.trees[(state.current_player(), -1)]
    assert len(root.children) == 36 and len(root.distinct()) == len(classes) == 12
    assert {kid.move for kid in root.distinct()} == {moves[0] for moves in classes}
    assert len(solution.root_moves) == 36 and solution.move_classes == 12
    again = JobLevelSolver(GAME, LocalPool(1))
    again.load(str(tree))
    loaded = again.trees[(state.current_player(), -1)]
    assert [(kid.move, kid.alias and kid.alias.move) for kid in loaded.children] == \
        [(kid.move, kid.alias and kid.alias.move) for kid in root.children]


def test_tree_files_that_do_not_fit_are_refused(tmp_path):
    position = suite_position("mattock-end-06-01")
    tree = tmp_path / "tree.jobpns"
    JobLevelSolver(GAME, LocalPool(1), job_nodes=JOB_NODES).solve(
        GAME.state(position), nodes=1, save_path=str(tree))
    other = JobLevelSolver(GAME, LocalPool(1))
    other.load(str(tree))
    with pytest.raises(GameError, match="the proof tree of position"):
        other.solve(GAME.state(suite_position("mattock-end-06-02")))
    damaged = tmp_path / "damaged.jobpns"
    data = tree.read_bytes()
    damaged.write_bytes(data[:-2] + bytes([data[-2] ^ 1]) + data[-1:])
    with pytest.raises(DamagedTable, match="checksum"):
        JobLevelSolver(GAME, LocalPool(1)).load(str(damaged))
    table = tmp_path / "single.table"
    Solver(GAME, 1).solve(GAME.state(position), nodes=1000, save_path=str(table))
    with pytest.raises(GameError, match="not a cluster proof tree"):
        JobLevelSolver(GAME, LocalPool(1)).load(str(table))


def test_a_worker_killed_in_a_job_has_the_job_run_again(tmp_path):
    """Worker A takes the root's job and holds it; B joins, A is killed: the proof can only
    finish if the root's job runs again on B. The JSON document says who did the work."""
    position = suite_position("mattock-win-5-2")   # (a word starting "--" reads as an option)
    marker = tmp_path / "stuck-job"
    preload = tmp_path / "stuck_in_a_job.py"
    preload.write_text(STUCK_IN_A_JOB.format(marker=str(marker)))
    with dask_processes(tmp_path) as dask:
        address = dask.scheduler()
        stuck = dask.worker(address, "a", "--preload", str(preload))
        solve = subprocess.Popen([*SOLVE, *position.split(), "--cluster", address, "--job-nodes",
                                  str(JOB_NODES), "--hash", "16", "--json"],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            wait_until(lambda: marker.exists() or solve.poll() is not None, "the stuck job")
            assert solve.poll() is None, solve.communicate()
            dask.worker(address, "b")
            dask.kill(stuck)
            out, err = solve.communicate(timeout=10 * STARTUP)
        finally:
            if solve.poll() is None:
                solve.kill()
                solve.wait()
    assert solve.returncode == 0, err
    document = json.loads(out)
    jsonschema.validate(document, SCHEMA)
    assert document["result"]["score"] == single_machine(position).score.document()
    workers = document["cluster"]["workers"]
    assert [row["name"] for row in workers] == ["b"]
    assert workers[0]["jobs"] == document["cluster"]["jobs"] > 1
    assert workers[0]["nodes"] == document["result"]["nodes"] and workers[0]["nps"] > 0


def run(*args):
    return CliRunner().invoke(cli, list(args))


def test_bad_cluster_options_are_one_line(monkeypatch):
    monkeypatch.setattr(executors, "CONNECT_TIMEOUT", 1.0)
    position = suite_position("mattock-win-5-2")
    for args, fragment in (
            (["--cluster", f"tcp://127.0.0.1:{free_port()}"], "no Dask scheduler answered"),
            (["--cluster", "nonsense"], "expected a Dask scheduler address"),
            (["--job-nodes", "1000"], "--job-nodes: the size of a --cluster job")):
        result = run("solve", "mattock", *position.split(), *args)
        assert result.exit_code == 2, result.output
        assert fragment in result.output and "Traceback" not in result.output
        assert result.output.strip().count("\n") == 0, result.output
