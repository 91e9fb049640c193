"""The Mattock endgame suite: make it from strong self-play, and measure the solver on it.

    python bench/endgame_suite.py generate [--seed 17] > positions/mattock.endgames
    python bench/endgame_suite.py run [--seconds 10] [--json FILE]
    python bench/endgame_suite.py regions

``generate`` plays alpha-beta against itself (defaults, a fixed budget of ``NODES`` nodes a
move: about one second on an idle core of the development machine, which measured
~460,000-620,000 alpha-beta nodes per CPU second on Mattock; a node budget makes the games
the same on any machine and under any load) from the 50 openings of
``positions/mattock.openings``, in an order shuffled by the seed, then from random 2-ply
openings (``game_openings``), and keeps from every game the
positions 6, 10, 14 and 18 plies before its end. Each side keeps its engine (and so its
table) through the game, as in a match.

``run`` solves every position with ``crystalpick solve``'s solver (fresh 64 MB table each,
the length made exact when time remains, unless ``--proof-only``) and reports per group the share proven within the
limit and the median time to the proof. The limit is CPU time of this process (one core), so
a loaded machine does not count against the solver.

``regions`` asks of every position whether the game has split into territories: the cells
that can still take part (tiles, and rock that the collapse rule still lets be mined: tiles
are never removed, so a cell it forbids stays forbidden) joined by touch, each region
holding miners of one player at most. Such a game is a sum of one-player games, decided by
counting each player's longest run of mines (as Amazons solvers decompose endgames).
It also reports the rock cells left to mine and the legal turns.
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time

from crystalpick.engine import get_game
from crystalpick.engine.mattock.notation import EMPTY, TILE
from crystalpick.positions import parse_suite, read_text
from crystalpick.search import Limits, analyse, make_engine

NODES = 500_000
PLIES_BEFORE_END = (6, 10, 14, 18)
SUITE = "mattock.endgames"


def openings() -> list[str]:
    return [line.strip() for line in read_text("mattock.openings").splitlines()
            if line.strip() and not line.startswith("#")]


def random_opening(game, rng: random.Random) -> str:
    """Two uniformly random turns from the start (the shipped openings are 50)."""
    state, moves = game.new_initial_state(), []
    for _ in range(2):
        move = rng.choice(state.legal_moves())
        moves.append(state.move_to_str(move))
        state.play(move)
    return " ".join(moves)


def game_openings(game, seed: int, last: int) -> list[str]:
    """The openings of games 1 to ``last``: the shipped ones shuffled by the seed, then
    random ones, each drawn again until it differs from every earlier game's (alpha-beta is
    deterministic, so a repeated opening would repeat a whole game and its positions)."""
    order = openings()
    random.Random(seed).shuffle(order)
    for number in range(len(order) + 1, last + 1):
        attempt = 0
        while True:
            rng = random.Random(f"{seed}-{number}" + (f"-{attempt}" if attempt else ""))
            opening = random_opening(game, rng)
            if opening not in order:
                break
            attempt += 1
        order.append(opening)
    return order[:last]


def self_play(game, opening: str) -> list[str]:
    """The positions of one alpha-beta self-play game from ``opening``, to its end."""
    state = game.state(None, opening)
    engines = [make_engine("alphabeta"), make_engine("alphabeta")]
    positions = []
    while not state.is_terminal():
        positions.append(state.position())
        result = analyse(state, engines[state.current_player()], Limits(nodes=NODES))
        state.play(result.best_move)
    positions.append(state.position())
    return positions


def generate(seed: int, first: int, last: int) -> None:
    """Games ``first`` to ``last`` (1-based) of the shuffled openings; slices of the same
    seed concatenate to the whole suite (the header comes with the slice holding game 1)."""
    game = get_game("mattock")
    order = game_openings(game, seed, last)
    if first == 1:
        print(f"# Mattock endgames: positions 6, 10, 14 and 18 plies before the end of "
              f"alpha-beta\n# self-play games ({NODES:,} nodes a move, about 1 s on an idle "
              f"core), from the\n# openings of mattock.openings shuffled with seed {seed}, "
              f"then random 2-ply openings, each\n# different from every earlier game's:\n#   python bench/endgame_suite.py generate "
              f"--seed {seed} --last {last} > positions/{SUITE}\n"
              f"# id mattock-end-K-G: K plies before the end of game G\n")
    for number in range(first, last + 1):
        opening = order[number - 1]
        started = time.process_time()
        positions = self_play(game, opening)
        length = len(positions) - 1
        print(f"# game {number}: opening {opening}, {length} plies, "
              f"{time.process_time() - started:.1f} CPU s", file=sys.stderr, flush=True)
        for back in PLIES_BEFORE_END:
            if back <= length - 2:          # not the opening itself
                print(f"id mattock-end-{back:02d}-{number:02d}\n"
                      f"position {positions[length - back]}\n", flush=True)


def run(seconds: float, report_path: str | None, part: str, exact: bool,
        groups: list[int], mobility: bool, symmetry: str = "auto",
        decompose: str = "auto", weak: bool = True, epsilon: float = 1.0) -> None:
    """Solve the positions of ``groups`` in ``part`` (K/N: every N-th from the K-th,
    1-based; several parts may run at once, each writing its own --json rows) and report
    per group."""
    from crystalpick.search.solve import Solver

    game = get_game("mattock")
    index, count = (int(x) for x in part.split("/"))
    cases = [case for case in parse_suite(read_text(SUITE), SUITE)
             if int(case.id.split("-")[2]) in groups][index - 1::count]
    rows = []
    for case in cases:
        group = int(case.id.split("-")[2])
        solver = Solver(game, 64, epsilon=epsilon, mobility=mobility, symmetry=symmetry,
                        decompose=decompose, weak=weak)
        state = game.parse_position(case.position)
        solution = solver.solve(state, cpu_seconds=seconds, exact=exact)
        proven = solution.score is not None
        rows.append({"id": case.id, "group": group, "proven": proven,
                     "score": solution.score.text() if proven else None,
                     "exact": solution.exact, "proof_cpu": solution.proof_cpu,
                     "cpu": solution.cpu, "nodes": solution.nodes})
        proof = f"proof {solution.proof_cpu:.2f} s" if proven else "unproven"
        print(f"{case.id}  {rows[-1]['score'] or '-'}  {proof}  total {solution.cpu:.2f} s  "
              f"{solution.nodes:,} nodes", file=sys.stderr, flush=True)
    print(f"{'plies left':>10}  {'positions':>9}  {'proven':>7}  {'share':>6}  "
          f"{'median s':>8}  {'max s':>6}  {'exact length':>12}")
    for group in groups:
        mine = [r for r in rows if r["group"] == group]
        proven = [r for r in mine if r["proven"]]
        times = [r["proof_cpu"] for r in proven]
        print(f"{group:>10}  {len(mine):>9}  {len(proven):>7}  "
              f"{100 * len(proven) / max(1, len(mine)):>5.0f}%  "
              f"{statistics.median(times) if times else float('nan'):>8.2f}  "
              f"{max(times) if times else float('nan'):>6.2f}  "
              f"{sum(r['exact'] for r in proven):>12}")
    if report_path:
        with open(report_path, "w", encoding="utf-8") as handle:
            json.dump(rows, handle, indent=1)


def regions() -> None:
    """Per group: positions split into one-player territories, mean minable rock cells
    and mean legal turns."""
    game = get_game("mattock", impl="reference")
    rows = {group: [] for group in PLIES_BEFORE_END}
    for case in parse_suite(read_text(SUITE), SUITE):
        state = game.parse_position(case.position)
        pos, board = state.pos, state.board
        alive = {c for c in range(board.cell_count)
                 if pos.tiles[c] == TILE or state._collapse_ok(c)}
        owners = []
        while alive:                                     # one region a pass
            region, frontier = set(), [alive.pop()]
            while frontier:
                cell = frontier.pop()
                region.add(cell)
                for n in board.neighbours[cell]:
                    if n in alive:
                        alive.discard(n)
                        frontier.append(n)
            owners.append({pos.miners[c] for c in region} - {EMPTY})
        rock = sum(1 for c in range(board.cell_count)
                   if pos.tiles[c] != TILE and state._collapse_ok(c))
        rows[int(case.id.split("-")[2])].append(
            (all(len(o) <= 1 for o in owners), rock, len(state.legal_moves())))
    print(f"{'plies left':>10}  {'positions':>9}  {'split':>5}  {'rock to mine':>12}  "
          f"{'legal turns':>11}")
    for group, found in rows.items():
        print(f"{group:>10}  {len(found):>9}  {sum(r[0] for r in found):>5}  "
              f"{statistics.mean(r[1] for r in found):>12.1f}  "
              f"{statistics.mean(r[2] for r in found):>11.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("generate", help="play the self-play games, print the suite")
    make.add_argument("--seed", type=int, default=17)
    make.add_argument("--first", type=int, default=1, help="first game to play (1-based)")
    make.add_argument("--last", type=int, default=56, help="last game to play")
    measure = commands.add_parser("run", help="solve the suite and report per group")
    measure.add_argument("--seconds", type=float, default=10.0,
                         help="CPU seconds per position (default 10)")
    measure.add_argument("--json", dest="report", default=None, help="also write every row")
    measure.add_argument("--proof-only", action="store_true",
                         help="do not make the lengths exact after the proof")
    measure.add_argument("--part", default="1/1", help="K/N: solve every N-th position from "
                                                       "the K-th (default 1/1: all)")
    measure.add_argument("--group", type=int, action="append", choices=PLIES_BEFORE_END,
                         help="only the positions this many plies before the end "
                              "(repeatable; default all four groups)")
    measure.add_argument("--no-mobility", action="store_true",
                         help="the solver without move counts in its initial numbers")
    measure.add_argument("--symmetry", choices=("auto", "on", "off"), default="auto",
                         help="symmetric positions share table entries (default auto: "
                              "where two first moves are symmetric)")
    measure.add_argument("--decompose", choices=("auto", "on", "off"), default="auto",
                         help="search a turn as its dig and then its walk (default auto: on "
                              "for Mattock)")
    measure.add_argument("--no-weak", action="store_true",
                         help="the solver summing its children's numbers, not the weak rule")
    measure.add_argument("--epsilon", type=float, default=1.0,
                         help="the 1+epsilon trick's epsilon (default 1.0, the solver's; "
                              "0.25 before issue 32's measurements)")
    commands.add_parser("regions", help="how many positions split into one-player "
                                        "territories, rock left to mine, legal turns")
    args = parser.parse_args()
    if args.command == "regions":
        regions()
    elif args.command == "generate":
        generate(args.seed, args.first, args.last)
    else:
        run(args.seconds, args.report, args.part, not args.proof_only,
            args.group or list(PLIES_BEFORE_END), not args.no_mobility, args.symmetry,
            args.decompose, not args.no_weak, args.epsilon)


if __name__ == "__main__":
    main()
