"""Issue 46: a ``--json`` command stopped by Ctrl-C or SIGTERM prints one JSON document marked
interrupted, whenever the signal lands (while Python imports included), and exits 130 or 143;
the exact solver's document says how far it came."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

CRYSTALPICK = [sys.executable, "-c", "from crystalpick.cli.start import main; main()"]
COMMANDS = {
    "analyse": ["analyse", "mattock", "--time", "30"],
    "match": ["match", "mattock", "--engine", "mcts:sims=2000", "--engine", "random",
              "--games", "50"],
    "tournament": ["tournament", "mattock", "--engine", "mcts:sims=2000", "--engine", "random",
                   "--games", "50"],
    "solve": ["solve", "cardbattle", "--config", "boost-3"],
}


def runner_installed(pid: int) -> bool:
    """Whether the process handles SIGTERM yet: the interrupt runner is installed."""
    try:
        with open(f"/proc/{pid}/status") as status:
            caught = next(line for line in status if line.startswith("SigCgt:"))
    except (OSError, StopIteration):
        return False
    return bool(int(caught.split()[1], 16) & (1 << (signal.SIGTERM - 1)))


def stopped(args: list[str], delay: float, signum: int, tmp_path) -> tuple[int, str, str]:
    """``crystalpick ARGS --json`` sent ``signum`` ``delay`` seconds after its runner is
    installed (SIGINT restored to its default, as in a terminal)."""
    process = subprocess.Popen(
        [*CRYSTALPICK, *args, "--json"], cwd=tmp_path, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
        env={**os.environ, "XDG_DATA_HOME": str(tmp_path)},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        while not runner_installed(process.pid) and process.poll() is None:
            time.sleep(0.001)
        time.sleep(delay)
        process.send_signal(signum)
        out, err = process.communicate(timeout=60)
    finally:
        process.kill()
    return process.returncode, out, err


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads /proc")
@pytest.mark.parametrize("name, delay, signum", [
    ("analyse", 0.0, signal.SIGINT), ("match", 0.05, signal.SIGTERM),
    ("tournament", 0.2, signal.SIGINT), ("solve", 0.0, signal.SIGTERM),
    ("analyse", 3.0, signal.SIGTERM), ("match", 3.0, signal.SIGINT),
])
def test_a_stopped_json_command_prints_one_document(tmp_path, name, delay, signum):
    status, out, err = stopped(COMMANDS[name], delay, signum, tmp_path)
    assert status == 128 + signum, err
    assert json.loads(out)["interrupted"] is True, out
    assert "Traceback" not in err and err.strip().splitlines()[-1].startswith("Error: "), err


@pytest.mark.slow
def test_the_exact_solver_stopped_while_building_says_how_far_it_came(tmp_path):
    import jsonschema
    from pathlib import Path
    schema = json.loads((Path(__file__).parent.parent / "docs" / "exact_solve.schema.json")
                        .read_text(encoding="utf-8"))
    status, out, err = stopped(COMMANDS["solve"], 3.0, signal.SIGINT, tmp_path)
    assert status == 130, err
    document = json.loads(out)
    jsonschema.validate(document, schema)
    assert document["interrupted"] is True and document["result"] is None
    assert document["stopped"]["phase"] == "building the tree", document
