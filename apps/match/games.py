"""One game of a match as a pure task: the settings and the pair in, a typed outcome out.
Both games of a pair start from the same opening and draw their chance events from the same
seeded stream (the k-th chance event of each game uses the k-th random number), so opening
and luck cancel out within a pair."""
from __future__ import annotations

import random
import time
from contextlib import ExitStack
from dataclasses import dataclass

from crystalpick.engine import get_game, sample_chance
from crystalpick.search.seeds import derive_seed
from crystalpick.search.specs import parse_spec

from .adjudication import MaxPlies, adjudicate
from .openings import opening_for, opening_state
from .players import Player, make_player
from .records import GameRecord, Ply, finish_record, format_record, new_record
from .settings import MatchSettings
from .termination import EngineFailure, GameEnd, Termination


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
