"""Signals at random times (issue 33): every long-running command of
``tests/interrupt_cases.py``, and the ones with ``--json`` in that form too, gets SIGINT (to
its process group, as Ctrl-C) or SIGTERM (to it alone, as ``kill PID``) at a random moment
from the end of its start-up (its interrupt runner installed) to well into its work. Whatever
the moment: it exits with 128 + the signal, long before its own limits would end it, prints
no traceback, its ``--json`` output is empty (nothing started yet) or exactly one JSON
document, and no process of its session is left; once it was at work it prints its partial
result (the case's ``shows``, or with ``--json`` the document). The draws are seeded and the seed is printed: ``CRYSTALPICK_FUZZ_SEED=N`` replays them,
``CRYSTALPICK_FUZZ_SCALE=N`` runs N draws per case."""
from __future__ import annotations

import json
import os
import random
import signal

import pytest

from interrupt_cases import CASES, Case, alive, run

pytestmark = pytest.mark.slow      # over a second a test: `pytest -m "not slow"` skips it

SCALE = int(os.environ.get("CRYSTALPICK_FUZZ_SCALE", "1"))
SEED = int(os.environ.get("CRYSTALPICK_FUZZ_SEED", random.SystemRandom().randrange(2**31)))
LATEST_SECONDS = 1.5      # the latest moment drawn, after the runner is installed
# A generous bound on signal to exit (a stop takes milliseconds: bench/stop_latency.py), far
# below the cases' own limits (searches of 30-60 s, perft and bench for hours, 2000 games).
STOPS_WITHIN = 20.0

# the commands whose --json form prints one document (match's: issue 33's tournament part)
JSON_FORMS = [case for case in CASES
              if case.args[0] in ("analyse", "solve", "perft", "bench", "annotate", "deck")]


def draws() -> list:
    chooser = random.Random(SEED)
    return [pytest.param(case, chooser.choice([signal.SIGINT, signal.SIGTERM]),
                         round(chooser.uniform(0.0, LATEST_SECONDS), 3), id=f"{case.name}-{draw}")
            for case in CASES + [Case(f"{case.name} --json", case.args, case.ready, [])
                                 for case in JSON_FORMS]
            for draw in range(SCALE)]


@pytest.mark.parametrize("case, signum, seconds", draws())
def test_a_signal_at_any_moment_stops_the_command_cleanly(case, signum, seconds, tmp_path):
    print(f"seed {SEED}: {signal.Signals(signum).name} {seconds} s after start-up")
    as_json = case.name.endswith("--json")
    outcome = run(case, tmp_path, work_seconds=seconds, signum=signum, at_work=False,
                  extra=("--json",) if as_json else ())
    said = outcome.stdout + outcome.stderr
    assert outcome.seconds is not None, f"{case.name} ended before the signal:\n{said[-2000:]}"
    assert outcome.status == 128 + signum, said[-2000:]
    assert outcome.seconds < STOPS_WITHIN, f"{case.name} went on {outcome.seconds:.1f} s"
    assert "Traceback" not in said, said[-2000:]
    if as_json and (outcome.at_work or outcome.stdout.strip()):
        json.loads(outcome.stdout)        # one document, whole
    elif outcome.at_work:
        for text in case.shows:
            assert text in said, f"{text!r} missing after the signal:\n{said[-2000:]}"
    assert not alive(outcome.pids), f"{case.name} left processes behind"


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["sigint", "sigterm"])
def test_a_signal_while_the_commands_load_ends_it_without_a_traceback(signum, tmp_path):
    """The moment the runner is installed the commands are still being imported (a few
    tenths of a second): a signal then ends the command with one line and its status."""
    outcome = run(CASES[0], tmp_path, work_seconds=0.0, signum=signum, at_work=False)
    said = outcome.stdout + outcome.stderr
    assert outcome.status == 128 + signum, said[-2000:]
    assert "Traceback" not in said and "interrupted" in said, said[-2000:]
