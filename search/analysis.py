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

from dataclasses import dataclass

from crystalpick.engine.game import CHANCE, TERMINAL, GameError, State

from .engines import (ENGINES, Engine, default_analyser, make_engine, not_enough_memory,
                      refuse_for)
from .limits import Limits
from .result import Analysis, Progress
from .specs import EXTERNAL, SCHEMAS, EngineSpec, parse_spec
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
    point_of_view = searchable_view(state, engine.name, point_of_view)
    return run_checked(state, engine, limits, progress, point_of_view, multipv, stop)


def searchable_view(state: State, engine: str, point_of_view: int | None) -> int:
    """The checks of every analysis (whose view it is, :func:`whose_view`), after the
    engine's refusal of a game it cannot search and the state's of being searched (a
    reference implementation has no kernel): a GameError naming what is wrong."""
    refuse_for(engine, state.game)
    state.search_kernel()
    return whose_view(state, point_of_view)


def run_checked(state: State, engine: Engine, limits: Limits, progress: Progress | None,
           point_of_view: int, multipv: int = 1, stop: StopFlag | None = None) -> Analysis:
    """:func:`analyse` without its checks, for a caller that made them (a checked
    :class:`AnalysisRequest`): each check runs once a request."""
    try:
        return engine.analyse(state, limits, progress, point_of_view, max(1, multipv),
                              process_stop() if stop is None else stop)
    except MemoryError:     # the table or tree the options ask for does not fit
        raise not_enough_memory(engine.name) from None


def whose_view(state: State, point_of_view: int | None = None) -> int:
    """The player an analysis of ``state`` is from: ``point_of_view``, by default the
    viewer of a state parsed from one player's view, else the side to move (player 0 at a
    chance node)."""
    mover = state.current_player()
    if mover == TERMINAL:
        raise GameError("the game is over in this position: nothing to analyse")
    observer = state.observer       # a state parsed from one player's view
    if point_of_view is None:
        point_of_view = observer if observer is not None else 0 if mover == CHANCE else mover
    if point_of_view not in (0, 1):
        raise ValueError(f"point_of_view must be 0 or 1, got {point_of_view}")
    names = state.game.player_names
    if observer is not None and point_of_view != observer:
        raise GameError(f"this is {names[observer]}'s view: it can be analysed from "
                        f"{names[observer]}'s point of view only, not {names[point_of_view]}'s")
    return point_of_view


def refuse_waiting_seat(state: State, viewer: int) -> None:
    """A player who sees only their own view can be advised on their own decisions only: an
    information-set search from a seat that is not to move has no move to rank (its value
    alone is what ``annotate`` reads), so asking for lines from it is refused, saying whose
    decision it is and what the seat waits for (as that seat sees it)."""
    mover = state.current_player()
    if not state.game.capabilities.hidden_information or mover in (CHANCE, viewer):
        return
    names = state.game.player_names
    seen = dict.fromkeys(filter(None, (state.move_to_str_seen_by(move, viewer)
                                       for move in state.legal_moves())))
    raise GameError(f"it is {names[mover]}'s decision here, not {names[viewer]}'s: "
                    f"{names[viewer]} is waiting for {names[mover]}'s "
                    f"{or_list(seen) or 'move'} (analyse from {names[mover]}'s seat, or play "
                    f"{names[mover]}'s move first)")


def or_list(items) -> str:
    items = list(items)
    return " or ".join(filter(None, [", ".join(items[:-1]), *items[-1:]]))


# Every engine spec ``analyse`` can search with: those naming a built-in engine (``greedy``
# is alpha-beta at depth 1), in the order 'crystalpick engines' lists them.
ANALYSERS = tuple(name for name in SCHEMAS
                  if name != EXTERNAL and parse_spec(name).name in ENGINES)


def analysers_for(game) -> list[str]:
    """The specs of :data:`ANALYSERS` that can search ``game``."""
    return [name for name in ANALYSERS if ENGINES[parse_spec(name).name].accepts(game)]


