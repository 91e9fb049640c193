"""What the commands share: the one-line errors (exit 2), the options that name a state
(GAME [POSITION] --moves --rule --deck --seed --tileset), JSON and file output, and the
command class that reads positions starting with '-'."""
from __future__ import annotations

import functools
import json
import os
import random
import sys

import click

from crystalpick.engine import GAMES, DeckBuilding, GameError, get_game, require
from crystalpick.engine.game import play_moves

from . import interrupts
from crystalpick.apps.messages import shortened
from .params import SEED, TEXT, InputPath, OutputPath


SEATS = ("first", "second")        # --seat's names of players 0 and 1
CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


class InputError(click.ClickException):
    """Bad input from the user: one line on stderr, exit status 2."""

    exit_code = 2

    def __init__(self, message: str):
        super().__init__(shortened(message))


class Interrupted(click.ClickException):
    """Ctrl-C or SIGTERM: say what was kept, exit with the shell's usual 128 + the signal
    (130, 143)."""

    def __init__(self, message: str):
        super().__init__(message)
        self.exit_code = interrupts.exit_status()


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


RULE_OPTION = click.option(
    "--rule", "rules", multiple=True, metavar="NAME=VALUE",
    help="Set a rule option (see 'crystalpick games GAME'); repeatable.")
TILESET_OPTION = click.option(
    "--tileset", "--cardset", "tileset", type=InputPath(), default=None,
    help="Component data file (a tileset, a card set), for games whose components are data.")
DECK_OPTION = click.option(
    "--deck", "decks", type=TEXT, multiple=True, metavar="NAME|FILE",
    help="For games where each player brings a deck: one per player in seat order, a sample "
         "deck name or a deck file (see 'crystalpick games').")


def deck_rules(game: str, decks: tuple[str, ...]) -> tuple[str, ...]:
    """``--deck`` values as the game's own deck rule options (NAME=VALUE, like --rule)."""
    if not decks:
        return ()
    try:
        settings = require(GAMES[game.lower()], DeckBuilding, "--deck").deck_rules(decks)
    except GameError as err:
        raise InputError(str(err)) from None
    return tuple(f"{name}={value}" for name, value in settings.items())


def game_arguments(command):
    """GAME [POSITION] --moves --rule --deck --seed --tileset --impl: how every command names
    a state (``--deck`` values become the game's deck rule options)."""
    @functools.wraps(command)
    def with_decks(*args, decks=(), **kwargs):
        kwargs["rules"] = tuple(kwargs["rules"]) + deck_rules(kwargs["game"], decks)
        return command(*args, **kwargs)

    options = [
        click.argument("game", type=click.Choice(sorted(GAMES), case_sensitive=False)),
        click.argument("position", nargs=-1),
        click.option("--moves", "moves", default="", metavar='"M1 M2 ..."',
                     help="Moves to play from POSITION (default: the start) first."),
        RULE_OPTION,
        click.option("--seed", type=SEED, default=None,
                     help="Seed for anything random (e.g. a random setup); printed when used."),
        TILESET_OPTION,
        DECK_OPTION,
    ]
    for option in reversed(options):
        with_decks = option(with_decks)
    return with_decks


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
        except BrokenPipeError:
            raise                  # output piped into e.g. head: Click exits quietly
        except OSError as err:
            raise InputError(f"{err.filename or ''}: {err.strerror or err}") from None
    return wrapper


def load_state(game, position, moves, rules, seed, tileset, impl="fast"):
    """POSITION arrives as words, so an unquoted position string still works. A bad move
    is named as one of --moves."""
    game_obj = get_game(game, parse_rules(rules), impl=impl, seed=seed, tileset=tileset)
    state = game_obj.state(" ".join(position) if position else None)
    try:
        return game_obj, play_moves(state, moves)
    except GameError as err:
        raise InputError(f"--moves: {err}") from None


def chosen_seed(seed: int | None) -> int:
    """The seed given, or a fresh one short enough to type (every command prints it)."""
    return seed if seed is not None else random.SystemRandom().randrange(2**31)


def use_colour() -> bool:
    return sys.stdout.isatty() and "NO_COLOR" not in os.environ


def emit_json(document: dict, indent: int | None = 2) -> None:
    """The command's one JSON document (``indent=None``: on one line)."""
    click.echo(json.dumps(document, indent=indent, ensure_ascii=False))
    interrupts.RUNNER.document_printed = True


def seed_note(game) -> str:
    return f"seed: {game.seed}" if game.seed is not None else ""


class PositionCommand(click.Command):
    """A command whose POSITION words may start with '-', as the tool prints Mattock
    positions (``-x3/-1---1/... o``, ``---2/...``): such a word is not an option of the
    command (no option name holds a '/'), so it is read as a position word (kept in place),
    not refused as an unknown option."""

    PLACEHOLDER = "\x00position-word-{}"

    def parse_args(self, ctx, args):
        if not any(param.name == "position" for param in self.params):
            return super().parse_args(ctx, args)
        takes_value = {name for param in self.params if isinstance(param, click.Option)
                       and not param.is_flag for name in param.opts + param.secondary_opts}
        known = {name for param in self.params for name in getattr(param, "opts", ())}
        words, rewritten = [], []
        for index, arg in enumerate(args):
            previous = args[index - 1] if index else ""
            name = arg.partition("=")[0]
            if (arg.startswith("-") and "/" in (name if arg.startswith("--") else arg)
                    and name not in known and previous not in takes_value):
                rewritten.append(self.PLACEHOLDER.format(len(words)))
                words.append(arg)
            else:
                rewritten.append(arg)
        rest = super().parse_args(ctx, rewritten)
        if words:
            restored = {self.PLACEHOLDER.format(i): word for i, word in enumerate(words)}
            ctx.params["position"] = tuple(restored.get(word, word)
                                           for word in ctx.params["position"])
        return rest


