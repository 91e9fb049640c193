"""Solved positions: finding them by exhaustive search, and reading ``positions/*.solved``.

File format (blocks separated by blank lines, ``#`` starts a comment)::

    id mattock-win-5-a
    position 5/... x
    wins 5                    # the side to move wins; the shortest forced win takes 5 plies
    winning e3 e3/d2-e3       # every move that wins (in any number of plies)

Regenerate with ``python -m crystalpick.solvers.solved mattock > positions/mattock.solved``: it plays
seeded random games and keeps positions a few plies from the end, where some move loses,
that exhaustive alpha-beta solves in seconds (no reductions, searched until every root move
is proven; the evaluation only orders moves, proofs come from the game's end).
"""
from __future__ import annotations

import random
import sys
import time
from dataclasses import dataclass
from importlib import resources

from crystalpick.engine import GameError, get_game

from crystalpick.search.alphabeta import AlphaBeta
from crystalpick.search.engines import AlphaBetaEngine
from crystalpick.search.score import WIN, Proven, from_alphabeta
from crystalpick.engine.game import sample_chance

MAX_ROOT_MOVES = 60      # keeps the exhaustive proof of every root move within seconds


@dataclass
class SolvedPosition:
    id: str
    position: str
    wins: int                 # plies of the shortest forced win for the side to move
    winning: list[str]        # every winning move, in notation


def parse_solved(text: str) -> list[SolvedPosition]:
    cases, fields = [], {}
    for raw in text.splitlines() + [""]:
        line = raw.split("#", 1)[0].strip()
        if line:
            key, _, value = line.partition(" ")
            fields[key] = value.strip()
        elif fields:
            cases.append(SolvedPosition(fields["id"], fields["position"], int(fields["wins"]),
                                        fields["winning"].split()))
            fields = {}
    return cases


def load_solved(game: str) -> list[SolvedPosition]:
    return parse_solved(resources.files("crystalpick.positions").joinpath(f"{game}.solved")
                        .read_text(encoding="utf-8"))


def exact_value(state, node_limit: int, max_depth: int = 60) -> Proven | None:
    """The proven result of ``state`` for its mover (player 0 at a chance node), by
    full-width search deepened until the result is proven; None if not within the nodes."""
    AlphaBetaEngine.refuse(state.game)
    searcher = AlphaBeta(state.search_kernel().clone(), state.game.evaluator(), tt_megabytes=16,
                         lmr=False)
    searcher.begin()
    searcher.set_limits(0.0, node_limit)
    for depth in range(1, max_depth + 1):
        lines = searcher.iterate(depth)
        if lines is None:
            return None
        score = from_alphabeta(lines[0][0])
        if isinstance(score, Proven):
            return score
    return None


def solve(state, node_limit: int = 100_000) -> tuple[int, list[str]] | None:
    """``(plies of the shortest win, all winning moves)`` if the mover wins, else None (also
    when some move is not settled within ``node_limit`` nodes)."""
    wins = []
    mover = state.current_player()
    for move in state.legal_moves():
        child = state.clone()
        child.play(move)
        if child.is_terminal():
            if child.returns()[mover] > 0:
                wins.append((1, move))
            continue
        value = exact_value(child, node_limit)
        if value is None:
            return None
        if view_of(child) != mover:
            value = -value
        if value.result == WIN:
            wins.append((value.plies + 1, move))
    if not wins:
        return None
    shortest = min(p for p, _ in wins)
    if shortest != round(shortest):      # chance: wins of unequal lengths average out
        return None
    return round(shortest), [state.move_to_str(m) for _, m in wins]


def view_of(state) -> int:
    """Whose view alpha-beta reports a root in: its mover, player 0 at a chance node."""
    return 0 if state.is_chance_node() else state.current_player()


def generate(game_name: str, count: int = 8, seed: int = 1, max_seconds: float = 3.0):
    """Yield solved positions from seeded random games, alternating wins in 3 and 5 plies."""
    game = get_game(game_name)
    rng = random.Random(seed)
    wanted = [3, 5]
    found = 0
    while found < count:
        state, history = game.new_initial_state(), []
        while not state.is_terminal():
            history.append(state.position())
            if state.is_chance_node():
                state.play(sample_chance(state, rng.random()))
            else:
                state.play(rng.choice(state.legal_moves()))
        back = wanted[found % len(wanted)] + rng.choice([0, 2])
        if back > len(history):
            continue
        candidate = game.parse_position(history[-back])
        if len(candidate.legal_moves()) > MAX_ROOT_MOVES:
            continue
        started = time.monotonic()
        if candidate.current_player() < 0:
            continue
        value = exact_value(candidate, 50_000)
        if value is None or value != Proven(WIN, wanted[found % len(wanted)]):
            continue
        result = solve(candidate)
        if result is None or result[0] != wanted[found % len(wanted)]:
            continue
        if len(result[1]) == len(candidate.legal_moves()):
            continue                     # every move wins: no test of finding one
        if time.monotonic() - started > max_seconds:
            continue
        found += 1
        yield SolvedPosition(f"{game_name}-win-{result[0]}-{found}", history[-back], *result)


def main(argv: list[str]) -> None:
    if len(argv) != 1:
        print("usage: python -m crystalpick.solvers.solved GAME", file=sys.stderr)
        sys.exit(2)
    name = argv[0]
    try:
        AlphaBetaEngine.refuse(get_game(name))
    except GameError as err:
        print(f"error: {err}", file=sys.stderr)
        sys.exit(2)
    print(f"# Solved {name} positions (format: solvers/solved.py), found by exhaustive alpha-beta"
          f"\n# from seeded random games: python -m crystalpick.solvers.solved {name}\n")
    for case in generate(name):
        print(f"id {case.id}\nposition {case.position}\nwins {case.wins}\n"
              f"winning {' '.join(case.winning)}\n", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
