"""The lifecycle of a match, or of a tournament's matches, as one object: what `match` and
`tournament` (and their ``--resume``) drive.

A :class:`MatchSession` owns the results database, the lock (of the match, or of the
tournament for all of its pairings), and the executor the games run on. It is planned (new
settings, checked) or claimed (a stored match or tournament, locked for this process), opened
on an executor, begun (every engine started once where the games run, then a new match or
tournament stored, atomically, with the lock taken before anyone else can see it), and run:
every pending game of every match submitted, interleaved pair by pair, each stored the moment
it finishes, its record appended to the records file. ``play`` does the opening, beginning
and running in one call and ``report`` gives the document of what was finished. However it ends (finished, an SPRT decision, Ctrl-C, SIGTERM, a lost cluster),
leaving the ``with`` block cancels what is outstanding, releases the lock and closes the
database; every finished game is kept, and :attr:`states` still hold them for a report.
"""
from __future__ import annotations

from dataclasses import asdict, replace

from crystalpick.engine import GAMES, GameError
from crystalpick.engine.features import DeckBuilding, provides

from crystalpick.search import executors
from .db import MEND, ResultsDB
from .lock import MatchLock
from .ratings import Unit, connected_groups, players, rate
from .report import running, summary
from .runner import MatchState, check_engines, load_match, run_matches
from .settings import MatchSettings
from .termination import EngineStartError
from .tournament import TournamentSettings, stored_tournament


def load_tournament(db: ResultsDB, tournament_id: int):
    """A stored tournament's settings and its pairings' matches, checked: a damaged row is a
    GameError naming it."""
    found = db.tournament(tournament_id)
    if found is None:
        raise GameError(f"no tournament {tournament_id} in this database")
    tournament = stored_tournament(db.path, tournament_id, found[1])
    states = [load_match(db, number) for number in db.tournament_matches(tournament_id)]
    if [tuple(state.settings.engines) for state in states] != tournament.pairings():
        raise GameError(f"{db.path}: tournament {tournament_id} does not hold the matches of "
                        f"its pairings; left unchanged")
    return tournament, states


def open_results(path, create: bool = True) -> ResultsDB:
    """The results database with every stored match and tournament read as ``--resume``
    reads them, so every command refuses a damaged row alike, with how to mend it (a match
    that wrote beside one would store games no ``results`` or ``ratings`` could show)."""
    db = ResultsDB(path, create)
    try:
        for number, *_ in db.matches():
            load_match(db, number)
        for number, *_ in db.tournaments():
            load_tournament(db, number)
    except GameError as err:
        db.close()
        raise GameError(f"{err}: {MEND}") from None
    return db


class RecordsUnwritable(GameError):
    """The records file failed while the games went on (a full disk): the game is stored."""