def command(*args, **kwargs):
    """``click.command`` making a :class:`PositionCommand` (main.py registers it on the group)."""
    return click.command(*args, cls=PositionCommand, **kwargs)


class OneLineErrors(click.Group):
    """Usage errors (a bad option value, a missing argument) as one line, exit status 2,
    like every other input error. Its commands read positions starting with '-'."""

    command_class = PositionCommand

    def parse_args(self, ctx, args):
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as err:
            raise InputError(err.format_message()) from None
        except KeyboardInterrupt:     # (Click would say 'Aborted!' and exit 1)
            raise Interrupted("interrupted") from None

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except click.UsageError as err:
            raise InputError(err.format_message()) from None
        except KeyboardInterrupt:             # one Ctrl-C behaviour everywhere: exit 130
            raise Interrupted("interrupted") from None
        except ImportError:
            if interrupts.RUNNER.signum is None:
                raise
            # the signal's KeyboardInterrupt, raised inside a compiled module's initialisation
            # (scipy's), comes out as "ImportError: initialization failed"
            raise Interrupted("interrupted") from None
        except MemoryError:                   # numpy's _ArrayMemoryError included
            raise InputError("out of memory: this needs more memory than the process may "
                             "use (ulimit -v, the machine's); ask for less (a smaller "
                             "configuration, --nodes, --hash)") from None
        except click.Abort as err:            # click.prompt's form of Ctrl-C
            if isinstance(err.__context__, KeyboardInterrupt):
                raise Interrupted("interrupted") from None
            raise


def svg_option(command):
    return click.option("--svg", "svg_path", type=OutputPath("the diagram"), default=None,
                        help="Also write an SVG diagram of the position to this file.")(command)


def write_svg(state, path: str | None, marks=()) -> None:
    """The diagram of ``state`` with ``marks`` (State.svg) to ``path``, if given."""
    if path:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(state.svg(marks))
        click.echo(f"diagram written to {path}", err=True)


PICTURE = OutputPath("the picture", (".svg", ".png"))   # every --plot


def plot_option(what: str):
    """``--plot FILE``: a picture of the command's results (docs/search.md, "Pictures")."""
    return click.option("--plot", "plot_path", type=PICTURE, default=None,
                        metavar="FILE.svg|FILE.png",
                        help=f"Also draw {what} to this picture (pip install "
                             f"\"crystalpick[plots]\").")


def check_plot(path: str | None) -> None:
    """Before any work: matplotlib is installed for a --plot (the file itself is checked
    writable as the option is read, :data:`PICTURE`)."""
    if path:
        from crystalpick.apps.plots import check_target
        check_target("--plot", path)


def draw(picture, document, path: str | None, *args, kept: str = "") -> None:
    """``picture(document, path, *args)`` (a :mod:`crystalpick.apps.plots` function)
    when --plot was given, and say where it went. Drawn after the results are printed, so
    a picture that fails (a full disk, a matplotlib that breaks while drawing) is one line
    saying so and what is ``kept``, the results already out."""
    if path:
        try:
            picture(document, path, *args)
        except Exception as err:         # whatever matplotlib raises: its errors are not typed
            raise InputError(f"--plot {path}: the picture could not be drawn "
                             f"({type(err).__name__}: {err}){kept}") from None
        click.echo(f"plot written to {path}", err=True)


def game_over(game_obj, state) -> dict | None:
    """Who won a finished game and why (None while it goes on)."""
    if not state.is_terminal():
        return None
    winner = state.winner()
    return {"winner": None if winner is None else game_obj.player_names[winner],
            "reason": state.end_reason()}


def game_over_text(over: dict) -> str:
    return (f"game over: {over['winner']} wins" if over["winner"] is not None
            else "game over: draw") + f" ({over['reason']})"


def position_document(game_obj, state) -> dict:
    """A position for programs (show --json, replay --json): the game and its rules, the
    position string, whose decision it is (a player, chance, or None when over)."""
    document = {"game": game_obj.name, "rules": dict(game_obj.rules),
                "position": state.position(),
                "to_move": None if state.is_terminal() else state.to_move_name(),
                "game_over": game_over(game_obj, state)}
    if game_obj.seed is not None:
        document["seed"] = game_obj.seed
    return document


def read_records(path: str):
    from crystalpick.apps.match.records import parse_records, read_text

    return parse_records(read_text(path), path)


def write_atomically(path: str, text: str) -> None:
    """Write the whole file or nothing: a reader never sees half of it. What exists and is
    not a regular file (``-o /dev/null``, a pipe) is written to, never renamed over: that
    would replace the device with a file."""
    if os.path.exists(path) and not os.path.isfile(path):
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        return
    partial = f"{path}.partial"
    with open(partial, "w", encoding="utf-8") as handle:
        handle.write(text)
    os.replace(partial, path)
