"""Root parallelism's processes: ``run_in_workers`` runs searches (any no-argument callables)
in worker processes of their own, all at once (threads cannot help under the GIL), and
returns what they returned. The engines choose the searches (MCTS seeds its trees seed,
seed+1, ...; ISMCTS draws theirs from its search's seed) and sum their root statistics
(search/engines/roots.py); this module knows no engine.

Workers are forked with ``os.fork`` (not ``multiprocessing.Process``, whose start-up closes
``sys.stdin``: that waits forever for the lock of the engine protocol's main thread, which
is reading stdin), so they inherit the position and the caller's stop flag (shared memory:
setting it in the parent stops every worker within a few simulations), and send their root
statistics back through a pipe. They ignore Ctrl-C: the parent turns it into the stop flag.
They die with the parent whatever kills it (SIGKILL included: ``lifetime.py``), so no
worker searches on at full speed for nobody.
"""
from __future__ import annotations

import os
import signal
from multiprocessing.connection import Connection

from .lifetime import die_with_parent, release_held, stopping_signals_held


def run_in_workers(searches, stop=None) -> list:
    """Run each of ``searches`` (no-argument callables) in a worker process of its own, all
    at once; return what they returned, in order. Once ``stop`` (the searches' stop flag) is
    set no more are started (forking 256 workers takes seconds on a loaded machine, and the
    ones running compete with it): what the first ones found is returned."""
    workers = []
    try:
        for search in searches:
            if workers and stop is not None and stop.is_set():
                break
            workers.append(fork(search))
        return [receive(receiver) for _, receiver in workers]
    finally:
        for pid, _ in workers:
            end(pid)


def fork(search) -> tuple[int, Connection]:
    """Start a process that runs ``search()`` and sends ``(True, result)`` or
    ``(False, error text)``; return its pid and the receiving end of its pipe."""
    reader, writer = os.pipe()
    parent = os.getpid()
    with stopping_signals_held():     # held in the child until it ignores SIGINT
        pid = os.fork()
        if pid == 0:
            status = 1
            try:
                die_with_parent(parent, signal.SIGKILL)
                signal.signal(signal.SIGINT, signal.SIG_IGN)
                release_held()
                os.close(reader)
                with Connection(writer, readable=False) as sender:
                    try:
                        sender.send((True, search()))
                    except Exception as err:
                        sender.send((False, f"{type(err).__name__}: {err}"))
                status = 0
            finally:
                os._exit(status)      # no atexit handlers, no flushing the parent's buffers
    os.close(writer)
    return pid, Connection(reader, writable=False)


def receive(receiver: Connection) -> dict:
    try:
        ok, payload = receiver.recv()
    except EOFError:
        raise RuntimeError("a search worker process died before reporting") from None
    finally:
        receiver.close()
    if not ok:
        raise RuntimeError(f"a search worker failed: {payload}")
    return payload


def end(pid: int) -> None:
    """Reap a worker (one that has not reported, after an error elsewhere, is killed)."""
    if os.waitpid(pid, os.WNOHANG) == (0, 0):
        os.kill(pid, signal.SIGTERM)
        os.waitpid(pid, 0)

