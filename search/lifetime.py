"""Worker processes that never outlive their parent, whatever kills it (SIGKILL included):
the root-parallel searchers (``parallel.py``) and the match workers (``match/executors.py``)
both start with :func:`die_with_parent`."""
from __future__ import annotations

import ctypes
import os

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
