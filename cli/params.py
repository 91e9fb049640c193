"""Click parameter types for numbers, built on the engine-option rules (search/options.py):
every numeric option of the command line is parsed by an :class:`Option` with its type,
finiteness and range, so ``nan``, ``inf``, ``1e400`` or an integer too large for the C
searchers is a usage error (exit 2) naming the option and the valid range, never a hang or a
traceback inside a search. Every file a command writes is an :class:`OutputPath`, checked
writable before any work."""
from __future__ import annotations

import os
import stat
import tempfile

import click

from crystalpick.engine.kernel import MAX_PLIES as KERNEL_PLIES
from crystalpick.search import engines
from crystalpick.apps.match import validation as match
from crystalpick.search.options import Option, OptionError

from crystalpick.apps import protocol


class Checked(click.ParamType):
    """A number read by ``option`` (its kind, range and finiteness)."""

    def __init__(self, option: Option):
        self.option = option
        self.name = option.kind

    def convert(self, value, param, ctx):
        try:
            return self.option.parse(value) if isinstance(value, str) \
                else self.option.check(value)
        except OptionError:
            self.fail(f"{value!r}: expected {self.option.expected()}", param, ctx)

    def get_metavar(self, param, ctx=None):
        return "INTEGER" if self.option.kind == "int" else "NUMBER"


def checked(name: str, kind: str, minimum=None, maximum=None, above_minimum=False) -> Checked:
    """A checked type for an option that no schema defines (e.g. perft's depth)."""
    return Checked(Option(name, kind, None, name, minimum=minimum, maximum=maximum,
                          above_minimum=above_minimum))



DEPTH, NODES, SIMS, TIME = (Checked(o) for o in (engines.DEPTH, engines.NODES, engines.SIMS,
                                                 engines.TIME))
MULTIPV = Checked(protocol.MULTIPV)
SEED = Checked(match.SEED)
PERFT_DEPTH = checked("depth", "int", 0, KERNEL_PLIES)
# bench is a fixed, bounded workload: its overrides stay within minutes of work
BENCH_PERFT_DEPTH = checked("perft-depth", "int", 1, 10)
BENCH_DEPTH = checked("depth", "int", 1, 30)
BENCH_SIMS = checked("sims", "int", 1, 10_000_000)
SOLVE_HASH = checked("hash", "int", 1, 65536)
SOLVE_TARGET = checked("target", "float", 1e-9, 0.5)  # CFR+'s exploitability: finite, > 0
IMPROVE_STEPS = checked("improve", "int", 0, 100)     # deck: swaps searched
SWAP_OUTS = checked("outs", "int", 1, 60)             # deck: cards tried per swap
GAME_COUNT = Checked(match.GAMES)
CONCURRENCY = Checked(match.CONCURRENCY)
MOVE_TIME = Checked(match.MOVE_TIME)
TOLERANCE = Checked(match.TOLERANCE)
MAX_PLIES = Checked(match.MAX_PLIES)
MATCH_ID = Checked(match.MATCH_ID)
REPLAY_PLY = checked("ply", "int", 0, 10**6)   # a ply of a record: no kernel bounds a record
# (a card battle game, with no length bound, can pass MAX_PLIES); the record checks its length
RECORD_NUMBER = checked("game", "int", 1, 10**6)          # replay: a record of a file
HANDS = checked("hands", "int", 0, 1000)      # analyse: the other player's likeliest hands


def unwritable(path: str, what: str = "the file") -> str | None:
    """Why ``path`` cannot be written (None when it can), found without changing anything:
    an existing file or device is opened for appending, a device given an empty write
    (which /dev/full refuses), a pipe only asked; a file's folder is asked to hold a probe
    file, removed at once (files are written whole, through a file beside them)."""
    if not path:
        return f"expected a file name to write {what} to"
    if "\0" in path:
        return "a file name cannot hold a NUL character"
    if os.path.isdir(path):
        return f"a folder; expected a file to write {what} to"
    if os.path.exists(path) and stat.S_ISFIFO(os.stat(path).st_mode):
        # opened and closed, a pipe would end its reader's input before the real write
        return None if os.access(path, os.W_OK) else f"cannot write {what}: permission denied"
    if os.path.lexists(path):
        try:
            handle = os.open(path, os.O_WRONLY | os.O_APPEND)
        except OSError as err:
            return f"cannot write {what}: {err.strerror}"
        try:
            if not os.path.isfile(path):
                os.write(handle, b"")
                return None
        except OSError as err:
            return f"cannot write {what}: {err.strerror}"
        finally:
            os.close(handle)
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        return f"no such folder to write {what} in"
    try:
        handle, probe = tempfile.mkstemp(dir=folder, prefix=".crystalpick-probe-")
    except OSError as err:
        return f"cannot write {what} in {folder}: {err.strerror}"
    os.close(handle)
    os.remove(probe)
    return None


class OutputPath(click.ParamType):
    """A file a command writes (records, pictures, saves, tables, databases): checked
    writable as the options are read, before any game, search or proof starts, so no
    finished work is lost to an output that fails at the end. ``suffixes``: the endings
    the file may have (a picture's); ``read_back``: the file is also read (a table, a
    database), so a device is refused: /dev/zero would be read without end."""

    name = "file"

    def __init__(self, what: str, suffixes: tuple[str, ...] = (), read_back: bool = False):
        self.what, self.suffixes, self.read_back = what, suffixes, read_back

    def convert(self, value, param, ctx):
        problem = unwritable(value, self.what)
        if problem is None and self.read_back and os.path.exists(value) and \
                not os.path.isfile(value):
            problem = f"not a regular file; {self.what} is read back from it"
        if problem is None and self.suffixes and \
                os.path.splitext(value)[1].lower() not in self.suffixes:
            problem = f"expected a file ending in {' or '.join(self.suffixes)}"
        if problem:
            self.fail(f"{value!r}: {problem}", param, ctx)
        return value

    def get_metavar(self, param, ctx=None):
        return "FILE"


class InputPath(click.Path):
    """A file a command reads: a file or a pipe (``<(...)``), which exists unless the
    command says what a missing one means (``exists=False``). An empty name or a NUL
    character is refused here, not taken for 'none given' or raised from ``os.stat``; a
    device too (/dev/zero would be read without end)."""

    def __init__(self, exists: bool = True):
        super().__init__(exists=exists, dir_okay=False)

    def convert(self, value, param, ctx):
        if isinstance(value, str) and (not value or "\0" in value):
            self.fail(f"{value!r}: expected the name of a file to read", param, ctx)
        if isinstance(value, str) and os.path.exists(value) and \
                (stat.S_ISCHR(os.stat(value).st_mode) or stat.S_ISBLK(os.stat(value).st_mode)):
            self.fail(f"{value!r}: a device; expected a file to read", param, ctx)
        return super().convert(value, param, ctx)


class Text(click.ParamType):
    """A word or spec with no meaning when empty (an engine, an address, a deck): an empty
    value or a NUL character is refused as the option is read, never taken for 'not
    given' and the default used."""

    name = "text"

    def convert(self, value, param, ctx):
        if not value.strip() or "\0" in value:
            self.fail(f"{value!r}: expected {param.metavar or 'a value'}"
                      if param is not None else f"{value!r}: expected a value", param, ctx)
        return value


TEXT = Text()
