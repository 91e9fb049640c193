"""Where a match's games (and ``annotate``'s positions) are worked on: in local worker
processes, or on a Dask cluster.

Both executors take named tasks (a match names each game by its :class:`~.runner.GameKey`:
match, pair, colour), hand back the results as they complete, and cancel what is still
outstanding when the caller stops (an SPRT decision, Ctrl-C, an error). A task is a pure
module-level function, e.g. :func:`~crystalpick.apps.match.games.play_game`: arguments in, result out, no side
effects, so running it twice (Dask runs a task again when the worker running it dies) is
harmless; only the caller stores results, once per name. A result says which task it is
the result of (a game outcome its pair and colour), since they arrive in any order.

The Dask executor needs the ``cluster`` extra (``pip install "crystalpick[cluster]"``) and
crystalpick installed on every worker, with every ``cmd:`` engine's command on the workers'
machines: games run there, not on the machine that runs ``crystalpick match``.
"""
from __future__ import annotations

import logging
import multiprocessing
import multiprocessing.connection
import os
import signal
import time
from collections import deque

from crystalpick.engine import GameError
from .lifetime import die_with_parent, release_held, stopping_signals_held

# Seconds to wait for a scheduler to answer before saying it cannot be reached.
CONNECT_TIMEOUT = 10.0
# The schemes Dask reaches a scheduler by, as the README offers them (tls and wss take their
# certificates from Dask's configuration); ucx is gone from Dask. inproc (a scheduler in
# this process) is accepted for the tests but offered to nobody.
CLUSTER_SCHEMES = ("tcp", "tls", "ws", "wss")
INSTALL_HINT = 'pip install "crystalpick[cluster]"'


class ExecutorError(Exception):
    """The workers stopped serving the match (the Dask scheduler lost, workers that cannot
    play, a local worker process that died): the match stops with its finished games kept,
    to be resumed."""


class Executor:
    """The interface :func:`~.runner.run_matches` and :func:`crystalpick.apps.annotate.
    annotate_records` drive."""

    def describe(self) -> str | None:
        """Where the games run and how to watch them, when there is more to say than the
        progress bar."""
        return None

    def check(self, function, *args) -> None:
        """Run ``function(*args)`` once where the tasks will run, e.g. start every engine
        there (raising what it raises: EngineStartError)."""
        raise NotImplementedError

    def submit(self, name: str, function, *args) -> None:
        """Queue the task ``function(*args)``, named ``name`` (unique among the caller's
        tasks)."""
        raise NotImplementedError

    def completed(self, stop=None):
        """Yield every submitted task's result as it finishes (tasks submitted while
        iterating included); raise what a task raised. Once ``stop`` (a flag with
        ``is_set()``, e.g. a StopFlag) is set, yield no more: the caller cancels the rest
        (a task already running in the caller's own process ends first)."""
        raise NotImplementedError

    def cancel(self) -> None:
        """Drop every task not yet finished."""
        raise NotImplementedError

    def slots(self) -> int:
        """How many tasks can run at once now (at least 1), for a caller that keeps that
        many busy."""
        return 1

    def close(self) -> None:
        self.cancel()

    def __enter__(self) -> "Executor":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _leave(signum, frame):
    raise SystemExit(128 + signum)


