"""The ``crystalpick`` entry point: the interrupt runner first, the commands after.

Importing the commands (Click, the engines, numpy) takes a few tenths of a second; a Ctrl-C
or SIGTERM in that time must end the command like any other (status 130 or 143, one line),
not with a traceback from the middle of an import, so this module imports nothing heavy
before :func:`cli.interrupts.install`.
"""
from __future__ import annotations

import os
import sys

from . import interrupts


def main() -> None:
    try:
        interrupts.install()        # a signal may land while it starts the watcher thread
        from .main import run
        run()
    except KeyboardInterrupt:       # before the commands were ready to report anything
        leave(interrupts.exit_status(), "Error: interrupted")


def leave(status: int, message: str | None = None) -> None:
    """Exit now with what is printed flushed: every worker and engine is stopped by then,
    and the interpreter's teardown (numpy, the Cython modules) would take another 0.1-0.3 s
    on a loaded machine (docs/search.md, "Ctrl-C")."""
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


if __name__ == "__main__":
    main()