class MatchSession:
    """``db_path``: the results database, opened when a stored match is claimed or a new
    one begins (so input refused before that leaves no file behind). ``records``: a file
    every finished game's record is appended to as it is stored (opened before any engine
    starts, so a path that cannot be written is refused before the first game)."""

    def __init__(self, db_path, records=None):
        self.path = db_path
        self.records_path = records
        self._records = None
        self._db: ResultsDB | None = None
        self.executor = None
        self.lock: MatchLock | None = None
        self.states: list[MatchState] = []
        self.planned: list[MatchSettings] = []        # settings to store when begun
        self.tournament: TournamentSettings | None = None
        self.tournament_id: int | None = None

    def __enter__(self) -> "MatchSession":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def db(self) -> ResultsDB:
        if self._db is None:
            self._db = open_results(self.path)
        return self._db

    def close(self) -> None:
        try:
            if self.executor is not None:
                self.executor.close()
        finally:
            if self._records is not None:
                try:
                    self._records.close()
                except OSError:         # what failed to be written was said when it failed
                    pass
            if self.lock is not None:
                self.lock.release()
            if self._db is not None:
                self._db.close()

    @property
    def settings(self) -> list[MatchSettings]:
        return self.planned or [state.settings for state in self.states]

    @property
    def engines(self) -> list[str]:
        return self.tournament.engines if self.tournament else self.settings[0].engines

    def plan_match(self, settings: MatchSettings) -> None:
        settings.check()
        self.planned = [settings]

    def plan_tournament(self, tournament: TournamentSettings, template: MatchSettings) -> None:
        """``template``: every pairing's settings but the engines (game, rules, openings,
        limits, seed)."""
        tournament.check()
        self.planned = tournament.matches(template)
        for settings in self.planned:
            settings.check()
        self.tournament = tournament

    def claim_match(self, match_id: int | None) -> None:
        """Lock and load a stored match: ``match_id``, or the newest unfinished plain match
        that no live process plays."""
        if match_id is not None and self.db.tournament_of(match_id) is not None:
            raise GameError(f"match {match_id} is a pairing of tournament "
                            f"{self.db.tournament_of(match_id)}: continue it with "
                            f"'tournament --resume --tournament-id "
                            f"{self.db.tournament_of(match_id)}'")
        self.lock, state = claim(self.db, "match", match_id, self.db.unfinished(),
                                 lambda number: load_match(self.db, number))
        self.states = [state]

    def claim_tournament(self, tournament_id: int | None) -> None:
        self.lock, _ = claim(self.db, "tournament", tournament_id,
                             self.db.unfinished_tournaments(), self.load_tournament)

    def load_tournament(self, tournament_id: int) -> None:
        """A stored tournament with its pairings' finished games (checked: a damaged row is
        a GameError naming it)."""
        self.tournament, self.states = load_tournament(self.db, tournament_id)
        self.tournament_id = tournament_id

    def open(self, concurrency: int | None, cluster: str | None) -> str | None:
        """Open the executor: ``concurrency`` games at once (None: as stored), or the Dask
        cluster at ``cluster``. Returns what to tell the user about it."""
        if concurrency is not None:
            for settings in self.settings:
                settings.concurrency = concurrency     # how many at once, not what is played
        self.executor = executors.open_executor(self.settings[0].concurrency, cluster)
        return self.executor.describe()

    def begin(self) -> None:
        """Start every engine once where the games run (EngineStartError, ExecutorError);
        then store what was planned, locked, or mark what was claimed as running."""
        db = self.db                # opened (or refused) before any engine starts
        if self.records_path is not None:
            try:
                self._records = open(self.records_path, "a", encoding="utf-8")
            except OSError as err:
                raise GameError(f"--records {self.records_path}: cannot be written "
                                f"({err.strerror}); no game was played") from None
        self.executor.check(check_engines, replace(self.settings[0], engines=self.engines))
        if not self.planned:
            for state in self.states:
                db.set_status(state.match_id, "running")
            return
        locks = []

        def lock(number: int) -> None:      # before the new rows are visible to --resume
            locks.append(MatchLock(db.path, number, self.kind))
            locks[0].acquire()

        game = self.planned[0].game
        if self.tournament:
            self.tournament_id, ids = db.new_tournament(
                game, asdict(self.tournament), [asdict(s) for s in self.planned], lock)
        else:
            ids = [db.new_match(game, asdict(self.planned[0]), lock)]
        self.lock = locks[0]
        self.states = [MatchState(number, settings)
                       for number, settings in zip(ids, self.planned)]
        self.planned = []

    def play(self, concurrency: int | None, cluster: str | None, on_game=None,
             on_begin=None, stop=None) -> bool:
        """Everything after planning or claiming, in one call: open the executor
        (``concurrency`` games at once, None: as stored; or the Dask cluster at ``cluster``),
        begin (``on_begin(session, where)`` is called once the match or tournament is
        stored, ``where`` what to tell about the executor) and run every pending game
        (``on_game(state, outcome)`` after each is stored). A failure is a GameError that
        says what was kept and how to go on. Once ``stop`` (a flag with ``is_set()``, e.g.
        a StopFlag set from another thread) is set, the games not finished are cancelled
        and ``play`` returns False (True: every game played, or an SPRT decided): every
        finished game is stored, :meth:`report` gives them and ``--resume`` goes on. On
        KeyboardInterrupt (the command line's Ctrl-C) the same is kept, and :meth:`reload`
        then :meth:`report` give what was played."""
        where = self.open(concurrency, cluster)
        try:
            self.begin()
        except (EngineStartError, executors.ExecutorError) as err:
            raise GameError(f"{'engine ' if isinstance(err, EngineStartError) else ''}{err}; "
                            f"no game was played") from None
        if on_begin is not None:
            on_begin(self, where)
        hint = f"continue with {self.resume_hint(cluster)}"
        try:
            return self.run(on_game, stop)
        except EngineStartError as err:
            raise GameError(f"engine {err}; {self.kind} stopped, {self.finished_games} "
                            f"finished games are saved: fix the engine and {hint}") from None
        except executors.ExecutorError as err:
            raise GameError(f"{err}; {self.kind} stopped, {self.finished_games} finished games "
                            f"are saved in {self.db.path}: start it again and {hint}") from None
        except RecordsUnwritable as err:
            raise GameError(f"{err}; {self.kind} stopped, {self.finished_games} finished games "
                            f"are saved in {self.db.path}: mend it and {hint}") from None

    def report(self) -> dict:
        """The document of what was finished: the match's summary, or the tournament's
        pairings and rating list."""
        if self.tournament:
            return tournament_document(self)
        return match_document(self.states[0], self.db.path)

    def run(self, on_game=None, stop=None) -> bool:
        """Play every pending game: each is stored, its record appended to ``records``, then
        ``on_game(state, outcome)`` is called; False if ``stop`` was set first (the rest
        cancelled, the matches left to resume)."""
        def finished(state, outcome):
            if self._records is not None:
                try:
                    self._records.write(outcome.record + "\n")
                    self._records.flush()
                except OSError as err:
                    raise RecordsUnwritable(f"--records {self.records_path}: cannot be "
                                            f"written ({err.strerror})") from None
            if on_game is not None:
                on_game(state, outcome)
        if not run_matches(self.db, self.states, self.executor, finished, stop):
            return False
        if self.tournament_id is not None:
            self.db.set_tournament_status(self.tournament_id, "finished")
        return True

    def reload(self) -> None:
        """Read the matches' finished games back from the database: a Ctrl-C raised between
        storing a game and counting it must not leave the report one game short of what
        is stored."""
        self.states = [load_match(self.db, state.match_id) for state in self.states]

    @property
    def finished_games(self) -> int:
        return sum(len(state.finished) for state in self.states)

    @property
    def total_games(self) -> int:
        return sum(state.settings.games for state in self.states)

    @property
    def kind(self) -> str:
        return "tournament" if self.tournament else "match"

    def resume_hint(self, cluster: str | None) -> str:
        number = self.tournament_id if self.tournament else self.states[0].match_id
        return f"--resume --{self.kind}-id {number}" + (f" --cluster {cluster}" if cluster
                                                        else "")

    def units(self) -> list[Unit]:
        """Every finished game of the session as rating units (:mod:`.ratings`)."""
        return [unit for state in self.states for unit in match_units(state)]


