"""Play a match: colour-swapped pairs of games between two engines, on an executor (local
worker processes or a Dask cluster, :mod:`.executors`).

Every game is a task ``(pair, swapped)``; ``swapped`` games let engine 2 move first. Both
games of a pair start from the same opening and draw their chance events from the same
seeded stream (the k-th chance event of each game uses the k-th random number), so opening
and luck cancel out within a pair. Finished games go to the results database at once; the
statistics, the SPRT and the progress bar are updated in the parent process, the only one
that writes the database.
"""
from __future__ import annotations

import random
import time
from collections import Counter
from contextlib import ExitStack
from dataclasses import dataclass, field, fields, replace

from crystalpick.engine import GameError, get_game, sample_chance

from crystalpick.search.seeds import derive_seed
from crystalpick.search.specs import parse_spec
from .adjudication import MaxPlies, adjudicate
from .players import Player, make_player
from .records import GameRecord, Ply, finish_record, format_record, new_record, parse_records
from .stats import SPRT, Results
from .termination import EngineFailure, GameEnd, Termination
from .validation import check_numbers


@dataclass
class MatchSettings:
    game: str
    engines: list[str]
    games: int = 2
    rules: dict = field(default_factory=dict)
    tileset: str | None = None
    openings: list[str] = field(default_factory=list)   # position strings or move lists
    openings_order: str = "sequential"
    seed: int = 0
    tc: tuple[float, float] | None = None                # (seconds per game, increment)
    move_time: float | None = None                       # fixed seconds per move
    tolerance: float = 0.1                               # seconds over the clock before a loss
    max_plies: int | None = None
    sprt: str | None = None
    concurrency: int = 1

    @property
    def pairs(self) -> int:
        return (self.games + 1) // 2

    def for_pair(self, pair: int) -> "MatchSettings":
        """These settings holding only ``pair``'s opening: what a game task needs, so a long
        openings file does not travel with every game."""
        if not self.openings:
            return self
        return replace(self, openings=[opening_for(self, pair)], openings_order="sequential")

    def check(self) -> None:
        """Fail early, in the parent, on anything a worker would fail on."""
        if not isinstance(self.engines, list) or len(self.engines) != 2 \
                or not all(isinstance(spec, str) for spec in self.engines):
            raise GameError("a match needs exactly two --engine specs")
        check_numbers(self)
        for spec in self.engines:
            parse_spec(spec)
        if self.games < 1 or self.concurrency < 1:
            raise GameError("--games and --concurrency must be at least 1")
        if self.openings_order not in ("sequential", "random"):
            raise GameError("--openings-order must be sequential or random")
        if self.sprt:
            try:
                SPRT.parse(self.sprt)
            except ValueError as err:
                raise GameError(f"--sprt: {err}") from None
        game = get_game(self.game, self.rules, tileset=self.tileset)
        for number, opening in enumerate(self.openings, 1):
            try:
                opening_state(game, opening)
            except GameError as err:
                raise GameError(f"opening {number}: {err}") from None


def opening_state(game, opening: str | None):
    """An opening line is a position string, or moves to play from the start position."""
    if not opening:
        return game.new_initial_state()
    try:
        return game.parse_position(opening)
    except GameError as as_position:
        try:
            return game.state(None, opening)
        except GameError:
            raise GameError(f"{opening[:50]!r} is neither a position ({as_position}) nor a "
                            f"move list from the start") from None


def load_openings(text: str, source: str) -> list[str]:
    """Opening lines from a file: one position or move list a line, or game records (each
    gives the position at its end)."""
    if text.lstrip().startswith("["):
        openings = [record.replay().position() for record in parse_records(text, source)]
    else:
        openings = [line.strip() for line in text.splitlines()
                    if line.strip() and not line.lstrip().startswith("#")]
    if not openings:
        raise GameError(f"{source} holds no openings (one position or move list a line, or "
                        f"game records)")
    return openings


OPENING_PLIES = 2          # random plies of a default opening (more when those run out)


def default_openings(settings: MatchSettings) -> tuple[list[str], str]:
    """Openings for a match given none, and what to tell the user. A game whose start and
    play have no chance would replay the same pair between two deterministic engines, so
    each pair gets its own opening: distinct random move lists drawn from the match seed.
    A game with chance, or with a start drawn from the seed, differs from pair to pair."""
    game = get_game(settings.game, settings.rules, tileset=settings.tileset)
    starts = {get_game(settings.game, settings.rules, tileset=settings.tileset, seed=seed)
              .new_initial_state().position() for seed in (1, 2)}
    if game.capabilities.chance or len(starts) > 1:
        return [], "no --openings: every pair draws its own setup and chance from the seed"
    openings = random_openings(game, derive_seed(settings.seed, "openings"), settings.pairs)
    return openings, (f"no --openings: {len(openings)} distinct random openings of "
                      f"{OPENING_PLIES}+ plies drawn from seed {settings.seed}, one a pair")


def random_openings(game, seed: int, count: int) -> list[str]:
    """``count`` distinct move lists of random legal plies from the start (longer lists once
    short ones keep repeating), none of which ends the game."""
    rng = random.Random(seed)
    openings: list[str] = []
    seen: set[str] = set()
    plies, repeats = OPENING_PLIES, 0
    while len(openings) < count:
        state = game.new_initial_state()
        moves = []
        while len(moves) < plies and not state.is_terminal():
            move = rng.choice(state.legal_moves())
            moves.append(state.move_to_str(move))
            state.play(move)
        line = " ".join(moves)
        if line in seen or state.is_terminal():
            repeats += 1
            if repeats > 100:
                plies, repeats = plies + 1, 0
            continue
        seen.add(line)
        openings.append(line)
    return openings


