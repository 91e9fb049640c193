"""The ``crystalpick`` command line: a thin Click layer over the game interface.

No game logic lives here: every command builds a game from its name and options, gets a
state from the game, and prints what the state or the engine reports. Errors caused by the
user's input (``engine.GameError``) become a one-line message and exit status 2.
"""
from __future__ import annotations

import contextlib
import functools
import io
import json
import os
import sys
import time

import click

from crystalpick.engine import GAMES, DeckBuilding, GameError, get_game, require
from crystalpick.engine.perft import perft_by_move

from . import interrupts
from .interrupts import stoppable
from .start import leave, main as start_main
from .output import analysis_document, analysis_text, diagram_marks, moves_text, shortened
from .params import (BENCH_DEPTH, BENCH_PERFT_DEPTH, BENCH_SIMS, CONCURRENCY, DEPTH,
                     GAME_COUNT, IMPROVE_STEPS, MULTIPV, NODES, PERFT_DEPTH,
                     RECORD_NUMBER, REPLAY_PLY, SEED, SIMS, SOLVE_HASH, SWAP_OUTS, TIME)

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
    "--tileset", "--cardset", "tileset", type=click.Path(dir_okay=False), default=None,
    help="Component data file (a tileset, a card set), for games whose components are data.")
DECK_OPTION = click.option(
    "--deck", "decks", multiple=True, metavar="NAME|FILE",
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


class PositionCommand(click.Command):
    """A command whose POSITION words may start with '-', as the tool prints Mattock
    positions (``-x3/-1---1/... o``): such a word is not an option of the command, so it is
    read as a position word (kept in place), not refused as an unknown option."""

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
            if (arg.startswith("-") and not arg.startswith("--") and "/" in arg
                    and arg.partition("=")[0] not in known and previous not in takes_value):
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


class OneLineErrors(click.Group):
    """Usage errors (a bad option value, a missing argument) as one line, exit status 2,
    like every other input error. Its commands read positions starting with '-'."""

    command_class = PositionCommand

    def parse_args(self, ctx, args):
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as err:
            raise InputError(err.format_message()) from None

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except click.UsageError as err:
            raise InputError(err.format_message()) from None
        except KeyboardInterrupt:             # one Ctrl-C behaviour everywhere: exit 130
            raise Interrupted("interrupted") from None
        except click.Abort as err:            # click.prompt's form of Ctrl-C
            if isinstance(err.__context__, KeyboardInterrupt):
                raise Interrupted("interrupted") from None
            raise


@click.group(cls=OneLineErrors, context_settings=CONTEXT)
@click.version_option(package_name="crystalpick")
def cli():
    """Analysis, perft and engine matches for Mattock, Maatatahay and the card battle game.

    Positions are given in each game's one-line notation (see 'crystalpick show GAME' for the
    start position's string); moves in the game's move notation.
    """
    for stream in (sys.stdin, sys.stdout, sys.stderr):
        # undecodable input is replaced, not fatal, whatever PYTHONIOENCODING says
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="replace")


@cli.command()
@click.argument("game", type=click.Choice(sorted(GAMES), case_sensitive=False), required=False)
@json_option
def games(game, as_json):
    """List the games (or only GAME) and their rule options with defaults."""
    described = [get_game(name).describe() for name in ([game.lower()] if game else sorted(GAMES))]
    if as_json:
        emit_json({"games": described})
        return
    for info in described:
        click.echo(f"{info['name']}  (players: {', '.join(info['players'])})")
        if "tileset" in info:
            click.echo(f"  tileset: {info['tileset']['label']}")
        for rule in info["rules"]:
            choices = "|".join(rule["choices"])
            click.echo(f"  --rule {rule['name']}={choices}  (default {rule['default']})")
            click.echo(f"      {rule['help']}")
        click.echo("")


@cli.command()
@json_option
def engines(as_json):
    """List the engines, the search limits they obey and their options.

    Give them as ENGINE[:KEY=VALUE,...] to analyse, play and match (e.g. mcts:time=2,c=1.2),
    or by the same names to the protocol's setoption.
    """
    from crystalpick.search.specs import EXTERNAL, SCHEMAS

    described = [schema.describe() for schema in SCHEMAS.values()]
    if as_json:
        emit_json({"engines": described})
        return
    for schema in SCHEMAS.values():
        click.echo(f"{schema.name}  {schema.help}")
        for title, options in (("limits", schema.limits), ("options", schema.options)):
            if options:
                click.echo(f"  {title}:")
            for option in options:
                click.echo(f"    {option.name}={option.expected()}  (default "
                           f"{option.default_text()})")
                click.echo(f"        {option.help}")
        click.echo("")
    click.echo(f"{EXTERNAL}:COMMAND  an external program speaking the engine protocol "
               f"(docs/protocol.md)")


def svg_option(command):
    return click.option("--svg", "svg_path", type=click.Path(dir_okay=False), default=None,
                        help="Also write an SVG diagram of the position to this file.")(command)


def write_svg(state, path: str | None, marks=()) -> None:
    """The diagram of ``state`` with ``marks`` (State.svg) to ``path``, if given."""
    if path:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(state.svg(marks))
        click.echo(f"diagram written to {path}", err=True)