def claim(db, kind: str, wanted: int | None, unfinished: list[int], load):
    """The lock of the match or tournament (``kind``) to resume, and what ``load(id)`` read
    of it: ``wanted``, or the newest of ``unfinished`` that no live process plays (a
    GameError from ``load`` releases the lock)."""
    candidates = unfinished if wanted is None else [wanted]
    for candidate in candidates:
        lock = MatchLock(db.path, candidate, kind)
        if lock.acquire():
            try:
                return lock, load(candidate)
            except GameError:
                lock.release()
                raise
        if wanted is not None:
            raise GameError(f"{kind} {wanted} is being played by another process (pid "
                            f"{lock.owner()}); wait for it to end or stop it first")
    if candidates:
        raise GameError(f"every unfinished {kind} of this database is being played by "
                        f"another process ({', '.join(map(str, candidates))})")
    raise GameError(f"no unfinished {kind} to resume in this database")


def match_units(state: MatchState) -> list[Unit]:
    """A match's finished games as rating units: each colour-swapped pair one unit (a lone
    game of an unfinished pair its own), scores from engine 1's point of view."""
    by_pair: dict[int, list[float]] = {}
    for (pair, _), score in sorted(state.finished.items()):
        by_pair.setdefault(pair, []).append(score)
    first, second = state.settings.engines
    return [Unit(first, second, tuple(scores)) for scores in by_pair.values()]


