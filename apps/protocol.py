"""The crystalpick engine protocol (CPEP): a UCI/GTP-like line protocol on stdin/stdout.

Spec: docs/protocol.md. One thread reads the commands and applies each at once, in order;
a ``go`` only queues a search, which one search thread runs, in order. So the reader never
waits for a search, and ``isready`` is answered at once, during a search and behind queued
ones, after every earlier command has taken effect. The reader waits for searches only on
``stop`` and ``quit`` (and at the end of the input), after setting the stop flag that ends
them: the searchers' C loops (and MCTS worker processes) read it, so every search asked for
before answers within milliseconds. Each ``go`` is answered exactly once, by ``bestmove`` or
by one ``info string error: go: ...`` line.
"""
from __future__ import annotations

import queue
import signal
import sys
import threading
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version

from crystalpick.engine import GameError, get_game
from crystalpick.search.engines import DEPTH, ENGINES, NODES, SIMS, default_engine, make_engine
from crystalpick.search.options import Option, OptionError
from crystalpick.search.result import line_depth
from crystalpick.search.stop import StopFlag

from .messages import shortened

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


@dataclass(frozen=True)
class Search:
    """A ``go`` as it was when read: later commands change the session, never a search
    asked for before them."""
    number: int            # the session's go count: a stop ends every go up to its count
    state: object
    engine: object
    limits: object
    multipv: int


