"""The ``crystalpick`` entry point: the interrupt runner first, the commands after.

Importing the commands (Click, the engines, numpy) takes a few tenths of a second; a Ctrl-C
or SIGTERM in that time must end the command like any other (status 130 or 143, one line),
not with a traceback from the middle of an import, so this module imports nothing heavy
before :func:`cli.interrupts.install` (``interrupts.run`` installs it, then imports them).
"""
from __future__ import annotations

from . import interrupts


def load_commands():
    from .main import run
    return run


def main() -> None:
    interrupts.run(load_commands)


if __name__ == "__main__":
    main()