def rating_pools(db, tournament_id: int | None = None,
                 everything: bool = False) -> list[tuple[str, list[Unit], int | None]]:
    """What to rate together, with a title and a seed each: the games of tournament
    ``tournament_id`` (default: the newest, or every game when the database holds no
    tournament) with the tournament's seed, so its list is printed again exactly; with
    ``everything``, every game of the database (seed None: the caller's), one pool per game
    and playing conditions (rules, card or tile set, time control, adjudication), split into
    groups of engines that met, each titled as one. A game of an engine against itself says
    nothing about ratings: left out."""
    if not everything:
        listed = db.tournaments()
        if tournament_id is None and listed:
            tournament_id = listed[-1][0]
        if tournament_id is not None:
            if tournament_id not in [row[0] for row in listed]:
                raise GameError(f"no tournament {tournament_id} in this database")
            states = [load_match(db, number) for number in db.tournament_matches(tournament_id)]
            title = f"tournament {tournament_id}: {states[0].settings.game}"
            return [(title, [unit for state in states for unit in match_units(state)],
                     states[0].settings.seed)]
    pools: dict[tuple, list[Unit]] = {}
    for number, *_ in db.matches():
        state = load_match(db, number)
        pools.setdefault(conditions(state.settings), []).extend(
            unit for unit in match_units(state) if unit.first != unit.second)
    rated = []
    for key, units in pools.items():
        groups = connected_groups(units)
        for number, group in enumerate(groups, 1):
            title = ", ".join(filter(None, key))
            if len(groups) > 1:
                title += (f": group {number} of {len(groups)} (these engines never met "
                          f"those of the other groups: rated apart)")
            rated.append((title, group, None))
    if not rated:
        raise GameError(f"{db.path}: no games between two different engines to rate")
    return rated


def conditions(settings: MatchSettings) -> tuple[str, ...]:
    """What, beyond the engines, decides how a game is played, as the texts of a pool's
    title: the game, its rules and component file, the time control and adjudication."""
    rules = ", ".join(f"{name}={value}" for name, value in sorted(settings.rules.items()))
    return (settings.game, rules and f"rules {rules}",
            settings.tileset and f"set {settings.tileset}",
            settings.tc and f"tc {settings.tc[0]:g}+{settings.tc[1]:g}",
            settings.move_time and f"st {settings.move_time:g}",
            settings.max_plies and f"max-plies {settings.max_plies}")


DECKS_STAY = ("the decks stay with their seats while the engines swap seats pair by pair, "
              "so the match compares engines; 'crystalpick deck' compares decks")


def seat_decks(settings: MatchSettings) -> dict[str, str] | None:
    """Each seat's deck as given (the default where none was) for a game whose players bring
    their own decks; None for the others."""
    game = GAMES[settings.game]
    if not provides(game, DeckBuilding):
        return None
    defaults = {option.name: option.default for option in game.rule_options}
    return {seat: settings.rules.get(option, defaults[option])
            for seat, option in zip(game.player_names, game.deck_options)}


def match_document(state: MatchState, db_path) -> dict:
    """Everything a match reports (:func:`.report.summary`), with where it is stored and,
    for a game with decks, which deck each seat held."""
    document = summary(state.unpaired(), state.settings.engines, state.sprt, state.decision,
                       state.terminations)
    document.update(match_id=state.match_id, game=state.settings.game,
                    seed=state.settings.seed, db=str(db_path))
    decks = seat_decks(state.settings)
    if decks:
        document.update(decks=decks, decks_note=DECKS_STAY)
    return document


def running_series(session: MatchSession) -> list[dict]:
    """Every match of ``session`` (one, or a tournament's pairings) as its running figures
    (:func:`.report.running`) with its label and its SPRT's settings and bounds: what
    ``--plot`` draws."""
    return [{"label": " vs ".join(state.settings.engines),
             "running": running(state.running(), state.sprt),
             "sprt": match_document(state, session.db.path).get("sprt")}
            for state in session.states]


def tournament_document(session: MatchSession) -> dict:
    """The tournament's pairings (each a match's summary) and the rating list of its
    finished games (None before two engines are connected by games)."""
    units, settings = session.units(), session.settings[0]
    rated = None
    if len(connected_groups(units)) == 1 and players(units) == set(session.engines):
        rated = rate(units, seed=settings.seed).document()
    return {"tournament_id": session.tournament_id, "game": settings.game,
            "format": session.tournament.format, "engines": session.engines,
            "games_per_pair": session.tournament.games_per_pair,
            "rounds": session.tournament.rounds, "seed": settings.seed,
            "db": str(session.db.path), "games": session.finished_games,
            "ratings": rated,
            "pairings": [match_document(state, session.db.path) for state in session.states]}
