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

``engine`` is the name of an engine of :mod:`search.engines` (``"alphabeta"``, ``"mcts"``,
``"ismcts"``, ``"dfpn"``) or an engine object (keep the object between moves of a game to
reuse its transposition table or tree); an engine refuses a game that lacks what it declares
it requires.

``stop`` is a :class:`search.stop.StopFlag`: set it from another thread (or a signal
handler's thread, or a worker process) and the search returns its best result so far within
milliseconds. Without one (a match's move, an ``annotate`` position) the search reads the
process's flag (``search.stop.process_stop``), which the CLI's interrupt runner sets on
Ctrl-C or SIGTERM.
"""
from __future__ import annotations

from crystalpick.engine.game import CHANCE, TERMINAL, GameError, State

from .engines import Engine, make_engine, not_enough_memory, refuse_for
from .limits import Limits
from .result import Analysis, Progress
from .stop import StopFlag, process_stop


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
    try:
        return engine.analyse(state, limits, progress, point_of_view, max(1, multipv),
                              process_stop() if stop is None else stop)
    except MemoryError:     # the table or tree the options ask for does not fit
        raise not_enough_memory(engine.name) from None

