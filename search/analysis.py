"""The analysis API: ``analyse(state, engine, limits)`` -> :class:`Analysis`.

This is what the CLI calls. Every score and probability in an :class:`Analysis` is from the
player named by ``point_of_view`` (default: the side to move, player 0 at a chance node, or
the viewer of a state parsed from one player's view). For ISMCTS that player is also the
observer: the search reads only what they observe.

    from crystalpick.engine import get_game
    from crystalpick.search import analyse, Limits
    state = get_game("mattock").new_initial_state()
    result = analyse(state, "alphabeta", Limits(time=1.0))
    print(result.best_move_str, result.score.text(), result.win_probability)

``engine`` is ``"alphabeta"``, ``"mcts"``, ``"ismcts"`` or an engine object from :mod:`search.engines`
(keep the object between moves of a game to reuse its transposition table or tree).

``stop`` is a :class:`search.stop.StopFlag`: set it from another thread (or a signal
handler's thread, or a worker process) and the search returns its best result so far within
milliseconds. Called on the main thread without one (a match's move, an ``annotate``
position), the search gets its own flag, which Ctrl-C sets: the KeyboardInterrupt is raised
at once instead of when the C loop next returns to Python (an alpha-beta iteration later).
"""
from __future__ import annotations

import os
import queue
import signal
import threading

from crystalpick.engine.game import CHANCE, TERMINAL, GameError, State

from .engines import Engine, make_engine, not_enough_memory, refuse_for
from .limits import Limits
from .result import Analysis, Progress
from .stop import StopFlag


def analyse(state: State, engine: str | Engine, limits: Limits,
            progress: Progress | None = None, *, point_of_view: int | None = None,
            multipv: int = 1, stop: StopFlag | None = None) -> Analysis:
    """Search ``state`` (left unchanged) within ``limits``.

    ``progress`` is called with the analysis so far after each alpha-beta iteration and
    every few thousand MCTS simulations (with ``workers > 1`` only at the end).
    ``multipv`` asks for that many lines, best first. Setting ``stop`` ends the search early
    with the best result so far; ``Limits(infinite=True)`` searches until it is set.
    """
    if isinstance(engine, str):
        engine = make_engine(engine)
    if limits.infinite and stop is None:
        raise ValueError("an infinite search needs a stop flag to end it")
    if not limits.is_bounded() and not limits.infinite:
        raise ValueError("analyse needs at least one limit (depth, nodes, simulations, "
                         "time or clock)")
    mover = state.current_player()
    if mover == TERMINAL:
        raise GameError("the game is over: nothing to analyse")
    observer = state.observer       # a state parsed from one player's view
    if point_of_view is None:
        point_of_view = observer if observer is not None else 0 if mover == CHANCE else mover
    if point_of_view not in (0, 1):
        raise ValueError(f"point_of_view must be 0 or 1, got {point_of_view}")
    if observer is not None and point_of_view != observer:
        names = state.game.player_names
        raise GameError(f"this is {names[observer]}'s view: it can be analysed from "
                        f"{names[observer]}'s point of view only, not {names[point_of_view]}'s")
    refuse_for(engine.name, state.game)
    state.search_kernel()       # a GameError for an implementation that cannot be searched
    def search(flag):
        return engine.analyse(state, limits, progress, point_of_view, max(1, multipv), flag)
    try:
        if stop is None and threading.current_thread() is threading.main_thread():
            return stopped_by_interrupt(search)
        return search(stop)
    except MemoryError:     # the table or tree the options ask for does not fit
        raise not_enough_memory(engine.name) from None


SIGNAL_POLL_SECONDS = 0.05    # see MainThreadSearches.outcome


class MainThreadSearches:
    """Searches asked for on the main thread, run on one long-lived thread while the main
    thread waits: a signal's exception (Ctrl-C's KeyboardInterrupt) is raised there at once,
    sets the flag so the search ends within milliseconds, and is raised again once it has.
    One thread and one flag serve every search (starting a thread and mapping a flag per
    search would cost more than a depth-1 search); a forked process builds its own."""

    def __init__(self):
        self.pid = None

    def start(self) -> None:
        self.pid = os.getpid()
        self.flag = StopFlag()
        self.jobs, self.results = queue.SimpleQueue(), queue.SimpleQueue()
        threading.Thread(target=self.serve, args=(self.jobs, self.results, self.flag),
                         name="search", daemon=True).start()

    @staticmethod
    def serve(jobs, results, flag) -> None:
        # signals go to the main thread, whose handlers must run (a pool worker's SIGTERM)
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
        while True:
            search = jobs.get()
            try:
                results.put((True, search(flag)))
            except BaseException as err:           # handed to the waiting thread
                results.put((False, err))

    def outcome(self):
        """The search's outcome, waited for in short waits: the handler of a signal that the
        kernel gave another thread runs only when this, the main thread, wakes."""
        while True:
            try:
                return self.results.get(timeout=SIGNAL_POLL_SECONDS)
            except queue.Empty:
                pass

    def run(self, search):
        """``search(flag)``'s result (or exception), waited for interruptibly."""
        if self.pid != os.getpid():
            self.start()
        self.flag.clear()
        self.jobs.put(search)
        try:
            done, value = self.outcome()
        except BaseException:
            self.flag.set()
            self.pid = None          # the next search starts afresh, on a new thread
            try:                     # the stopped search ends within milliseconds; its
                self.results.get(timeout=1.0)    # result may also be taken already
            except queue.Empty:
                pass
            raise
        if not done:
            raise value
        return value


stopped_by_interrupt = MainThreadSearches().run