def _start_worker(parent: int):
    """Workers leave Ctrl-C to the parent, which stops them and keeps what is finished, and
    die with it (a parent killed outright, e.g. by SIGTERM, would leave them playing on).
    SIGTERM (the parent's cancel, or its death) unwinds the task, so a game's players
    close and kill their external engines' process groups before the worker ends."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _leave)
    release_held()
    die_with_parent(parent, signal.SIGTERM)


# Seconds cancelled workers get to unwind their task (closing external engines) after
# SIGTERM, before SIGKILL ends them.
UNWIND_SECONDS = 5.0
# Seconds between checks for Ctrl-C while waiting for a result.
POLL_SECONDS = 0.05
STOPPED = object()      # what a wait returns once the caller's stop flag is set


def is_set(stop) -> bool:
    return stop is not None and stop.is_set()


class LocalWorker:
    """One forked worker process and the pipe it takes tasks and returns results on.

    A pipe per worker, rather than multiprocessing.Pool's shared queues: no lock is shared
    between processes, so a worker killed at any moment cannot leave one held (a Pool whose
    worker died holding its task-queue lock hangs at shutdown), and a worker that dies
    mid-task shows as its pipe closing instead of a result that never comes."""

    def __init__(self, inherited):
        self.connection, child = multiprocessing.Pipe()
        self.process = multiprocessing.get_context("fork").Process(
            target=_serve, args=(child, os.getpid(), [self.connection, *inherited]),
            name="crystalpick-worker", daemon=True)
        with stopping_signals_held():
            self.process.start()
        child.close()
        self.task = None                 # the name of the task it plays, None when idle

    def give(self, name: str, function, args) -> None:
        self.task = name
        self.connection.send((function, args))

    def result(self):
        """The finished task's result, or the exception it raised (a died worker's as
        :class:`ExecutorError`)."""
        try:
            ok, payload = self.connection.recv()
        except (EOFError, OSError):
            self.process.join(UNWIND_SECONDS)
            return ExecutorError(f"a worker process died while running {self.task} "
                                 f"(exit code {self.process.exitcode})")
        finally:
            self.task = None
        return payload

    def stop(self) -> None:
        """Ask the worker to unwind (SIGTERM); :meth:`end` waits for it."""
        if self.process.exitcode is None:
            self.process.terminate()

    def end(self, deadline: float) -> None:
        self.process.join(max(0.0, deadline - time.monotonic()))
        if self.process.exitcode is None:
            self.process.kill()
            self.process.join()
        self.connection.close()
        self.process.close()


def _serve(connection, parent: int, inherited) -> None:
    """A worker's loop: run each task received, send back ``(ok, result or exception)``."""
    for other in inherited:          # other workers' parent ends: theirs to close, not ours
        other.close()
    _start_worker(parent)
    while True:
        try:
            function, args = connection.recv()
        except EOFError:             # the parent closed the pipe: no more tasks
            return
        try:
            reply = (True, function(*args))
        except Exception as err:
            reply = (False, err)
        try:
            connection.send(reply)
        except Exception as err:     # a result or exception that does not pickle
            connection.send((False, ExecutorError(
                f"a task's result could not be sent back: {type(err).__name__}: {err}")))


class LocalPool(Executor):
    """``concurrency`` forked worker processes, or tasks run one after another in this
    process when it is 1 (the default: nothing to start, easiest to debug)."""

    def __init__(self, concurrency: int = 1):
        self.concurrency = concurrency
        self.workers: list[LocalWorker] = []
        self.waiting = deque()           # (name, function, args) not yet started
        self.outstanding = 0

    def check(self, function, *args) -> None:
        function(*args)

    def slots(self) -> int:
        return self.concurrency

    def submit(self, name: str, function, *args) -> None:
        self.waiting.append((name, function, args))
        self.outstanding += 1
        if self.concurrency > 1:
            self.dispatch()

    def dispatch(self) -> None:
        """Give waiting tasks to idle workers, starting workers up to ``concurrency``."""
        while self.waiting:
            idle = next((w for w in self.workers if w.task is None), None)
            if idle is None:
                if len(self.workers) == self.concurrency:
                    return
                idle = LocalWorker([w.connection for w in self.workers])
                self.workers.append(idle)
            idle.give(*self.waiting.popleft())

    def completed(self, stop=None):
        while self.outstanding and not is_set(stop):
            if self.concurrency == 1:
                name, function, args = self.waiting.popleft()
                result = function(*args)
            else:
                result = self.next_result(stop)
                if result is STOPPED:
                    return
                self.dispatch()
            self.outstanding -= 1
            if isinstance(result, BaseException):
                raise result
            yield result

    def next_result(self, stop=None):
        """A finished task's result (STOPPED once ``stop`` is set), waited for in short
        waits: Ctrl-C's handler runs only when the main thread wakes."""
        while not is_set(stop):
            busy = {w.connection: w for w in self.workers if w.task is not None}
            ready = multiprocessing.connection.wait(list(busy), timeout=POLL_SECONDS)
            if ready:
                return busy[ready[0]].result()
        return STOPPED

    def cancel(self) -> None:
        """Stop every worker: SIGTERM unwinds its task (its engines closed); one still
        running after :data:`UNWIND_SECONDS` is killed."""
        for worker in self.workers:
            worker.stop()
        deadline = time.monotonic() + UNWIND_SECONDS
        for worker in self.workers:
            worker.end(deadline)
        self.workers = []
        self.waiting.clear()
        self.outstanding = 0


