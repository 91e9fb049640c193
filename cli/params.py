"""Click parameter types for numbers, built on the engine-option rules (search/options.py):
every numeric option of the command line is parsed by an :class:`Option` with its type,
finiteness and range, so ``nan``, ``inf``, ``1e400`` or an integer too large for the C
searchers is a usage error (exit 2) naming the option and the valid range, never a hang or a
traceback inside a search."""
from __future__ import annotations

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