@dataclass(frozen=True)
class AnalysisRequest:
    """An analysis as a command asks for it, every part checked: the state, the engine its
    spec builds, the limits and whose view it is from."""

    state: State
    spec: EngineSpec
    engine: Engine
    limits: Limits
    viewer: int
    multipv: int = 1
    seed: int | None = None       # the command's seed, echoed for an engine without one
    hands: int = 0                # the other player's likeliest private states to name

    @property
    def shown_position(self) -> str:
        """The position as the viewer knows it: never another player's hidden cards."""
        if self.state.game.capabilities.hidden_information:
            return self.state.observation_string(self.viewer)
        return self.state.position()

    def inputs(self, moves: list[str]) -> dict:
        """What was asked, echoed in the JSON document (``moves``: those played to reach the
        state)."""
        game = self.state.game
        inputs = {"game": game.name, "position": self.shown_position, "moves": moves,
                  "rules": game.rules, "engine": self.spec.name, "options": self.spec.options,
                  "limits": {k: v for k, v in vars(self.limits).items() if v not in (None, 0.0)},
                  "multipv": self.multipv, "seed": getattr(self.engine, "seed", self.seed)}
        if game.seed is not None:
            inputs["setup_seed"] = game.seed
        if game.uses_tileset:
            inputs["tileset"] = game.tileset_path or "default"
        if game.capabilities.hidden_information:
            inputs["seat"] = game.player_names[self.viewer]
        return inputs

    def run(self, progress: Progress | None = None, stop: StopFlag | None = None) -> Analysis:
        """The search, every check made when the request was (:func:`request_analysis`),
        with the range it assumed where ``hands`` asks for one (also when ``stop`` cut it
        short: the draws are few and fast)."""
        analysis = run_checked(self.state, self.engine, self.limits, progress, self.viewer,
                               self.multipv, stop)
        if self.hands:
            analysis.assumed = self.engine.assumed_range(self.state, self.viewer, self.hands)
        return analysis


def request_analysis(state: State, engine: str | None, flags: dict, *, seat: int | None = None,
                     seed: int | None = None, multipv: int = 1, hands: int = 0,
                     default: Limits = Limits(time=1.0)) -> AnalysisRequest:
    """The analysis ``crystalpick analyse`` runs, or a GameError naming the bad part.

    ``engine`` is a spec (None: the game's default engine); ``flags`` the limits given
    beside it (``depth``, ``nodes``, ``sims``, ``time``; None: not given), which override
    the spec's; ``default`` if neither sets one. ``seat`` is whose view (None: the viewer
    or the side to move); ``seed`` seeds an engine that takes a seed unless its spec does;
    ``hands``: that many of the other player's likeliest private states as the search
    assumed them (0: none).
    """
    game = state.game
    text = default_analyser(state) if engine is None else engine
    spec = parse_spec(text)
    if spec.name not in ENGINES:
        raise GameError(f"--engine {text!r}: analyse runs {or_list(ANALYSERS)}; {game.name} "
                        f"takes {or_list(analysers_for(game))}")
    viewer = searchable_view(state, spec.name, seat)
    refuse_waiting_seat(state, viewer)
    if state.is_chance_node():
        raise GameError("this position waits for a chance outcome, which is drawn, not "
                        "chosen: play one with --moves (see 'crystalpick moves' for the "
                        "outcomes and their probabilities)")
    limits = spec_limits(spec, flags, default)
    try:
        built = make_engine(spec.name, **spec.seeded(seed))
    except ValueError as err:
        raise GameError(f"engine options: {err}") from None
    return AnalysisRequest(state, spec, built, limits, viewer, multipv, seed, hands)


def spec_limits(spec: EngineSpec, flags: dict, default: Limits) -> Limits:
    """The limits of a search: the spec's (mcts:sims=500), overridden by a command's
    --time/--depth/--nodes/--sims ``flags`` (None: not given); ``default`` if neither."""
    obeyed = {limit.name: limit.field for limit in SCHEMAS[spec.name].limits}
    given = {flag: value for flag, value in flags.items() if value is not None}
    for flag in given:
        if flag not in obeyed:
            raise GameError(f"--{flag} is not a limit of {spec.name}; its limits: "
                            f"{', '.join('--' + name for name in obeyed)}")
    fields = {**spec.limits, **{obeyed[flag]: value for flag, value in given.items()}}
    return Limits(**fields) if fields else default