class DaskCluster(Executor):
    """Every game (or position) a task on a Dask cluster (``dask scheduler`` + ``dask
    worker``).

    Tasks are submitted with their name (a game's :class:`GameKey`) as the Dask key, so a
    game is one task however often it is submitted (a resumed match on a scheduler that
    still holds the old one's tasks shares them). A worker that dies mid-game is replaced
    by the scheduler, which plays the game again elsewhere (``distributed.scheduler.
    allowed-failures`` times); a worker that joins takes queued games. Losing the scheduler cancels every future: the
    match stops with a :class:`ExecutorError`."""

    def __init__(self, address: str, timeout: float | None = None):
        try:
            from distributed import Client, as_completed
        except ImportError:
            raise GameError(f"--cluster needs Dask distributed: {INSTALL_HINT}") from None
        # Our one-line errors say what went wrong; Dask's own log lines (a traceback when
        # the scheduler is lost) would repeat it. Its handler hangs on "distributed".
        for handler in logging.getLogger("distributed").handlers:
            handler.setLevel(logging.CRITICAL + 1)
        self.address = address
        timeout = CONNECT_TIMEOUT if timeout is None else timeout
        probe_scheduler(address, timeout)
        self.client = Client(address, timeout=timeout, set_as_default=False)
        self.futures = {}
        self.as_completed = as_completed(loop=self.client.loop)
        self.cancelling = False

    def describe(self) -> str:
        """Workers, threads and the dashboard, for the user to watch the match by."""
        info = self.client.scheduler_info()
        workers = info.get("n_workers", len(info.get("workers", {})))
        text = f"Dask cluster {self.address}: workers {workers}" + \
            (" (the match waits for one to join)" if not workers else "")
        if "dashboard" in info.get("services", {}):
            text += f", dashboard {self.client.dashboard_link}"
        return text

    def check(self, function, *args) -> None:
        """Import ``function``'s module on every worker, then run it on one (waiting for a
        worker if none has joined yet): a worker without crystalpick, or without a ``cmd:``
        engine's command, fails here, before the match is stored. The import runs through
        the builtin ``exec``, which every worker can unpickle: a worker that cannot unpickle
        a task (crystalpick missing) dies instead of reporting it."""
        imported = self.client.run(exec, f"import {function.__module__}", on_error="return")
        for worker, error in imported.items():
            if isinstance(error, BaseException):
                raise ExecutorError(f"the Dask worker {worker} cannot import crystalpick "
                                   f"({one_line(error)}): install it on every worker "
                                   f"({INSTALL_HINT})")
        future = self.client.submit(function, *args, pure=False)
        self.result(future, "checking the engines")

    def slots(self) -> int:
        """The worker threads of the workers that have joined."""
        workers = self.client.scheduler_info().get("workers", {}).values()
        return max(1, sum(worker.get("nthreads", 1) for worker in workers))

    def submit(self, name: str, function, *args) -> None:
        future = self.client.submit(function, *args, key=name, pure=False)
        self.futures[name] = future
        self.as_completed.add(future)

    def completed(self, stop=None):
        while not self.as_completed.is_empty() and not is_set(stop):
            if stop is not None and not self.as_completed.has_ready():
                time.sleep(POLL_SECONDS)        # a result, or the stop flag, within a poll
                continue
            future = next(self.as_completed, None)
            if future is None:
                return
            self.futures.pop(future.key, None)
            yield self.result(future, f"task {future.key}")

    def result(self, future, task: str):
        """The task's result; its exception re-raised, except the cluster's own failures,
        which become a :class:`ExecutorError` saying what to do."""
        from distributed import KilledWorker
        try:
            return future.result()
        except ImportError as err:
            if not (err.name or "").startswith("crystalpick"):
                raise
            raise ExecutorError(f"a Dask worker cannot import crystalpick ({one_line(err)}): "
                               f"install it on every worker ({INSTALL_HINT})") from None
        except KilledWorker:
            raise ExecutorError(f"every Dask worker that ran {task} died (see the workers' "
                               f"logs: one without crystalpick dies on its first game)") from None
        except Exception:
            if future.cancelled() and not self.cancelling:
                raise ExecutorError(f"lost the Dask scheduler at {self.address}") from None
            raise

    def cancel(self) -> None:
        self.cancelling = True
        if self.futures and self.client.status == "running":
            self.client.cancel(list(self.futures.values()))
        self.futures.clear()
        self.as_completed.clear()

    def close(self) -> None:
        self.cancel()
        self.client.close(timeout=CONNECT_TIMEOUT)


