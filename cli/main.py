"""The ``crystalpick`` command line: a thin Click layer over the game interface.

No game logic lives here: every command builds a game from its name and options, gets a
state from the game, and prints what the state or the engine reports. Errors caused by the
user's input (``engine.GameError``) become a one-line message and exit status 2.
"""
from __future__ import annotations

import functools
import json
import os
import sys
import time

import click

from engine import GAMES, GameError, get_game
from engine.perft import divide

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


class InputError(click.ClickException):
    """Bad input from the user: one line on stderr, exit status 2."""

    exit_code = 2


def parse_rules(values: tuple[str, ...]) -> dict[str, str]:
    rules = {}
    for item in values:
        name, sep, value = item.partition("=")
        if not sep or not name or not value:
            raise InputError(f"--rule {item!r}: expected NAME=VALUE, e.g. --rule size=7")
        if name in rules and rules[name] != value:
            raise InputError(f"--rule {name} given twice ({rules[name]} and {value})")
        rules[name] = value
    return rules


def game_arguments(command):
    """GAME [POSITION] --moves --rule --seed --tileset --impl: how every command names a state."""
    options = [
        click.argument("game", type=click.Choice(sorted(GAMES), case_sensitive=False)),
        click.argument("position", nargs=-1),
        click.option("--moves", "moves", default="", metavar='"M1 M2 ..."',
                     help="Moves to play from POSITION (default: the start) first."),
        click.option("--rule", "rules", multiple=True, metavar="NAME=VALUE",
                     help="Set a rule option (see 'crystalpick games'); repeatable."),
        click.option("--seed", type=int, default=None,
                     help="Seed for anything random (e.g. a random setup); printed when used."),
        click.option("--tileset", type=click.Path(dir_okay=False), default=None,
                     help="Component data file, for games whose components are data."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def impl_option(command):
    return click.option("--impl", type=click.Choice(["fast", "reference"]), default="fast",
                        show_default=True,
                        help="Cython engine or the plain-Python reference engine.")(command)


def json_option(command):
    return click.option("--json", "as_json", is_flag=True,
                        help="Print one JSON document instead of text.")(command)


def user_errors(command):
    """Turn input errors raised anywhere below into the one-line, status-2 form."""
    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except GameError as err:
            raise InputError(str(err)) from None
        except OSError as err:
            raise InputError(f"{err.filename or ''}: {err.strerror or err}") from None
    return wrapper


def load_state(game, position, moves, rules, seed, tileset, impl="fast"):
    """POSITION arrives as words, so an unquoted position string still works."""
    game_obj = get_game(game, parse_rules(rules), impl=impl, seed=seed, tileset=tileset)
    state = game_obj.state(" ".join(position) if position else None, moves)
    return game_obj, state


def use_colour() -> bool:
    return sys.stdout.isatty() and "NO_COLOR" not in os.environ


def emit_json(document: dict) -> None:
    click.echo(json.dumps(document, indent=2, ensure_ascii=False))


def seed_note(game) -> str:
    return f"seed: {game.seed}" if game.seed is not None else ""


@click.group(context_settings=CONTEXT)
@click.version_option(package_name="crystalpick")
def cli():
    """Analysis, perft and engine matches for Mattock and Maatatahay.

    Positions are given in each game's one-line notation (see 'crystalpick show GAME' for the
    start position's string); moves in the game's move notation.
    """


@cli.command()
@json_option
def games(as_json):
    """List the games and their rule options with defaults."""
    described = [get_game(name).describe() for name in sorted(GAMES)]
    if as_json:
        emit_json({"games": described})
        return
    for info in described:
        click.echo(f"{info['name']}  (players: {', '.join(info['players'])})")
        for note in info.get("notes", []):
            click.echo(f"  {note}")
        for rule in info["rules"]:
            choices = "|".join(rule["choices"])
            click.echo(f"  --rule {rule['name']}={choices}  (default {rule['default']})")
            click.echo(f"      {rule['help']}")
        click.echo("")


@cli.command()
@game_arguments
@impl_option
@user_errors
def show(game, position, moves, rules, seed, tileset, impl):
    """Draw a position: board, side to move, pieces in hand and the position string."""
    game_obj, state = load_state(game, position, moves, rules, seed, tileset, impl)
    click.echo(state.render(color=use_colour()))
    if state.is_terminal():
        winner = state.winner()
        click.echo("game over: " + (f"{game_obj.player_names[winner]} wins" if winner is not None
                                    else "draw"))
    if seed_note(game_obj):
        click.echo(seed_note(game_obj))


@cli.command()
@game_arguments
@impl_option
@json_option
@user_errors
def moves(game, position, moves, rules, seed, tileset, impl, as_json):
    """List the legal moves (at a chance node: the outcomes and their probabilities)."""
    game_obj, state = load_state(game, position, moves, rules, seed, tileset, impl)
    document = {"game": game_obj.name, "position": state.position(),
                "to_move": state.to_move_name()}
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        document["count"] = len(outcomes)
        document["moves"] = [state.move_to_str(m) for m, _ in outcomes]
        document["probabilities"] = [p for _, p in outcomes]
    else:
        legal = state.legal_moves()
        document["count"] = len(legal)
        document["moves"] = [state.move_to_str(m) for m in legal]
    if game_obj.seed is not None:
        document["seed"] = game_obj.seed
    if as_json:
        emit_json(document)
        return
    click.echo(f"{document['count']} legal moves for {document['to_move']}:")
    if "probabilities" in document:
        for name, p in zip(document["moves"], document["probabilities"]):
            click.echo(f"  {name}  {p:.6g}")
    else:
        click.echo(" ".join(document["moves"]))
    if seed_note(game_obj):
        click.echo(seed_note(game_obj))


@cli.command()
@game_arguments
@click.option("--depth", "-d", type=click.IntRange(min=0), required=True,
              help="Number of plies to count.")
@click.option("--divide", "divided", is_flag=True,
              help="Also count the subtree under each legal move (for debugging movegen).")
@impl_option
@json_option
@user_errors
def perft(game, position, moves, rules, seed, tileset, depth, divided, impl, as_json):
    """Count the move paths of length DEPTH from a position.

    Every ply counts, decisions and chance outcomes alike, so in games with chance the count
    is the number of paths through both. The last ply is bulk-counted (its moves are listed,
    not played); 'nps' is counted nodes per second.
    """
    game_obj, state = load_state(game, position, moves, rules, seed, tileset, impl)
    started = time.perf_counter()
    if divided and depth >= 1:
        counts = divide(state, depth)
        nodes = sum(counts.values())
    else:
        counts, nodes = None, state.perft(depth)
    seconds = time.perf_counter() - started
    nps = nodes / seconds if seconds > 0 else 0.0
    document = {"game": game_obj.name, "position": state.position(), "depth": depth,
                "nodes": nodes, "seconds": round(seconds, 6), "nps": round(nps), "impl": impl}
    if counts is not None:
        document["divide"] = counts
    if as_json:
        emit_json(document)
        return
    for name, count in (counts or {}).items():
        click.echo(f"{name}: {count}")
    if counts is not None:
        click.echo("")
    click.echo(f"perft {depth}: {nodes:,} nodes in {seconds:.3f} s ({nps:,.0f} nodes/s, {impl})")


def main():
    cli(prog_name="crystalpick")


if __name__ == "__main__":
    main()
