"""A stopping signal that lands while a worker is forked is not lost: Python drops an
exception raised inside an at-fork hook (logging's, multiprocessing's), so the CLI's
KeyboardInterrupt raised there would vanish and the command run on (the signal fuzz test
once saw `annotate --concurrency 2` end with status 1 this way). Forks made inside
``stopping_signals_held`` deliver the signal after the hooks."""
from __future__ import annotations

import subprocess
import sys

import pytest

SCRIPT = """
import os, signal, sys
from crystalpick.search.lifetime import stopping_signals_held

def stop(signum, frame):
    raise KeyboardInterrupt
signal.signal(signal.SIGINT, stop)
# the worst moment: the signal arrives inside the parent's at-fork hook
os.register_at_fork(after_in_parent=lambda: os.kill(os.getpid(), signal.SIGINT))

def fork():
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    return pid

try:
    if sys.argv[1] == "held":
        with stopping_signals_held():
            pid = fork()
    else:
        pid = fork()
    os.waitpid(pid, 0)
    print("lost")
except KeyboardInterrupt:
    print("caught")
"""


@pytest.mark.parametrize("how, said", [("held", "caught"), ("plain", "lost")])
def test_a_signal_during_a_fork_reaches_the_parent_only_when_held(how, said):
    """``plain`` shows the failure the hold prevents, so the test can tell them apart."""
    ran = subprocess.run([sys.executable, "-c", SCRIPT, how], capture_output=True, text=True,
                         timeout=60)
    assert ran.stdout.strip() == said, ran.stderr