def probe_scheduler(address: str, timeout: float) -> None:
    """Ask ``address`` who it is, within ``timeout``, before a Client connects: a Client
    that fails to connect lingers for its own close timeout and prints a traceback when
    collected, and it cannot tell a worker's address or another server from no answer."""
    import asyncio

    from distributed.comm import connect
    from distributed.comm.addressing import resolve_address

    async def identity():
        comm = await connect(address, timeout=timeout)
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    async def identity_in_time():
        # One deadline for all of it: connect's own timeout does not cover Dask's handshake,
        # which waits forever on a server that accepts and never answers (an HTTP server,
        # a silent listener).
        return await asyncio.wait_for(identity(), timeout)

    check_scheme(address)
    try:
        resolve_address(address)
    except ValueError as err:
        raise GameError(f"--cluster {address!r}: expected a Dask scheduler address like "
                        f"tcp://HOST:8786 ({err})") from None
    except OSError as err:
        raise GameError(f"--cluster {address}: cannot resolve the host ({err})") from None
    try:
        reply = asyncio.run(identity_in_time())
    except TimeoutError:
        raise GameError(f"--cluster {address}: no Dask scheduler answered within "
                        f"{timeout:g} s (nothing listens there, or a server that does not "
                        f"answer Dask's handshake)") from None
    except OSError as err:
        raise GameError(f"--cluster {address}: no Dask scheduler answered within "
                        f"{timeout:g} s ({one_line(err)})") from None
    except Exception:               # whatever decoding another protocol's bytes raises
        raise GameError(f"--cluster {address}: this is not a Dask scheduler (it does not "
                        f"speak Dask's protocol)") from None
    kind = reply.get("type") if isinstance(reply, dict) else None
    if kind != "Scheduler":
        raise GameError(f"--cluster {address}: this is not a Dask scheduler (it answers as "
                        f"{kind or 'something else'}; give the scheduler's address, "
                        f"tcp://HOST:8786 by default)")


def check_scheme(address: str) -> None:
    """Refuse a scheme the scheduler cannot be reached by before Dask sees it: Dask raises
    warnings (a traceback) for some of the schemes it knows but no longer serves (ucx)."""
    scheme, separator, _ = address.partition("://")
    if separator and scheme not in CLUSTER_SCHEMES + ("inproc",):
        known = ", ".join(f"{name}://" for name in CLUSTER_SCHEMES)
        raise GameError(f"--cluster {address!r}: expected a Dask scheduler address like "
                        f"tcp://HOST:8786 (unsupported scheme {scheme!r}; known: {known})")


def one_line(err: BaseException) -> str:
    text = str(err).strip().splitlines()
    return text[0] if text else type(err).__name__


def open_executor(concurrency: int, cluster: str | None) -> Executor:
    """The local pool, or the Dask cluster at ``cluster`` (connected here: a bad address
    fails before anything is stored)."""
    return DaskCluster(cluster) if cluster else LocalPool(concurrency)