def opening_for(settings: MatchSettings, pair: int) -> str | None:
    if not settings.openings:
        return None
    if settings.openings_order == "random":
        return random.Random(derive_seed(settings.seed, "opening", pair)).choice(settings.openings)
    return settings.openings[pair % len(settings.openings)]


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
class GameOutcome:
    pair: int
    swapped: bool
    score: float         # engine 1's score
    result: str
    termination: Termination
    reason: str
    plies: int
    record: str


def play_game(settings: MatchSettings, pair: int, swapped: bool) -> GameOutcome:
    """Game ``(pair, swapped)`` of the match: a pure task (settings in, typed outcome out)
    that any worker process can run. An engine that cannot start raises
    :class:`EngineStartError`; every other way a game ends is its outcome's termination."""
    game = get_game(settings.game, settings.rules, tileset=settings.tileset,
                    seed=derive_seed(settings.seed, "setup", pair))
    state = opening_state(game, opening_for(settings, pair))
    engines = [settings.engines[1], settings.engines[0]] if swapped else list(settings.engines)
    record = new_record(game, state, engines[0], engines[1], settings.seed, Pair=str(pair),
                        Swapped=str(int(swapped)), **time_control_tag(settings))
    with ExitStack() as players_open:
        players = [players_open.enter_context(
                       make_player(parse_spec(spec),
                                   derive_seed(settings.seed, pair, swapped, side), game))
                   for side, spec in enumerate(engines)]
        end = play_out(settings, state, players, record,
                       random.Random(derive_seed(settings.seed, "chance", pair)))
    finish_record(record, end)
    first_engine_side = 1 if swapped else 0
    mine, theirs = end.returns[first_engine_side], end.returns[1 - first_engine_side]
    score = 1.0 if mine > theirs else 0.0 if mine < theirs else 0.5
    return GameOutcome(pair, swapped, score, record.tags["Result"], end.termination, end.reason,
                       len(record.plies), format_record(record))


def time_control_tag(settings: MatchSettings) -> dict[str, str]:
    if settings.tc:
        return {"TimeControl": f"{settings.tc[0]:g}+{settings.tc[1]:g}"}
    if settings.move_time:
        return {"TimeControl": f"{settings.move_time:g}/move"}
    return {}


@dataclass
class Clock:
    """One player's clock (``remaining`` None: an untimed game)."""

    remaining: float | None
    increment: float = 0.0

    @classmethod
    def for_match(cls, settings: MatchSettings) -> "Clock":
        return cls(*settings.tc) if settings.tc else cls(None)

    def charge(self, seconds: float, tolerance: float) -> bool:
        """Take a move's time off the clock; False when it went more than ``tolerance`` over."""
        if self.remaining is None:
            return True
        self.remaining -= seconds
        if self.remaining < -tolerance:
            return False
        self.remaining += self.increment
        return True


def play_out(settings: MatchSettings, state, players: list[Player], record: GameRecord,
             chance: random.Random) -> GameEnd:
    """Play from ``state`` to the end, appending every ply to ``record``. The k-th chance
    event uses the k-th number of ``chance`` (common random numbers within a pair)."""
    clocks = [Clock.for_match(settings) for _ in players]
    adjudicators = [MaxPlies(settings.max_plies)] if settings.max_plies is not None else []
    while not state.is_terminal():
        end = adjudicate(adjudicators, state, record)
        if end is not None:
            return end
        if state.is_chance_node():
            move = sample_chance(state, chance.random())
            record.plies.append(Ply(state.move_to_str(move), chance=True))
            state.play(move)
            continue
        end = engine_turn(settings, state, players, clocks, record)
        if end is not None:
            return end
    return GameEnd.by_rules(state)


def engine_turn(settings: MatchSettings, state, players: list[Player], clocks: list[Clock],
                record: GameRecord) -> GameEnd | None:
    """The side to move chooses and plays a move; the game's end if that loses it."""
    side = state.current_player()
    player, clock = players[side], clocks[side]
    name = state.game.player_names[side]
    started = time.monotonic()
    try:
        move, comment = player.choose(
            state, player.limits(clock.remaining, clock.increment, settings.move_time), record)
    except EngineFailure as failure:
        return GameEnd.forfeit(side, failure.termination,
                               f"{name} {failure.termination.label}: {failure}")
    spent = time.monotonic() - started
    comment["time"] = f"{spent:.3f}"
    record.plies.append(Ply(state.move_to_str(move), comment=comment))
    if not clock.charge(spent, settings.tolerance):
        return GameEnd.forfeit(side, Termination.TIME_FORFEIT, f"{name} lost on time")
    state.play(move)
    return None


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


def run_matches(db, states: list[MatchState], executor, on_game=None) -> None:
    """Play the pending games of ``states`` on ``executor``, interleaved
    (:func:`interleaved`), storing each as it finishes. ``on_game(state, outcome)`` is
    called with each (for progress display). A match whose SPRT decides stops the run,
    cancelling the games still outstanding (only a plain match has an SPRT). An engine that
    cannot start raises :class:`EngineStartError` and leaves the matches unfinished, to be
    resumed once the engine is fixed."""
    by_id = {state.match_id: state for state in states}
    for state, pair, swapped in interleaved(states):
        token = match_token(db, state.match_id)
        executor.submit(str(GameKey(token, pair, swapped)), play_match_game, state.match_id,
                        state.settings.for_pair(pair), pair, swapped)
    try:
        for match_id, outcome in executor.completed():
            state = by_id[match_id]
            if store_outcome(db, state, outcome) and on_game:
                on_game(state, outcome)
            if len(state.finished) == state.settings.games or state.decision:
                db.set_status(state.match_id, "finished")
            if state.decision:
                break
    finally:
        executor.cancel()
    for state in states:
        db.set_status(state.match_id, "finished")


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
