"""Worker processes that never outlive their parent, whatever kills it (SIGKILL included),
and whose start no signal can break: the root-parallel searchers (``parallel.py``) and the
match workers (``executors.py``) are forked inside :func:`stopping_signals_held` and start
with :func:`die_with_parent`."""
from __future__ import annotations

import ctypes
import os
import signal
from contextlib import contextmanager

STOPPING = {signal.SIGINT, signal.SIGTERM}

PR_SET_PDEATHSIG = 1       # Linux prctl(2): the signal a process gets when its parent dies


def die_with_parent(parent: int, signum: int) -> None:
    """Called in a child forked by ``parent``: the kernel sends it ``signum`` when the parent
    dies. A parent that died between the fork and the call has already made this process an
    orphan (its parent is no longer ``parent``): it exits at once. Not Linux: no such call,
    nothing done."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signum)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:
        os._exit(1)


@contextmanager
def stopping_signals_held():
    """SIGINT and SIGTERM held back from this thread while a worker is forked, and delivered
    when the block ends: a handler that raises (the CLI's KeyboardInterrupt) must not run
    inside the fork's own at-fork hooks (logging's, multiprocessing's), where Python prints
    the exception and drops it, so the signal would be lost. The child starts with them held
    too and lets them through once it has set its own handlers (:func:`release_held`)."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, STOPPING)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def release_held() -> None:
    """In a child forked inside :func:`stopping_signals_held`, once its handlers are set."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPPING)
