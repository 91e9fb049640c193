"""The one interrupt runner: Ctrl-C (SIGINT) and SIGTERM stop every command the same way.

:func:`install` runs first thing at start-up (``cli/start.py``, before the heavy imports),
and from then on either signal

- sets the process's stop flag (``search.stop.process_stop``, read by every search started
  without a flag of its own: a match's move, an annotated position, an engine's move in
  ``play``) from a watcher thread, so a C loop holding the GIL-free main thread stops within
  milliseconds although Python runs signal handlers only between bytecodes;
- inside :func:`stoppable` (a library call that takes a stop flag and returns what it found:
  ``analyse``, ``solve``, ``perft``, ``bench``), only sets that flag: the call returns its
  partial result and the command prints it (a second signal does not wait for it);
- elsewhere raises KeyboardInterrupt on the main thread, which the commands that own
  workers (``match``, ``annotate``, ``deck``, the engine protocol, ``play``'s prompt) already
  turn into their partial report.

Every command then exits with 128 + the signal: 130 after Ctrl-C, 143 after SIGTERM
(:func:`exit_status`), and a ``--json`` command stopped before it printed its document
prints one marked interrupted (:func:`promised_document`), start-up included. Library code
never touches signals. A process started with SIGINT ignored (a background job of a
non-interactive shell, ``nohup``) keeps it ignored.
"""
from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Callable

STOPPING = (signal.SIGINT, signal.SIGTERM)


class Runner:
    def __init__(self):
        self.signum: int | None = None     # the first stopping signal received
        self.deferring = 0                 # > 0: a stoppable call runs; do not raise
        self.handled = 0                   # signals whose Python handler has run
        self.installed = False
        self.document_printed = False      # a --json command's document is on stdout

    def install(self) -> None:
        if self.installed:
            return
        self.installed = True
        if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
            signal.signal(signal.SIGINT, self.handle)
        signal.signal(signal.SIGTERM, self.handle)
        self.start_watching()
        os.register_at_fork(after_in_child=self.forget)

    def start_watching(self) -> None:
        reader, writer = os.pipe()
        os.set_blocking(writer, False)
        signal.set_wakeup_fd(writer, warn_on_full_buffer=False)
        threading.Thread(target=self.watch, args=(reader,), name="signals", daemon=True).start()

    def watch(self, reader: int) -> None:
        """Set the stop flag the moment a signal arrives (Python's C-level handler writes its
        number here from whatever thread it interrupted). Blocking the signals here keeps
        the kernel from handing them to this thread instead of the main one."""
        signal.pthread_sigmask(signal.SIG_BLOCK, STOPPING)
        while True:
            try:
                received = os.read(reader, 64)
            except OSError:
                return
            if not received:
                return
            for signum in received:
                if signum in STOPPING:
                    self.received(signum)

    def received(self, signum: int) -> None:
        if self.signum is None:
            self.signum = signum
        stop_module = sys.modules.get("crystalpick.search.stop")
        if stop_module is not None:         # not imported yet: no search is running
            stop_module.process_stop().set()

    def handle(self, signum, frame) -> None:
        self.handled += 1                   # (the watcher may have seen this one already)
        self.received(signum)
        if not self.deferring or self.handled > 1:     # a second: leave without waiting
            raise KeyboardInterrupt

    def forget(self) -> None:
        """In a forked child (a match worker, a root-parallel searcher): the signals go back
        to their defaults for the child to set its own (a match worker unwinds on SIGTERM, a
        searcher just dies), but a signal the child handles in Python still sets the child's
        own stop flag at once (its searches read it; its parent's signals are not its own),
        so the handler runs without waiting for a search to return."""
        for signum in STOPPING:
            if signal.getsignal(signum) == self.handle:
                signal.signal(signum, signal.SIG_DFL)
        self.signum, self.deferring, self.handled = None, 0, 0
        self.start_watching()

    def stoppable(self, call):
        """``call(stop)`` with the process's stop flag, which a signal sets instead of
        raising: returns ``(what call returned, the signal or None)``."""
        from crystalpick.search.stop import process_stop
        stop = process_stop()
        self.deferring += 1
        try:
            if self.signum is not None:         # arrived before the flag was imported
                stop.set()
            return call(stop), self.signum
        finally:
            self.deferring -= 1


RUNNER = Runner()
install = RUNNER.install
stoppable = RUNNER.stoppable


def exit_status() -> int:
    """128 + the signal that stopped the command (130 for Ctrl-C, also when none was seen:
    a KeyboardInterrupt raised by other means)."""
    return 128 + (RUNNER.signum or signal.SIGINT)


def run(load_commands: Callable[[], Callable[[], None]]) -> None:
    """Install the runner, then load the commands (``load_commands()`` imports them and
    returns their runner) and run them: a Ctrl-C or SIGTERM while they load ends the
    command like any other (status 130 or 143, one line), not with a traceback from the
    middle of an import."""
    try:
        install()                   # a signal may land while it starts the watcher thread
        load_commands()()
    except KeyboardInterrupt:       # before the commands were ready to report anything
        leave(exit_status(), "Error: interrupted")
    except MemoryError:             # while they load (a command's own: cli/common.py)
        leave(2, "Error: out of memory while starting (ulimit -v, the machine's)")


def promised_document(status: int) -> None:
    """A ``--json`` command stopped by a signal before printing its document (while Python
    imports, before the first result): one document on stdout all the same, marked
    interrupted, so a program reading it always gets JSON."""
    if status - 128 not in STOPPING or RUNNER.document_printed or "--json" not in sys.argv[1:]:
        return
    RUNNER.document_printed = True
    import json                     # (here: the runner is installed before any import can wait)
    try:
        print(json.dumps({"interrupted": True, "signal": signal.Signals(status - 128).name,
                          "result": None}))
    except (OSError, ValueError):
        pass


def leave(status: int, message: str | None = None) -> None:
    """Exit now with what is printed flushed: every worker and engine is stopped by then,
    and the interpreter's teardown (numpy, the Cython modules) would take another 0.1-0.3 s
    on a loaded machine (docs/search.md, "Ctrl-C")."""
    promised_document(status)
    if message:
        try:
            print(message, file=sys.stderr)
        except (OSError, ValueError):
            pass
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(status)
