"""The crystalpick engine protocol (CPEP): a UCI/GTP-like line protocol on stdin/stdout.

Spec: docs/protocol.md. The session reads commands on the main thread and searches on a
worker thread, so ``stop``, ``isready`` and ``quit`` are answered during a search (any other
command waits for the search to end, as in UCI engines). ``stop`` sets the search's stop
flag, which the searchers' C loops (and MCTS worker processes) read, so ``bestmove`` with the
best move so far follows within milliseconds.
"""
from __future__ import annotations

import signal
import sys
import threading
from importlib.metadata import PackageNotFoundError, version

from crystalpick.engine import GameError, get_game
from crystalpick.search.engines import DEPTH, ENGINES, NODES, SIMS, default_engine
from crystalpick.search.options import Option, OptionError
from crystalpick.search.stop import StopFlag

from .output import shortened

MULTIPV = Option("multipv", "int", 1, "Lines reported by info.", minimum=1, maximum=64)
MILLISECONDS = 86_400_000     # a day, as for every time limit
GO_WORDS = {
    "depth": DEPTH, "nodes": NODES, "sims": SIMS,
    "movetime": Option("movetime", "float", None, "ms", minimum=0, above_minimum=True,
                       maximum=MILLISECONDS),
    "clock": Option("clock", "float", None, "ms", minimum=0, above_minimum=True,
                    maximum=MILLISECONDS),
    "inc": Option("inc", "float", 0, "ms", minimum=0, maximum=MILLISECONDS),
}


def package_version() -> str:
    try:
        return version("crystalpick")
    except PackageNotFoundError:
        return "unknown"


