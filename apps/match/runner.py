"""Run matches: every pending game of every match submitted to an executor (local worker
processes or a Dask cluster, :mod:`crystalpick.search.executors`), interleaved pair by pair,
each stored in the results database the moment it finishes. The statistics and the SPRT are
updated in the parent process, the only one that writes the database.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, fields

from crystalpick.engine import GameError, get_game
from crystalpick.search.seeds import derive_seed
from crystalpick.search.specs import parse_spec

from .games import GameOutcome, play_game
from .openings import opening_for, opening_state
from .players import make_player
from .settings import MatchSettings
from .stats import SPRT, Results
from .termination import Termination


@dataclass(frozen=True)
class GameKey:
    """One game task of one match. ``match`` is a token unique to the match and its
    database (:func:`match_token`), so two matches on one cluster never share a task;
    ``str(key)`` names the task on a Dask cluster."""

    match: str
    pair: int
    swapped: bool

    def __str__(self) -> str:
        colour = "swapped" if self.swapped else "first"
        return f"crystalpick-game-{self.match}-{self.pair}-{colour}"


@dataclass
class MatchState:
    match_id: int
    settings: MatchSettings
    results: Results = field(default_factory=Results)
    finished: dict = field(default_factory=dict)    # (pair, swapped) -> engine-1 score
    decision: str | None = None
    terminations: Counter = field(default_factory=Counter)  # Termination (None: unknown) -> games

    def add(self, pair: int, swapped: bool, score: float,
            termination: Termination | None) -> None:
        self.finished[pair, swapped] = score
        self.terminations[termination] += 1
        other = self.finished.get((pair, not swapped))
        if other is None:
            return
        first, second = (score, other) if not swapped else (other, score)
        self.results.add_pair(first, second)

    def pending(self) -> list[tuple[int, bool]]:
        tasks = [(pair, swapped) for pair in range(self.settings.pairs)
                 for swapped in (False, True)][: self.settings.games]
        return [t for t in tasks if t not in self.finished]

    @property
    def sprt(self) -> SPRT | None:
        return SPRT.parse(self.settings.sprt) if self.settings.sprt else None

    def unpaired(self) -> Results:
        """W/D/L over every finished game (pairs or not), for the trinomial figures."""
        results = Results()
        for score in self.finished.values():
            results.add_game(score)
        results.pairs = list(self.results.pairs)
        return results

    def running(self) -> list[Results]:
        """:meth:`unpaired` as it was after each finished game, in the order they were added
        (as they finished; a resumed match's stored games first, pair by pair): what a
        match's running figures are computed from."""
        replay, games, out = MatchState(self.match_id, self.settings), Results(), []
        for (pair, swapped), score in self.finished.items():
            replay.add(pair, swapped, score, None)
            games.add_game(score)
            out.append(Results(games.wins, games.draws, games.losses,
                               list(replay.results.pairs)))
        return out


def match_token(db, match_id: int) -> str:
    """Names a match's game tasks: unique to the match and its database file, the same
    across runs (so a resumed match's tasks are the killed run's)."""
    return f"{derive_seed(str(db.path.resolve()), match_id):x}"


def play_match_game(match_id: int, settings: MatchSettings, pair: int,
                    swapped: bool) -> tuple[int, GameOutcome]:
    """:func:`play_game` as a task of one of several matches on one executor (a
    tournament's pairings): the outcome comes back with the match it belongs to."""
    return match_id, play_game(settings, pair, swapped)


def interleaved(states: list[MatchState]) -> list[tuple[MatchState, int, bool]]:
    """The pending games of ``states`` in the order they are submitted: pair by pair, each
    match's next pair in turn (both colours of a pair together, so pairs complete), so a
    stopped tournament has played every pairing about equally often."""
    queues = []
    for state in states:
        pairs: dict[int, list[bool]] = {}
        for pair, swapped in state.pending():
            pairs.setdefault(pair, []).append(swapped)
        queues.append([(state, pair, colours) for pair, colours in pairs.items()])
    ordered = []
    for turn in range(max(map(len, queues), default=0)):
        for queue in queues:
            if turn < len(queue):
                state, pair, colours = queue[turn]
                ordered += [(state, pair, swapped) for swapped in colours]
    return ordered


def run_matches(db, states: list[MatchState], executor, on_game=None, stop=None) -> bool:
    """Play the pending games of ``states`` on ``executor``, interleaved
    (:func:`interleaved`), storing each as it finishes. ``on_game(state, outcome)`` is
    called with each (for progress display). A match whose SPRT decides stops the run,
    cancelling the games still outstanding (only a plain match has an SPRT). An engine that
    cannot start raises :class:`EngineStartError` and leaves the matches unfinished, to be
    resumed once the engine is fixed; so does ``stop`` once set (a flag with ``is_set()``:
    the games outstanding cancelled, every finished one kept), and the run says False."""
    by_id = {state.match_id: state for state in states}
    for state, pair, swapped in interleaved(states):
        token = match_token(db, state.match_id)
        executor.submit(str(GameKey(token, pair, swapped)), play_match_game, state.match_id,
                        state.settings.for_pair(pair), pair, swapped)
    try:
        for match_id, outcome in executor.completed(stop):
            state = by_id[match_id]
            if store_outcome(db, state, outcome) and on_game:
                on_game(state, outcome)
            if len(state.finished) == state.settings.games or state.decision:
                db.set_status(state.match_id, "finished")
            if state.decision:
                break
    finally:
        executor.cancel()
    if any(len(state.finished) < state.settings.games and not state.decision
           for state in states):
        return False                # stopped: resumable
    for state in states:
        db.set_status(state.match_id, "finished")
    return True


def store_outcome(db, state: MatchState, outcome: GameOutcome) -> bool:
    """Store and count a finished game once; False for a game counted already (a retried
    task played twice). Another runner's copy of it stops this one (every stored game kept);
    the SPRT, if any, is asked for a decision."""
    if (outcome.pair, outcome.swapped) in state.finished:
        return False
    if not db.add_game(state.match_id, outcome.pair, outcome.swapped, outcome.score,
                       outcome.result, outcome.termination, outcome.reason, outcome.plies,
                       outcome.record):
        colours = "colours swapped" if outcome.swapped else "engine 1 first"
        raise GameError(f"match {state.match_id}, pair {outcome.pair} ({colours}) was "
                        f"stored meanwhile by another runner of this match; stopping "
                        f"(every stored game is kept)")
    state.add(outcome.pair, outcome.swapped, outcome.score, outcome.termination)
    sprt = state.sprt
    if sprt and state.results.use_pentanomial():
        state.decision = sprt.decision(state.results)
    return True


def check_engines(settings: MatchSettings) -> None:
    """Start every engine once, here in the parent, before any game: an engine that cannot
    start (a bad path, a command that exits at once, no handshake) raises
    :class:`EngineStartError` instead of forfeiting every game of the match."""
    game = get_game(settings.game, settings.rules, tileset=settings.tileset)
    for spec in settings.engines:
        with make_player(parse_spec(spec), settings.seed, game) as player:
            player.warm_up(opening_state(game, opening_for(settings, 0)))


def load_match(db, match_id: int | None) -> MatchState:
    """A stored match with its finished games (the newest unfinished one if no id)."""
    found = db.match(match_id)
    if found is None:
        raise GameError("no unfinished match to resume in this database" if match_id is None
                        else f"no match {match_id} in this database")
    match_id, raw, _ = found
    state = MatchState(match_id, stored_settings(db, match_id, raw))
    tasks = set(state.pending())
    for pair, swapped, score, termination in db.games(match_id):
        if (pair, swapped) not in tasks:
            raise GameError(f"{db.path}: match {match_id} holds game ({pair}, {int(swapped)}), "
                            f"which is not one of its {state.settings.games} games")
        state.add(pair, swapped, score, termination)
    return state


def stored_settings(db, match_id: int, raw: dict) -> MatchSettings:
    """A match's settings as the database holds them, checked as if typed again: a damaged
    row is a GameError naming the match, not a crash in the middle of a resumed match."""
    known = {f.name for f in fields(MatchSettings)}
    try:
        if set(raw) - known or not {"game", "engines"} <= set(raw):
            raise GameError(f"fields {', '.join(sorted(set(raw) - known)) or 'none unknown'}"
                            f", game and engines {'present' if 'engines' in raw else 'missing'}")
        if raw.get("tc") is not None:
            raw["tc"] = tuple(raw["tc"])
        settings = MatchSettings(**raw)
        settings.check()
    except (GameError, TypeError, ValueError) as err:
        raise GameError(f"{db.path}: match {match_id} has damaged settings ({err}); left "
                        f"unchanged") from None
    return settings