def plot_option(what: str):
    """``--plot FILE``: a picture of the command's results (docs/search.md, "Pictures")."""
    return click.option("--plot", "plot_path", type=click.Path(dir_okay=False), default=None,
                        metavar="FILE.svg|FILE.png",
                        help=f"Also draw {what} to this picture (pip install "
                             f"\"crystalpick[plots]\").")


def check_plot(path: str | None) -> None:
    """Before any work: a --plot file can be written (.svg or .png, its folder exists) and
    matplotlib is installed."""
    if path:
        from crystalpick.search.plots import check_target
        check_folder("--plot", path, "the picture")
        check_target("--plot", path)


def draw(picture, document, path: str | None, *args) -> None:
    """``picture(document, path, *args)`` (a :mod:`crystalpick.search.plots` function)
    when --plot was given, and say where it went."""
    if path:
        picture(document, path, *args)
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


@cli.command()
@game_arguments
@impl_option
@svg_option
@json_option
@user_errors
def show(game, position, moves, rules, seed, tileset, impl, svg_path, as_json):
    """Draw a position: board, side to move, pieces in hand and the position string."""
    game_obj, state = load_state(game, position, moves, rules, seed, tileset, impl)
    write_svg(state, svg_path)
    if as_json:
        emit_json(position_document(game_obj, state))
        return
    click.echo(state.render(color=use_colour()))
    if state.is_terminal():
        click.echo(game_over_text(game_over(game_obj, state)))
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
        listed = [m for m, _ in outcomes]
        document["probabilities"] = [p for _, p in outcomes]
    else:
        listed = state.legal_moves()
    document["count"] = len(listed)
    document["moves"] = [state.move_to_str(m) for m in listed]
    described = [state.describe_move(m) for m in listed]
    if described != document["moves"]:
        document["descriptions"] = described     # e.g. with the card's name
    if game_obj.seed is not None:
        document["seed"] = game_obj.seed
    if as_json:
        emit_json(document)
        return
    if "probabilities" in document:
        click.echo(f"chance node: {document['count']} outcomes (outcome, probability):")
        for name, p in zip(described, document["probabilities"]):
            click.echo(f"  {name}  {p:.6g}")
    else:
        click.echo(f"{document['count']} legal moves for {document['to_move']}:")
        click.echo(moves_text(state, listed))
    if seed_note(game_obj):
        click.echo(seed_note(game_obj))


