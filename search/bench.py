"""``crystalpick bench``: a fixed workload whose node count is a signature of the build.

Like Stockfish's bench: for every registered game with bench settings, and every position
of its bench suite (``Game.bench_suite()``, kept in the game's package), it runs perft to a
fixed depth, then the game's searchers (``BenchSettings.searchers``: alpha-beta to a fixed
depth, MCTS or ISMCTS for a fixed number of simulations with a fixed seed), and sums the
nodes. The total changes only when move generation or search
behaviour changes, so it is printed as ``signature: N``; times and nodes/second are the
profiling part.
"""
from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field

from crystalpick.engine import GAMES, BenchSettings, get_game

from .engines import make_engine
from .limits import Limits

BENCH_SEED = 20261130


def benched_games() -> list[str]:
    """The registered games that declare a bench workload, by name."""
    return sorted(name for name, cls in GAMES.items() if cls.bench_settings is not None)


@dataclass
class Measurement:
    nodes: int
    seconds: float

    @property
    def nps(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


@dataclass
class BenchRow:
    game: str
    position_id: str
    parts: dict[str, Measurement] = field(default_factory=dict)   # perft, then searchers
    terminal: bool = False          # a finished game: nothing to count or search


def timed(work) -> Measurement:
    started = time.perf_counter()
    nodes = work()
    return Measurement(nodes, time.perf_counter() - started)


def bench_game(game_name: str, settings: BenchSettings, impl: str = "fast",
               on_row=None, stop=None) -> list[BenchRow]:
    """The game's bench rows; if ``stop`` (a stop flag) is set, the rows finished before it
    (the position at work is dropped: its counts would be partial)."""
    fast_game = get_game(game_name)
    perft_game = get_game(game_name, impl=impl)
    rows = []
    for case in fast_game.bench_suite():
        row = BenchRow(game_name, case.id)
        row.parts["perft"] = timed(
            lambda: perft_game.parse_position(case.position).perft(settings.perft_depth, stop))
        state = fast_game.parse_position(case.position)
        row.terminal = state.is_terminal()
        if not state.is_terminal() and not state.is_chance_node():
            for name in settings.searchers:     # a fresh engine each: no table or tree kept
                if stopped(stop):
                    break
                engine = make_engine(name, tt_megabytes=16) if name == "alphabeta" else \
                    make_engine(name, seed=BENCH_SEED)
                limits = Limits(**settings.budget(name))
                row.parts[name] = timed(lambda: engine.analyse(
                    state, limits, None, state.current_player(), 1, stop).nodes)
        if stopped(stop):
            return rows
        rows.append(row)
        if on_row:
            on_row(row)
    return rows


def stopped(stop) -> bool:
    return stop is not None and stop.is_set()


def totals(rows: list[BenchRow]) -> dict[str, Measurement]:
    out: dict[str, Measurement] = {}
    for row in rows:
        for part, m in row.parts.items():
            total = out.setdefault(part, Measurement(0, 0.0))
            total.nodes += m.nodes
            total.seconds += m.seconds
    return out


def signature(rows: list[BenchRow]) -> int:
    return sum(m.nodes for row in rows for m in row.parts.values())


def rates_by_game(rows: list[BenchRow]) -> dict[str, dict[str, float]]:
    """Nodes/second of every part (perft, each searcher) over each game's rows: what
    ``bench --plot`` draws."""
    games = dict.fromkeys(row.game for row in rows)
    return {game: {part: m.nps for part, m in totals([r for r in rows if r.game == game])
                   .items()} for game in games}


def bench_settings(game_name: str, perft_depth: int | None = None,
                   alphabeta_depth: int | None = None,
                   mcts_simulations: int | None = None) -> BenchSettings:
    """The game's bench workload with the overrides given (None: the suite's own)."""
    overrides = {"perft_depth": perft_depth, "alphabeta_depth": alphabeta_depth,
                 "mcts_simulations": mcts_simulations}
    return dataclasses.replace(GAMES[game_name].bench_settings,
                               **{key: value for key, value in overrides.items() if value})


def bench_games(names: list[str], impl: str, overrides: dict, stop=None, on_game=None,
                on_row=None) -> list[BenchRow]:
    """Every game's bench rows in turn (``on_game(name, settings)`` before each game,
    ``on_row(row)`` as each row finishes); once ``stop`` is set, the rows finished."""
    rows: list[BenchRow] = []
    for name in names:
        settings = bench_settings(name, **overrides)
        if on_game:
            on_game(name, settings)
        rows.extend(bench_game(name, settings, impl, on_row, stop))
        if stopped(stop):
            break
    return rows


def workload_text(settings: BenchSettings, impl: str) -> str:
    """What a game's bench runs: its perft depth and each searcher's budget."""
    searches = ", ".join(f"{searcher} " + ", ".join(f"{limit} {value}" for limit, value in
                                                    settings.budget(searcher).items())
                         for searcher in settings.searchers)
    return f"perft depth {settings.perft_depth} ({impl}), {searches}"


def id_width(names: list[str]) -> int:
    """The widest position id of the games' suites: rows print as they finish, aligned."""
    return max(len(case.id) for name in names for case in GAMES[name]().bench_suite())


def row_text(row: BenchRow, width: int) -> str:
    if row.terminal:            # perft's 0 nodes in 0 s would read as a measurement
        return f"  {row.position_id:<{width}} a finished game: no moves to count or search"
    parts = "  ".join(f"{part} {m.nodes:>10,} {m.seconds:6.2f}s {m.nps:>12,.0f}/s"
                      for part, m in row.parts.items())
    return f"  {row.position_id:<{width}} {parts}"


def totals_text(rows: list[BenchRow]) -> str:
    """The total of every part, then the signature."""
    lines = [f"total {part:<9} {m.nodes:>12,} nodes {m.seconds:7.2f} s {m.nps:>12,.0f} nodes/s"
             for part, m in totals(rows).items()]
    return "\n".join(lines + [f"signature: {signature(rows)}"])


def measured(m: Measurement) -> dict:
    return {"nodes": m.nodes, "seconds": round(m.seconds, 4), "nps": round(m.nps)}


def bench_document(names: list[str], impl: str, rows: list[BenchRow], interrupted) -> dict:
    """``bench --json``; when interrupted: the positions finished, and no signature."""
    return {"games": names, "impl": impl,
            **({"interrupted": True} if interrupted else {"signature": signature(rows)}),
            "positions": [{"game": r.game, "id": r.position_id,
                           **{part: measured(m) for part, m in r.parts.items()}} for r in rows],
            "total": {part: measured(m) for part, m in totals(rows).items()}}