class Session:
    def __init__(self, game_name: str, out=None):
        self.out = out or sys.stdout
        self.game_name = game_name
        self.write_lock = threading.Lock()
        self.multipv = 1
        game = get_game(game_name)
        self.rules: dict[str, str] = {}
        self.tileset: str | None = None
        self.configure(game, default_engine(game), {}, new_state=True)
        self.stop = StopFlag()
        # the counts of gos asked for, stopped (every go up to it) and answered, guarded by
        # ``counts``, which the search thread notifies after each answer
        self.asked = self.stopped = self.answered = 0
        self.counts = threading.Condition()
        self.searches: queue.SimpleQueue = queue.SimpleQueue()   # Search, then None to end
        self.search_thread: threading.Thread | None = None        # started by the first go

    # -- output --------------------------------------------------------------------------
    def send(self, line: str) -> None:
        with self.write_lock:
            self.out.write(line + "\n")
            self.out.flush()

    def error(self, message: str) -> None:
        self.send(f"info string error: {shortened(message)}")

    # -- commands (all on the reading thread, each done when it returns) ------------------
    def handle(self, line: str) -> bool:
        """Apply one command line; return False on quit."""
        words = line.split()
        if not words:
            return True
        command, args = words[0], words[1:]
        if command == "quit":
            self.close()
            return False
        if command == "stop":
            self.stop_search()
            return True
        if command == "isready":
            self.send("readyok")
            return True
        handler = getattr(self, "cmd_" + command.replace("-", "_"), None)
        if handler is None:
            self.error(f"unknown command {command!r}; expected protocol, isready, setoption, "
                       f"newgame, position, go, stop, show, moves or quit")
            return True
        try:
            handler(args)
        except (GameError, ValueError) as err:
            message = str(err)
            self.error(message if message.startswith(command) else f"{command}: {message}")
        return True

    def configure(self, game, engine_name: str, engine_options: dict,
                  new_state: bool = False) -> None:
        """Take a game and an engine (a fresh one: no table or tree from before) only once
        the engine is ready to search the game, so a setoption that a go would refuse (a
        game the engine cannot play, a table that does not fit in memory) is refused here
        and changes nothing; the engine's own checks decide (Engine.prepare)."""
        state = game.new_initial_state() if new_state else self.state
        engine = make_engine(engine_name, **engine_options)
        engine.prepare(state)
        self.game, self.state, self.engine = game, state, engine
        self.engine_name, self.engine_options = engine_name, engine_options

    def new_game(self, rules: dict | None = None, tileset: str | None | bool = False) -> None:
        """A new game, with changed ``rules`` or ``tileset`` if given: kept only when the
        game and the engine accept them, so one bad value does not break later commands."""
        rules = self.rules if rules is None else rules
        tileset = self.tileset if tileset is False else tileset
        game = get_game(self.game_name, rules, tileset=tileset)
        self.configure(game, self.engine_name, self.engine_options, new_state=True)
        self.rules, self.tileset = rules, tileset
        self.say_seed()

    def say_seed(self) -> None:
        """The seed of a start drawn at random (a random setup rule), so it can be
        replayed."""
        if self.game.seed is not None:
            self.send(f"info string seed {self.game.seed}")

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
        self.say_seed()
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
            self.configure(self.game, spec.name, dict(spec.options))
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
            self.configure(self.game, self.engine_name, {**self.engine_options, field: parsed})

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
        """Queue the search, refused now if it would be refused when it runs: it searches
        the position, engine and options of this moment."""
        from crystalpick.search import Limits
        limits = self.parse_go(args, Limits)
        if self.state.is_terminal():
            raise ValueError("the game is over: no move to search")
        if self.state.is_chance_node():
            raise ValueError("a chance node: play the outcome with 'position ... moves'")
        self.engine.check_limits(limits)
        with self.counts:
            self.asked += 1
            number = self.asked
        if self.search_thread is None:
            self.search_thread = threading.Thread(target=self.run_searches, name="search",
                                                  daemon=True)
            self.search_thread.start()
        self.searches.put(Search(number, self.state, self.engine, limits, self.multipv))

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

    # -- stopping --------------------------------------------------------------------------
    def stop_search(self) -> None:
        """End every search asked for so far, the running one and the queued ones (these
        stop as soon as they start), and return once each has answered."""
        with self.counts:
            self.stopped = self.asked
            self.stop.set()
        self.wait_for_answers()

    def wait_for_answers(self) -> None:
        """Return once every search asked for so far has answered."""
        with self.counts:
            awaited = self.asked
            while self.answered < awaited:
                self.counts.wait()

    def close(self) -> None:
        """``quit`` (also the end of the input, or Ctrl-C): every search asked for answers,
        then the search thread ends, so nothing of the session outlives it."""
        self.stop_search()
        if self.search_thread is not None:
            self.searches.put(None)
            self.search_thread.join()
            self.search_thread = None

    # -- searching (on the search thread) --------------------------------------------------
    def run_searches(self) -> None:
        # Ctrl-C must reach the reading thread, whose handler sets the stop flag
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
        while (search := self.searches.get()) is not None:
            try:
                self.answer(search)
            except OSError:               # the output is gone (the GUI exited): the reader
                pass                      # sees it too; the later gos still count as answered
            finally:
                with self.counts:
                    self.answered = search.number
                    self.counts.notify_all()

    def answer(self, search: Search) -> None:
        """Run one search and send its one answer: ``bestmove``, or an error line."""
        from crystalpick.search import analyse
        with self.counts:
            if search.number > self.stopped:     # no stop has covered this go yet
                self.stop.clear()
        try:
            result = analyse(search.state, search.engine, search.limits, self.send_info,
                             multipv=search.multipv, stop=self.stop)
            self.send_info(result)
            move = result.best_move_str
        except Exception as err:          # report, never die: the GUI keeps its engine
            self.error(f"go: search failed: {err}")
            return
        if search.limits.infinite:        # as in UCI: no bestmove before the stop, even if
            self.stop.wait()              # the search ended early (a proof, the depth cap)
        self.send(f"bestmove {move}")

    def send_info(self, report) -> None:
        for rank, line in enumerate(report.lines, 1):
            depth = line_depth(line, report)      # a stopped search's lines differ (multipv.py)
            effort = (f"visits {line.visits}" if line.visits is not None
                      else f"depth {depth} seldepth {report.seldepth}")
            self.send(f"info multipv {rank} {effort} nodes {report.nodes} nps {int(report.nps)} "
                      f"time {int(report.elapsed * 1000)} pov {report.point_of_view_name} "
                      f"score {line.score.words()} winrate {line.win_probability:.4f} "
                      f"pv {' '.join(line.pv_str)}")


def serve(game_name: str, stdin=None, stdout=None) -> None:
    """Read commands until ``quit`` or the end of the input (which is a ``quit``)."""
    session = Session(game_name, stdout)
    try:
        for line in stdin or sys.stdin:
            if not session.handle(line.strip()):
                return
    finally:                        # also on Ctrl-C: the searches answer and end with us
        session.close()