@cli.command()
@game_arguments
@click.option("--depth", "-d", type=PERFT_DEPTH, required=True,
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
    from tqdm import tqdm

    if divided and depth < 1:
        raise InputError("--divide needs --depth 1 or more (it counts under each root move)")
    game_obj, state = load_state(game, position, moves, rules, seed, tileset, impl)
    root = state.position()
    started = time.perf_counter()
    counts, at_work = {}, {"position": root}      # what was being counted when stopped
    if depth >= 5 or divided:   # root move by root move: progress shown
        roots = len(state.legal_moves())

        def count_roots(stop):
            nonlocal at_work
            with tqdm(total=roots, desc="root moves", file=sys.stderr, disable=None,
                      leave=False) as bar:
                for count in perft_by_move(state, depth, stop):
                    if count.nodes is None:
                        at_work = {"move": count.move, "position": count.position}
                    else:
                        counts[count.move] = count.nodes
                        bar.update(1)
            return sum(counts.values())

        nodes, interrupted = stoppable(count_roots)
        finished = len(counts) == roots
    else:
        nodes, interrupted = stoppable(lambda stop: state.perft(depth, stop))
        finished = nodes is not None
    seconds = time.perf_counter() - started
    if finished:
        interrupted = None              # stopped after the last count: nothing is missing
    nodes = nodes or 0
    nps = nodes / seconds if seconds > 0 else 0.0
    document = {"game": game_obj.name, "position": root, "depth": depth,
                "nodes": nodes, "seconds": round(seconds, 6), "nps": round(nps), "impl": impl}
    if divided or interrupted:
        document["divide"] = counts
    if game_obj.seed is not None:
        document["seed"] = game_obj.seed
    stopped = None
    if interrupted:
        document.update(interrupted=True, counting=at_work)
        done = f" after {len(counts)} of {roots} root moves ({nodes:,} nodes" \
            f"{', listed above' if counts else ''}) of" if depth >= 5 or divided else ":"
        counting = f"{at_work['move']} ({at_work['position']})" if "move" in at_work else root
        stopped = Interrupted(f"interrupted{done} perft {depth} from {root}, while counting "
                              f"{counting}")
    if as_json:
        emit_json(document)
    else:
        for name, count in counts.items() if divided or interrupted else ():
            click.echo(f"{name}: {count}")
        if counts and (divided or interrupted):
            click.echo("")
        click.echo(f"position: {root}")
        if seed_note(game_obj):
            click.echo(seed_note(game_obj))
        if not interrupted:
            click.echo(f"perft {depth}: {nodes:,} nodes in {seconds:.3f} s ({nps:,.0f} "
                       f"nodes/s, {impl})")
    if stopped:
        raise stopped


@cli.command()
@game_arguments
@click.option("--engine", "engine_spec", default=None, metavar="ENGINE[:KEY=VALUE,...]",
              help="The engine and its options, e.g. mcts:c=1.2,workers=2 or "
                   "alphabeta:tt_megabytes=256 (see 'crystalpick engines'). Default: "
                   "alphabeta, or ismcts for a game with hidden information.")
@click.option("--seat", type=click.Choice(SEATS), default=None,
              help="Whose view to analyse from (default: the player to move; a VIEW "
                   "position is its viewer's). ismcts reads only that player's observation.")
@click.option("--time", "time_limit", type=TIME, default=None,
              help="Seconds to search.")
@click.option("--depth", type=DEPTH, default=None, help="Alpha-beta depth.")
@click.option("--nodes", type=NODES, default=None, help="Node budget.")
@click.option("--sims", type=SIMS, default=None, help="MCTS simulations.")
@click.option("--multipv", type=MULTIPV, default=1, show_default=True,
              help="Number of best lines to report.")
@click.option("--stream", is_flag=True, help="With --json: one JSON line per search report.")
@svg_option
@json_option
@user_errors
def analyse(game, position, moves, rules, seed, tileset, engine_spec, seat, time_limit, depth,
            nodes, sims, multipv, stream, svg_path, as_json):
    """Search a position: best move, principal variation and evaluation.

    Limits may be given in the engine spec (mcts:sims=500) or as --time/--depth/--nodes/
    --sims; a flag overrides the same limit in the spec. Without any limit the search runs
    for 1 second. MCTS and ISMCTS take --seed as their seed unless the spec sets one. Scores
    and win rates are from the point of view printed above the table (the side to move, or
    --seat). For a game with hidden information POSITION may be a player's view as 'show'
    prints it (cardbattle view=P2 ...), and ismcts recommends a mixed strategy: a
    probability per option. --svg draws the position with every line found, its score or
    probability beside it. Ctrl-C stops the search and prints the best result found so far.
    """
    from crystalpick.search.analysis import request_analysis

    check_folder("--svg", svg_path, "the diagram")
    game_obj, state = load_state(game, position, moves, rules, seed, tileset)
    request = request_analysis(state, engine_spec, {"depth": depth, "nodes": nodes,
                                                    "sims": sims, "time": time_limit},
                               seat=None if seat is None else SEATS.index(seat), seed=seed,
                               multipv=multipv)
    inputs = request.inputs(moves.split())
    if not as_json:
        seen = state
        if game_obj.capabilities.hidden_information:   # the viewer's screen: what they know
            seen = state.clone()
            seen.observer = request.viewer
        click.echo(seen.render(color=use_colour()))
        click.echo("")
    with search_progress(request.limits, inputs, as_json and stream) as progress:
        result, interrupted = stoppable(lambda stop: request.run(progress, stop))
    write_svg(state, svg_path, diagram_marks(result))
    if as_json:
        document = analysis_document(result, inputs, final=True, describe=state.describe_move)
        document.update({"interrupted": True} if interrupted else {})
        click.echo(json.dumps(document) if stream else json.dumps(document, indent=2))
    else:
        click.echo(analysis_text(result, state.to_move_name(), interrupted,
                                 state.describe_move))
        if game_obj.seed is not None and game_obj.seed != result.seed:
            click.echo(f"setup {seed_note(game_obj)}")
    if interrupted:
        raise Interrupted("interrupted: the best result so far is above")


@contextlib.contextmanager
def search_progress(limits, inputs: dict, stream: bool):
    """A progress callback for a search: a bar on stderr (a time bar under a time limit),
    and with ``stream`` each report as a JSON line on stdout."""
    from tqdm import tqdm

    # leave=False: a search that ends before its time (a proof, the next iteration not worth
    # starting) would otherwise leave the bar frozen part-way; the summary says the time.
    bar = tqdm(total=limits.time, desc="search", file=sys.stderr, disable=None, leave=False,
               bar_format="{l_bar}{bar}| {elapsed}/{total}s {postfix}" if limits.time else None)

    def progress(report):
        if limits.time:
            bar.n = min(report.elapsed, limits.time)
        bar.set_postfix_str(f"nodes {report.nodes:,} nps {report.nps:,.0f} best "
                            f"{report.best_move_str}", refresh=True)
        if stream:
            click.echo(json.dumps(analysis_document(report, inputs, final=False)))
    try:
        yield progress
    finally:
        bar.close()


@cli.command()
@game_arguments
@click.option("--hash", "hash_mb", type=SOLVE_HASH, default=64,
              show_default=True, help="Transposition table size in MB.")
@click.option("--time", "time_limit", type=TIME, default=None,
              help="Seconds to search (default: until solved or Ctrl-C).")
@click.option("--nodes", type=NODES, default=None, help="Node budget.")
@click.option("--resume", "resume_path", type=click.Path(dir_okay=False), default=None,
              help="Keep the table in this file: read if it exists, written every minute "
                   "and at the end, so a long solve continues where it stopped.")
@click.option("--config", default=None, metavar="NAME",
              help="Hidden information: a named small configuration (e.g. boost-3).")
@click.option("--method", type=click.Choice(["lp", "cfr"]), default="lp", show_default=True,
              help="Hidden information: the sequence-form LP (exact) or CFR+ to --target.")
@click.option("--target", type=click.FloatRange(1e-9, 0.5), default=1e-6, show_default=True,
              help="Hidden information, --method cfr: the exploitability to reach.")
@json_option
@user_errors
def solve(game, position, moves, rules, seed, tileset, hash_mb, time_limit, nodes,
          resume_path, config, method, target, as_json):
    """Prove the result of a position: win or loss for the side to move, in how many
    plies, and the main line (depth-first proof-number search, docs/search.md).

    A game with hidden information or simultaneous choices is solved exactly instead
    (docs/cardbattle.md): from POSITION or the setup, the value, the method, the
    exploitability and the first decision's equilibrium strategy; --nodes bounds the tree.
    Progress goes to stderr; Ctrl-C prints what is proven so far (e.g. which first moves
    lose) and exits with status 130.
    """
    from tqdm import tqdm

    if not GAMES[game.lower()].capabilities.perfect_information:
        from .exact_solving import solve_hidden
        if time_limit is not None or resume_path:
            raise InputError("--time and --resume are for proof-number search; the exact "
                             "solver runs to the end (--nodes bounds its tree)")
        return solve_hidden(game, position, moves, parse_rules(rules), seed, tileset, config,
                            method, target, nodes, as_json)
    if config:
        raise InputError(f"--config: {game} is solved by proof-number search; named small "
                         f"configurations are for games with hidden information")

    from crystalpick.search.solve import DamagedTable, Solver

    from .solving import progress_text, solution_document, solution_text

    check_folder("--resume", resume_path, "the table")
    game_obj, state = load_state(game, position, moves, rules, seed, tileset)
    solver = Solver(game_obj, hash_mb)
    if resume_path:
        try:
            solver.load(resume_path)
        except DamagedTable as err:     # never trusted: solved afresh, the file rewritten
            click.echo(f"warning: {err}; ignored, solving afresh", err=True)
    if state.is_terminal():
        raise InputError("the game is over in this position: nothing to solve")
    bar = tqdm(desc="solve", file=sys.stderr, disable=None, bar_format="{desc} {postfix}")

    def progress(report):
        bar.set_postfix_str(progress_text(report), refresh=True)

    try:
        solution, interrupted = stoppable(
            lambda stop: solver.solve(state, seconds=time_limit, nodes=nodes, stop=stop,
                                      progress=progress, save_path=resume_path))
    finally:
        bar.close()
    inputs = {"game": game_obj.name, "position": state.position(), "moves": moves.split(),
              "rules": game_obj.rules, "hash_mb": hash_mb, "time": time_limit,
              "nodes": nodes, "resume": resume_path}
    if as_json:
        emit_json(solution_document(solution, inputs, game_obj.player_names))
    else:
        click.echo(f"position: {state.position()}")
        click.echo(solution_text(solution, game_obj.player_names))
    if resume_path:
        click.echo(f"table written to {resume_path}", err=True)
    if interrupted:
        raise Interrupted("interrupted" + ("" if solution.score is not None
                                           else ": the position is not proven yet"))


@cli.command()
@game_arguments
@click.option("--engine", "engine_spec", default=None, metavar="SPEC",
              help="The engine, as for 'match' (e.g. mcts:time=2,c=1.2). Default: "
                   "alphabeta:time=1, or ismcts:time=1 for a game with hidden information.")
@click.option("--human", type=click.Choice(["first", "second", "both", "none"]),
              default="first", show_default=True, help="Which side(s) you play.")
@click.option("--save", "save_path", default=None, metavar="FILE",
              help="Save the game's record to FILE when it ends (also when you quit or press "
                   "Ctrl-C). Without it the record is printed at the end, or, when you play "
                   "at a terminal, you are asked for a file name first.")
@user_errors
def play(game, position, moves, rules, seed, tileset, engine_spec, human, save_path):
    """Play a game in the terminal against an engine (or watch engines play with --human none).

    At your turn type a move, or: moves, show, hint, undo, save FILE, help, quit. The game is
    kept when it ends: saved (--save FILE), or printed as a record.
    """
    import random as _random

    from crystalpick.search.engines import default_engine
    from crystalpick.search.match.termination import EngineFailure, EngineStartError
    from crystalpick.search.specs import parse_spec

    from .play import TerminalGame

    seed = seed if seed is not None else _random.SystemRandom().randrange(2**31)
    game_obj, state = load_state(game, position, moves, rules, seed, tileset)
    engine_spec = f"{default_engine(game_obj)}:time=1" if engine_spec is None else engine_spec
    try:
        parse_spec(engine_spec)
    except ValueError as err:
        raise InputError(str(err)) from None
    humans = {"first": {0}, "second": {1}, "both": {0, 1}, "none": set()}[human]
    try:
        terminal = TerminalGame(game_obj, state, engine_spec, humans, seed, use_colour(),
                                save_path, offer_save=bool(humans) and sys.stdin.isatty())
    except EngineStartError as err:
        raise InputError(f"engine {err}") from None
    interrupted = False
    try:
        terminal.run()
    except (KeyboardInterrupt, click.Abort) as err:
        if isinstance(err, click.Abort) and not isinstance(err.__context__, KeyboardInterrupt):
            raise
        interrupted = True
        if save_path and terminal.record.plies:
            terminal.save(save_path)
        raise Interrupted(f"interrupted after {len(terminal.record.plies)} plies (seed "
                          f"{seed}); --save FILE or 'save FILE' at the prompt keeps a game"
                          ) from None
    except EngineFailure as err:
        raise InputError(f"engine {engine_spec!r} failed ({err.termination.label}): "
                         f"{err}") from None
    finally:
        terminal.close(at_once=interrupted)


@cli.command()
@click.argument("game", type=click.Choice(sorted(GAMES), case_sensitive=False), required=False)
@click.option("--impl", type=click.Choice(["fast", "reference"]), default="fast",
              show_default=True, help="Implementation for the perft part.")
@click.option("--perft-depth", type=BENCH_PERFT_DEPTH, default=None,
              help="Override the suite's perft depth.")
@click.option("--depth", type=BENCH_DEPTH, default=None,
              help="Override the suite's alpha-beta depth.")
@click.option("--sims", type=BENCH_SIMS, default=None,
              help="Override the suite's MCTS simulations.")
@click.option("--profile", "profile_path", type=click.Path(dir_okay=False), default=None,
              help="Run under cProfile, print the top functions and save the profile here.")
@plot_option("the nodes/second of every part (perft, each searcher) per game")
@json_option
@user_errors
def bench(game, impl, perft_depth, depth, sims, profile_path, plot_path, as_json):
    """Run the fixed bench suite: perft and the game's searchers (alpha-beta and MCTS, or
    ISMCTS for hidden information) on every bench position.

    Prints nodes, time and nodes/second per position and in total, then 'signature: N', the
    total node count, which changes only when move generation or search behaviour changes.
    """
    import dataclasses

    from crystalpick.search.bench import (bench_game, benched_games, rates_by_game,
                                          signature, totals)
    from crystalpick.search.plots import rates_chart

    check_folder("--profile", profile_path, "the profile")
    check_plot(plot_path)
    names = [game.lower()] if game else benched_games()
    if game and GAMES[names[0]].bench_settings is None:
        raise click.UsageError(f"{game} has no bench workload; games with one: "
                               f"{', '.join(benched_games())}")

    rows = []

    def run_all(stop):
        for name in names:
            settings = dataclasses.replace(
                GAMES[name].bench_settings, **{k: v for k, v in (("perft_depth", perft_depth),
                                                    ("alphabeta_depth", depth),
                                                    ("mcts_simulations", sims)) if v})
            if not as_json:
                searches = ", ".join(
                    f"{searcher} " + ", ".join(f"{limit} {value}" for limit, value in
                                               settings.budget(searcher).items())
                    for searcher in settings.searchers)
                click.echo(f"{name}: perft depth {settings.perft_depth} ({impl}), {searches}")
            rows.extend(bench_game(name, settings, impl, None if as_json else print_row, stop))
            if stop.is_set():
                break

    # rows print as they finish, so the id column is as wide as the longest id of them all
    id_width = max(len(case.id) for name in names for case in GAMES[name]().bench_suite())

    def print_row(row):
        parts = "  ".join(f"{part} {m.nodes:>10,} {m.seconds:6.2f}s {m.nps:>12,.0f}/s"
                          for part, m in row.parts.items())
        click.echo(f"  {row.position_id:<{id_width}} {parts}")

    if profile_path:
        import cProfile
        import pstats
        profiler = cProfile.Profile()
        _, interrupted = stoppable(lambda stop: profiler.runcall(run_all, stop))
        profiler.dump_stats(profile_path)
        pstats.Stats(profiler, stream=sys.stderr).sort_stats("cumulative").print_stats(15)
    else:
        _, interrupted = stoppable(run_all)
    total = totals(rows)
    if as_json:             # when interrupted: the positions finished, and no signature
        emit_json({"games": names, "impl": impl,
                   **({"interrupted": True} if interrupted else {"signature": signature(rows)}),
                   "positions": [{"game": r.game, "id": r.position_id,
                                  **{p: {"nodes": m.nodes, "seconds": round(m.seconds, 4),
                                         "nps": round(m.nps)} for p, m in r.parts.items()}}
                                 for r in rows],
                   "total": {p: {"nodes": m.nodes, "seconds": round(m.seconds, 4),
                                 "nps": round(m.nps)} for p, m in total.items()}})
    elif not interrupted:
        click.echo("")
        for part, m in total.items():
            click.echo(f"total {part:<9} {m.nodes:>12,} nodes {m.seconds:7.2f} s "
                       f"{m.nps:>12,.0f} nodes/s")
        click.echo(f"signature: {signature(rows)}")
    draw(rates_chart, rates_by_game(rows), plot_path,
         f"crystalpick bench ({impl} perft): nodes/s per game over its bench positions")
    if interrupted:
        raise Interrupted(f"interrupted: the positions finished are "
                          f"{'in the document' if as_json else 'listed'} above ({len(rows)})")


@cli.command("engine")
@click.argument("game", type=click.Choice(sorted(GAMES), case_sensitive=False))
def engine_command(game):
    """Speak the crystalpick engine protocol on stdin/stdout (for GUIs and match runners).

    The protocol is documented in docs/protocol.md: protocol, isready, setoption, newgame,
    position, go, stop, show, moves, quit.
    """
    from .protocol import serve
    serve(game)


# The engine `deck` plays both seats with unless --engine says otherwise: greedy, the
# strongest and fastest player of the card battle today (docs/cardbattle.md, ISMCTS strength).
DECK_ENGINE = "greedy"


@cli.command("deck")
@click.argument("game", type=click.Choice(sorted(GAMES), case_sensitive=False))
@click.option("--deck", "deck", default=None, metavar="NAME|FILE|CARDS",
              help="The deck to advise: a sample deck, a deck file or card numbers joined "
                   "by '.'.")
@click.option("--against", "opponents", multiple=True, metavar="NAME|FILE|CARDS",
              help="An opponent deck (repeatable); the overall win rate is over all of them.")
@click.option("--engine", "engine_spec", default=DECK_ENGINE, show_default=True,
              metavar="SPEC", help="The engine that plays both seats, with its budget, as for "
                                   "'match' (e.g. greedy, random).")
@click.option("--games", "game_count", type=GAME_COUNT, default=100, show_default=True,
              help="Games per opponent for every deck measured (colour-swapped pairs: even).")
@click.option("--improve", type=IMPROVE_STEPS, default=0, show_default=True,
              help="Look for up to this many single-card swaps that raise the win rate, each "
                   "confirmed by a fresh match.")
@click.option("--outs", type=SWAP_OUTS, default=3, show_default=True,
              help="Cards considered for swapping out at each improve step.")
@click.option("--concurrency", type=CONCURRENCY, default=1, show_default=True,
              help="Games played at once, each in its own process.")
@click.option("--rule", "rules", multiple=True, metavar="NAME=VALUE",
              help="Set a rule option other than the decks (see 'crystalpick games').")
@click.option("--tileset", "--cardset", "tileset", type=click.Path(dir_okay=False),
              default=None, help="The card set (component data file).")
@click.option("--seed", type=SEED, default=None, help="Seed of the run (printed; default: random).")
@plot_option("the win rate against each opponent deck and each card's contribution")
@json_option
@user_errors
def deck(game, deck, opponents, engine_spec, game_count, improve, outs, concurrency, rules,
         tileset, seed, plot_path, as_json):
    """Advise on a deck: its win rate against other decks, each card's contribution, and
    single-card swaps that raise the win rate.

    Every deck measured plays --games games against each opponent in colour-swapped pairs,
    both games of a pair on the same shuffles; decks measured on one seed meet the same
    shuffles, so their differences are paired. Ctrl-C stops and reports what was measured.
    """
    import random as _random

    from tqdm import tqdm

    from crystalpick.search.decks.advisor import Advisor, AdvisorSettings, format_report
    from crystalpick.search.decks.measurement import PlaySettings
    from crystalpick.search.match.executors import LocalPool
    from crystalpick.search.match.termination import EngineStartError
    from crystalpick.search.plots import deck_graph

    if deck is None:
        raise InputError("give the deck to advise with --deck DECK")
    check_plot(plot_path)
    seed = seed if seed is not None else _random.SystemRandom().randrange(2**31)
    settings = AdvisorSettings(PlaySettings(game.lower(), engine_spec, parse_rules(rules),
                                            tileset),
                               deck, list(opponents), game_count, seed, improve, outs)
    settings.check()

    def bar(description, total):
        return tqdm(total=total, desc=description, unit="game", file=sys.stderr, disable=None,
                    leave=False)

    interrupted = False
    with LocalPool(concurrency) as executor:
        advisor = Advisor(settings, executor, bar)
        try:
            advisor.check_engines()
            click.echo(f"deck advisor: {deck} against {', '.join(opponents)}, {engine_spec}, "
                       f"seed {seed}", err=True)
            advisor.run()
        except EngineStartError as err:
            raise InputError(f"engine {err}") from None
        except KeyboardInterrupt:
            interrupted = True
    document = advisor.document(interrupted)
    if as_json:
        emit_json(document)
    else:
        click.echo(format_report(document))
    draw(deck_graph, document, plot_path)
    if interrupted:
        raise Interrupted(f"interrupted after {document['games_played']} games: the report "
                          f"above holds what was measured")


def read_records(path: str):
    from crystalpick.search.match.records import parse_records, read_text

    return parse_records(read_text(path), path)


def replay_document(record, index: int, state, shown: int, annotated: list | None) -> dict:
    """``replay --json``: the record's players and result, the position after ``shown``
    plies (as ``show --json``), the move that led to it with its record comment, and
    every ply ``annotated`` (a line per ply, None where not annotated) when asked."""
    from crystalpick.search.annotate import ANNOTATOR_TAG

    plies = [{"ply": number, "move": p.move, "chance": p.chance, "comment": p.comment}
             for number, p in enumerate(record.plies, 1)]
    document = {"record": index, "first": record.tags.get("First"),
                "second": record.tags.get("Second"), "result": record.result,
                "reason": record.tags.get("Reason"), "ply": shown, "plies": len(plies),
                **position_document(state.game, state),
                "last_move": plies[shown - 1] if shown else None}
    if annotated is not None:
        document["annotator"] = record.tags[ANNOTATOR_TAG]
        document["annotations"] = [p for p, line in zip(plies, annotated) if line]
    return document


@cli.command()
@click.argument("record_file", type=click.Path(exists=True, dir_okay=False))
@click.option("--ply", type=REPLAY_PLY, default=None,
              help="Show the position after this many plies (default: the end).")
@click.option("--game", "index", type=RECORD_NUMBER, default=1, show_default=True,
              help="Which record of the file (1 = first).")
@click.option("--annotations", "list_annotations", is_flag=True,
              help="Also list every annotated move of the game ('crystalpick annotate').")
@json_option
@user_errors
def replay(record_file, ply, index, list_annotations, as_json):
    """Show a position from a game record, and the annotation of the move that led to it
    (mark, evaluation before and after from the mover's view, the better move)."""
    from crystalpick.search.annotate import ANNOTATOR_TAG, annotation_text, move_describer

    records = read_records(record_file)
    if not 1 <= index <= len(records):
        raise InputError(f"{record_file} holds {len(records)} records; --game {index} is not one")
    record = records[index - 1]
    state = record.replay(ply)
    shown = len(record.plies) if ply is None else ply
    describe = move_describer(record)
    try:
        lines = [annotation_text(number, p.move, p.comment, describe)
                 for number, p in enumerate(record.plies, 1)]
    except GameError as err:
        raise InputError(f"{record_file}, record {index}: {err}") from None
    if list_annotations and ANNOTATOR_TAG not in record.tags:
        raise InputError(f"record {index} of {record_file} is not annotated: run "
                         f"'crystalpick annotate {record_file} -o FILE' first")
    if as_json:
        emit_json(replay_document(record, index, state, shown,
                                  lines if list_annotations else None))
        return
    click.echo(f"{record.tags.get('First', '?')} vs {record.tags.get('Second', '?')}: "
               f"{record.result} ({record.tags.get('Reason', '')}); ply {shown} of "
               f"{len(record.plies)}")
    click.echo(state.render(color=use_colour()))
    if shown and lines[shown - 1]:
        click.echo(f"last move {lines[shown - 1]}")
    if list_annotations:
        click.echo(f"annotated by {record.tags[ANNOTATOR_TAG]}")
        for line in filter(None, lines):
            click.echo(line)


def annotated_game(words: tuple, records) -> str:
    """``annotate [GAME] RECORDS``: the game named, which every record must be, or the game
    the records are of (the first record's ``Game`` tag)."""
    game = words[0] if len(words) == 2 else records[0].tags["Game"]
    if game.lower() not in GAMES:
        raise InputError(f"unknown game {game!r}; expected one of {', '.join(sorted(GAMES))}")
    for number, record in enumerate(records, 1):
        if record.tags["Game"].lower() != game.lower():
            raise InputError(f"record {number} of {words[-1]} is a {record.tags['Game']} "
                             f"game, not {game}")
    return game.lower()


@cli.command()
@click.argument("words", metavar="[GAME] RECORDS", nargs=-1, required=True)
@click.option("--engine", "engine_spec", default=None, metavar="SPEC",
              help="The engine that evaluates: alphabeta, mcts, ismcts or greedy, with "
                   "options (see 'crystalpick engines'). Default: alphabeta, or ismcts for a "
                   "game with hidden information (each move judged from its mover's view).")
@click.option("--time", "time_limit", type=TIME, default=None,
              help="Seconds per position (0.2 when no limit is given).")
@click.option("--depth", type=DEPTH, default=None, help="Alpha-beta depth.")
@click.option("--nodes", type=NODES, default=None,
              help="Node budget per position (reproducible on any machine).")
@click.option("--sims", type=SIMS, default=None, help="MCTS simulations.")
@click.option("--concurrency", type=CONCURRENCY, default=1, show_default=True,
              help="Positions searched at once, each in its own process.")
@click.option("--cluster", default=None, metavar="tcp://HOST:8786",
              help="Search every position as a task on this Dask scheduler (as for 'match').")
@click.option("--seed", type=SEED, default=None,
              help="Seed of MCTS's per-position seeds (printed; default: random).")
@click.option("-o", "--output", "output_path", type=click.Path(dir_okay=False), default=None,
              help="Write the annotated records here ('crystalpick replay' shows them).")
@plot_option("the evaluation graph (the first player's win probability by ply, mistakes "
             "and blunders marked; one curve per game, all in one picture)")
@json_option
@user_errors
def annotate(words, engine_spec, time_limit, depth, nodes, sims, concurrency,
             cluster, seed, output_path, plot_path, as_json):
    """Evaluate every move of every game in a records file and mark the mistakes.

    GAME is optional: the records say which game they are (given, every record must be it).

    Each decision is judged by the win probability it loses, from the mover's point of view:
    inaccuracy, mistake or blunder at 5, 10 or 15 points (lichess's thresholds); chance
    outcomes are not judged. Prints per game and per player the average loss and the marks
    (with the better move and its line); -o writes the records with a comment per move.
    Ctrl-C stops and reports (and writes) what is finished.
    """
    import random as _random

    from tqdm import tqdm

    from crystalpick.search import Limits
    from crystalpick.search.analysis import spec_limits
    from crystalpick.search.annotate import (AnnotateSettings, Annotation, annotating_spec,
                                             format_report)
    from crystalpick.search.plots import evaluation_graph
    from crystalpick.search.match.executors import ExecutorError, open_executor
    from crystalpick.search.match.records import format_record

    if len(words) > 2:
        raise InputError(f"annotate takes [GAME] RECORDS, got {len(words)} arguments: "
                         f"{' '.join(words)}")
    records_file = words[-1]
    if not os.path.isfile(records_file):
        raise InputError(f"records file {records_file!r} does not exist")
    check_folder("-o", output_path, "the records")
    check_plot(plot_path)
    records = read_records(records_file)
    if not records:
        raise InputError(f"{records_file} holds no game records")
    game = annotated_game(words, records)
    from crystalpick.search.engines import default_engine
    engine_spec = default_engine(GAMES[game.lower()]) if engine_spec is None else engine_spec
    spec = annotating_spec(engine_spec)
    limits = spec_limits(spec, {"depth": depth, "nodes": nodes, "sims": sims,
                                "time": time_limit}, Limits(time=0.2))
    seed = seed if seed is not None else _random.SystemRandom().randrange(2**31)
    annotation = Annotation(records, AnnotateSettings(engine_spec, limits, seed))
    stopped = None
    started = time.monotonic()
    with open_executor(concurrency, cluster) as executor:
        if executor.describe():
            click.echo(executor.describe(), err=True)
        bar = tqdm(total=len(annotation.tasks()), desc="positions", unit="pos",
                   file=sys.stderr, disable=None)
        try:
            annotation.run(executor, lambda evaluation: bar.update(1))
        except KeyboardInterrupt:
            stopped = Interrupted("interrupted")
        except ExecutorError as err:
            if not annotation.evaluations:
                raise InputError(f"{err}; nothing was written") from None
            stopped = InputError(str(err))
        finally:
            bar.close()
    seconds = time.monotonic() - started
    written = output_path if output_path and (stopped is None or annotation.evaluations) \
        else None
    if written:
        write_atomically(output_path, "\n".join(format_record(record)
                                                for record in annotation.annotated_records()))
    done, total = len(annotation.evaluations), len(annotation.tasks())
    speed = f"{done} positions in {seconds:.1f} s ({done / seconds:.1f} positions/s)"
    if as_json:
        emit_json({**annotation.report(), "seconds": round(seconds, 3),
                   "positions_per_second": round(done / seconds, 2)})
    else:
        click.echo(format_report(annotation))
        click.echo(f"\n{speed}; annotator {annotation.annotator_text()}")
    if written:
        click.echo(f"annotated records written to {written}", err=True)
    draw(evaluation_graph, annotation.report(), plot_path)
    if stopped is not None:
        stopped.message = f"{stopped.message}: {done} of {total} positions evaluated" + \
            (f", kept in {written}" if written else "") + \
            " and reported above"
        raise stopped


def check_folder(option: str, path: str | None, what: str) -> None:
    """Before any work: the folder a file is to be written in exists (else the work would
    be done and lost at the end)."""
    if path and not os.path.isdir(os.path.dirname(os.path.abspath(path))):
        raise InputError(f"{option} {path}: no such folder to write {what} in")


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


@cli.command()
@click.option("--db", "db_path", type=click.Path(dir_okay=False), default=None,
              help="Results database (default as for 'match').")
@json_option
@user_errors
def results(db_path, as_json):
    """List the matches in the results database with their statistics (a tournament's
    pairings say which tournament; 'crystalpick ratings' rates them together)."""
    from crystalpick.search.match.db import ResultsDB, default_path
    from crystalpick.search.match.report import format_summary
    from crystalpick.search.match.runner import load_match
    from crystalpick.search.match.session import match_document

    db = ResultsDB(db_path or default_path(), create=False)
    listed = []
    for match_id, created, game, _, status in db.matches():
        document = match_document(load_match(db, match_id), db.path)
        document.update(status=status, tournament=db.tournament_of(match_id),
                        created=time.strftime("%Y-%m-%d %H:%M", time.localtime(created)))
        listed.append(document)
    tournaments = [{"tournament_id": number, "game": game, "status": status,
                    "created": time.strftime("%Y-%m-%d %H:%M", time.localtime(created)),
                    "matches": db.tournament_matches(number)}
                   for number, created, game, status in db.tournaments()]
    db.close()
    if as_json:
        emit_json({"matches": listed, "tournaments": tournaments})
        return
    for document in listed:
        pairing = f", tournament {document['tournament']}" if document["tournament"] else ""
        click.echo(f"match {document['match_id']} ({document['game']}, {document['created']}, "
                   f"{document['status']}{pairing})")
        click.echo(format_summary(document))
        click.echo("")
    for t in tournaments:
        click.echo(f"tournament {t['tournament_id']} ({t['game']}, {t['created']}, "
                   f"{t['status']}): matches {', '.join(map(str, t['matches']))}; its rating "
                   f"list: crystalpick ratings --tournament {t['tournament_id']}")


def run():
    """The commands, once the interrupt runner is installed (``cli/start.py``)."""
    try:
        cli(prog_name="crystalpick")
    except SystemExit as end:
        if not isinstance(end.code, int) or end.code - 128 not in interrupts.STOPPING:
            raise
        leave(end.code)       # what was found is printed and every worker is stopped


def main():
    """The entry point under its older name (``crystalpick.cli.start.main``)."""
    start_main()


# Commands kept in modules of their own (match, tournament, ratings, cards): they register on
# ``cli`` and import this module's helpers, all defined above.
from . import cards, matches  # noqa: E402,F401


if __name__ == "__main__":
    # python -m crystalpick.cli.main: the commands registered on the imported module's group
    from crystalpick.cli.main import main as registered_main
    registered_main()