class Session:
    def __init__(self, game_name: str, out=None):
        self.out = out or sys.stdout
        self.game_name = game_name
        self.rules: dict[str, str] = {}
        self.tileset: str | None = None
        self.engine_options: dict = {}
        self.multipv = 1
        self.write_lock = threading.Lock()
        self.stop = StopFlag()
        self.search_thread: threading.Thread | None = None
        self.new_game()
        self.engine_name = default_engine(self.game)     # ismcts for a hidden-information game

    # -- output --------------------------------------------------------------------------
    def send(self, line: str) -> None:
        with self.write_lock:
            self.out.write(line + "\n")
            self.out.flush()

    def error(self, message: str) -> None:
        self.send(f"info string error: {shortened(message)}")

    # -- commands ------------------------------------------------------------------------
    def new_game(self, rules: dict | None = None, tileset: str | None | bool = False) -> None:
        """A new game, with changed ``rules`` or ``tileset`` if given: kept only when the
        game accepts them, so one bad value does not break every later command."""
        rules = self.rules if rules is None else rules
        tileset = self.tileset if tileset is False else tileset
        game = get_game(self.game_name, rules, tileset=tileset)
        self.state = game.new_initial_state()
        self.game, self.rules, self.tileset = game, rules, tileset
        self.engine = None            # a fresh engine: no TT or tree from an older game

    def handle(self, line: str) -> bool:
        """Execute one command line; return False on quit."""
        words = line.split()
        if not words:
            return True
        command, args = words[0], words[1:]
        if command == "quit":
            self.stop_search()
            return False
        if command == "stop":
            self.stop_search()
            return True
        if command == "isready":
            self.send("readyok")
            return True
        if self.searching():       # as in UCI engines: other commands wait for the search
            self.search_thread.join()
        handler = getattr(self, "cmd_" + command.replace("-", "_"), None)
        if handler is None:
            self.error(f"unknown command {command!r}; expected protocol, isready, setoption, "
                       f"newgame, position, go, stop, show, moves or quit")
            return True
        try:
            handler(args)
        except (GameError, ValueError) as err:
            self.error(str(err))
        return True

    def cmd_protocol(self, args) -> None:
        self.send(f"id name crystalpick {package_version()}")
        self.send(f"id game {self.game.name}")
        self.send(f"option name engine type choice default {default_engine(self.game)} values "
                  + " ".join(ENGINES))
        self.send(MULTIPV.protocol_line())
        for opt in self.game.rule_options:
            self.send(f"option name rule.{opt.name} type choice default {opt.default} values "
                      + " ".join(opt.choices))
        if self.game.uses_tileset:
            self.send("option name tileset type string default builtin")
        for name, engine in ENGINES.items():
            for option in engine.schema.options:
                self.send(option.protocol_line(name))
        self.send("protocolok")

    def cmd_setoption(self, args) -> None:
        """Engine options are checked by the engine's schema, as in an engine spec."""
        from crystalpick.search.specs import parse_spec
        text = " ".join(args)
        if not text.startswith("name ") or " value " not in text:
            raise ValueError("expected: setoption name NAME value VALUE")
        name, value = text[5:].split(" value ", 1)
        name, value = name.strip(), value.strip()
        if name == "engine":              # a name, or a whole spec such as mcts:c=1.2
            spec = parse_spec(value)
            if spec.name not in ENGINES or spec.limits:
                raise ValueError(f"engine must be {' or '.join(ENGINES)} with options only "
                                 f"(limits go to 'go'), e.g. mcts:c=1.2")
            self.engine_name, self.engine_options = spec.name, dict(spec.options)
        elif name == MULTIPV.name:
            self.multipv = MULTIPV.parse(value)
        elif name.startswith("rule."):
            self.new_game(rules={**self.rules, name[5:]: value})
        elif name == "tileset":
            self.new_game(tileset=None if value in ("builtin", "default") else value)
        else:
            field, parsed, is_limit = ENGINES[self.engine_name].schema.parse(name, value)
            if is_limit:
                raise ValueError(f"{name} is a search limit: give it to 'go'")
            self.engine_options[field] = parsed
        self.engine = None

    def cmd_newgame(self, args) -> None:
        self.new_game()

    def cmd_position(self, args) -> None:
        """``position start [moves M ...]`` or ``position NOTATION... [moves M ...]``."""
        if not args:
            raise ValueError("expected: position start|NOTATION [moves M1 M2 ...]")
        if "moves" in args:
            cut = args.index("moves")
            base, moves = args[:cut], args[cut + 1:]
        else:
            base, moves = args, []
        position = None if base == ["start"] else " ".join(base)
        self.state = self.game.state(position, moves)

    def cmd_show(self, args) -> None:
        for line in self.state.render().splitlines():
            self.send("info string " + line)

    def cmd_moves(self, args) -> None:
        if self.state.is_chance_node():
            self.send("info string chance " + " ".join(
                f"{self.state.move_to_str(m)}:{p:.6g}" for m, p in self.state.chance_outcomes()))
        else:
            self.send("info string moves " + " ".join(
                self.state.move_to_str(m) for m in self.state.legal_moves()))

    def cmd_go(self, args) -> None:
        from crystalpick.search import Limits
        limits = self.parse_go(args, Limits)
        if self.state.is_terminal():
            raise ValueError("the game is over: no move to search")
        if self.state.is_chance_node():
            raise ValueError("a chance node: play the outcome with 'position ... moves'")
        self.stop.clear()
        self.search_thread = threading.Thread(target=self.search, args=(limits,), daemon=True)
        self.search_thread.start()

    @staticmethod
    def parse_go(args, Limits):
        """Each limit read by its option (type, finiteness, range), so ``go depth 2.7`` or
        ``go movetime nan`` is an error line, never a search that cannot end."""
        fields, i = {}, 0
        clock = increment = None
        while i < len(args):
            word = args[i]
            if word == "infinite":
                fields["infinite"] = True
                i += 1
                continue
            if word not in GO_WORDS:
                raise ValueError(f"go: unknown limit {word!r}; expected depth, nodes, sims, "
                                 f"movetime MS, clock MS, inc MS or infinite")
            if i + 1 >= len(args):
                raise ValueError(f"go {word}: a number must follow")
            option = GO_WORDS[word]
            try:
                value = option.parse(args[i + 1])
            except OptionError as err:
                raise ValueError(f"go: {err}") from None
            if word == "movetime":
                fields["time"] = value / 1000
            elif word == "clock":
                clock = value / 1000
            elif word == "inc":
                increment = value / 1000
            else:
                fields[option.field] = value
            i += 2
        if clock is not None:
            fields.update(clock=clock, increment=increment or 0.0)
        if not fields:
            fields["time"] = 1.0
        return Limits(**fields)

    # -- searching -----------------------------------------------------------------------
    def searching(self) -> bool:
        return self.search_thread is not None and self.search_thread.is_alive()

    def stop_search(self) -> None:
        if self.searching():
            self.stop.set()
            self.search_thread.join()

    def search(self, limits) -> None:
        from crystalpick.search import analyse, make_engine
        # Ctrl-C must reach the main thread: a signal the kernel hands this thread would wait
        # for the main thread's next line of input before its handler ran
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
        if self.engine is None or self.engine.name != self.engine_name:
            self.engine = make_engine(self.engine_name, **self.engine_options)
        try:
            result = analyse(self.state, self.engine, limits, self.send_info,
                             multipv=self.multipv, stop=self.stop)
            self.send_info(result)
        except Exception as err:          # report, never die: the GUI keeps its engine
            self.error(f"search failed: {err}")
            return
        if limits.infinite:               # as in UCI: no bestmove before the stop, even if
            self.stop.wait()              # the search ended early (a proof, the depth cap)
        self.send(f"bestmove {result.best_move_str}")

    def send_info(self, report) -> None:
        for rank, line in enumerate(report.lines, 1):
            effort = (f"depth {report.depth} seldepth {report.seldepth}" if report.depth
                      else f"visits {line.visits}")
            self.send(f"info multipv {rank} {effort} nodes {report.nodes} nps {int(report.nps)} "
                      f"time {int(report.elapsed * 1000)} pov {report.point_of_view_name} "
                      f"score {line.score.words()} winrate {line.win_probability:.4f} "
                      f"pv {' '.join(line.pv_str)}")


def serve(game_name: str, stdin=None, stdout=None) -> None:
    session = Session(game_name, stdout)
    try:
        for line in stdin or sys.stdin:
            if not session.handle(line.strip()):
                break
    finally:                        # also on Ctrl-C: the search thread stops with us
        session.stop_search()
