"""``crystalpick solve`` for a game with hidden information or simultaneous choices: the exact
solver (solvers/exact/solver.py) instead of proof-number search. Text for people, one JSON
document for programs (schema ``docs/exact_solve.schema.json``), also when Ctrl-C stops it."""
from __future__ import annotations

import click

from crystalpick.engine import get_game
from crystalpick.engine.game import GameError
from crystalpick.solvers.exact.solver import FIRST_DECISIONS_SHOWN, Stopped, solve_exactly

from .common import Interrupted, emit_json
from .interrupts import stoppable

SCHEMA = "crystalpick.exact-solve/1"


def exact_state(game: str, position, moves: str, rules: dict, seed, tileset, config):
    """The game (a named small configuration, or the options given) and the state to solve:
    POSITION, or the setup before the deal (chance deals the hidden cards), then ``moves``."""
    if config and (rules or tileset):
        raise GameError("--config names the rules and component data: give it without "
                        "--rule, --deck or --cardset")
    game_obj = get_game(game, rules, seed=seed, tileset=tileset)
    if config:
        game_obj = game_obj.small_configuration(config)
    if position:
        return game_obj, game_obj.state(" ".join(position), moves)
    state = game_obj.setup_state()
    for number, text in enumerate(moves.split(), 1):
        try:
            state.play(state.parse_move(text))
        except GameError as err:
            raise type(err)(f"--moves: move {number}: {err}") from None
    return game_obj, state


def stopped_document(halt: Stopped, inputs: dict) -> dict:
    """Stopped before any strategy was found: how far it came."""
    return {"schema": SCHEMA, "input": inputs, "result": None, "interrupted": True,
            "stopped": {"phase": halt.phase, "histories_estimated": halt.histories,
                        "nodes": halt.nodes, "seconds": round(halt.seconds, 4)}}


def solution_document(solution, inputs: dict, player_names) -> dict:
    return {
        "schema": SCHEMA, "input": inputs, "interrupted": solution.interrupted,
        "stopped": None,
        "result": {
            "value": solution.value, "lower": solution.lower, "upper": solution.upper,
            "exploitability": solution.exploitability, "method": solution.method,
            "histories_estimated": solution.histories, "nodes": solution.nodes,
            "information_sets": solution.information_sets,
            "seconds": round(solution.seconds, 4),
            "first_decisions": [
                {"player": player_names[d.player], "observation": d.observation,
                 "reach": d.reach,
                 "strategy": [{"move": m, "probability": p} for m, p in d.moves]}
                for d in solution.first_decisions],
        },
    }


def solution_text(solution, player_names) -> list[str]:
    exact = solution.lower == solution.upper
    value = (f"{solution.value:.6f}" if exact
             else f"{solution.value:.6f} (between {solution.lower:.6f} and {solution.upper:.6f})")
    out = [f"value: {value} ({player_names[0]}'s win probability, a draw counts 1/2)",
           f"method: {solution.method}",
           f"exploitability of the strategy found: {solution.exploitability:.2e} (exact)",
           f"size: {solution.nodes:,} nodes, {solution.information_sets:,} information sets "
           f"(about {solution.histories:.3g} histories)",
           f"first decision ({len(solution.first_decisions)} information sets):"]
    for decision in solution.first_decisions[:FIRST_DECISIONS_SHOWN]:
        moves = " ".join(f"{m} {p:.4f}" for m, p in decision.moves)
        out.append(f"  {player_names[decision.player]}, reached {decision.reach:.4f}: {moves}")
        out.append(f"    {decision.observation}")
    hidden = len(solution.first_decisions) - FIRST_DECISIONS_SHOWN
    if hidden > 0:
        out.append(f"  ... and {hidden} more (--json lists them all)")
    out.append(f"solved in {solution.seconds:.1f} s" + (
        " (interrupted: CFR+'s average so far, its bounds exact)" if solution.interrupted
        else ""))
    return out


def solve_hidden(game, position, moves, rules: dict, seed, tileset, config, method, target,
                 nodes, as_json) -> None:
    """Parse, call the library once, print."""
    from crystalpick.solvers.exact.tree import DEFAULT_MAX_NODES
    game_obj, state = exact_state(game, position, moves, rules, seed, tileset, config)

    def progress(text: str) -> None:
        click.echo(text, err=True)

    def solve(stop):
        try:
            return solve_exactly(state, method=method, target=target,
                                 max_nodes=nodes or DEFAULT_MAX_NODES, progress=progress,
                                 stop=stop)
        except Stopped as halt:
            return halt
    solution, interrupted = stoppable(solve)
    inputs = {"game": game_obj.name, "config": config, "position": state.position(),
              "moves": moves.split(), "rules": game_obj.rules, "method": method,
              "target": target if method == "cfr" else None, "max_nodes": nodes}
    if isinstance(solution, Stopped):
        if as_json:
            emit_json(stopped_document(solution, inputs))
        raise Interrupted(f"interrupted while {solution.phase}: nothing solved yet")
    if as_json:
        emit_json(solution_document(solution, inputs, game_obj.player_names))
    else:
        click.echo(f"position: {state.position()}")
        click.echo("\n".join(solution_text(solution, game_obj.player_names)))
    if interrupted:
        raise Interrupted("interrupted: CFR+'s average so far is above" if solution.interrupted
                          else "interrupted after the solve had ended: the solution is whole")
