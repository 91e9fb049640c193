"""``crystalpick analyse``: one search of a position (search.analysis.request_analysis),
its lines printed as a table or JSON."""
from __future__ import annotations

import contextlib
import json
import sys

import click


from crystalpick.engine.game import play_moves

from .common import (SEATS, InputError, Interrupted, command, emit_json, game_arguments,
                     json_option, load_state, seed_note, svg_option, use_colour, user_errors,
                     write_svg)
from .interrupts import stoppable
from .output import analysis_document, analysis_text, diagram_marks
from .params import DEPTH, HANDS, MULTIPV, NODES, REPLAY_PLY, SIMS, TEXT, TIME, InputPath


@command()
@game_arguments
@click.option("--engine", "engine_spec", type=TEXT, default=None, metavar="ENGINE[:KEY=VALUE,...]",
              help="The engine and its options, e.g. mcts:c=1.2,workers=2 or "
                   "alphabeta:tt_megabytes=256 (see 'crystalpick engines'). Default: "
                   "alphabeta; for a game with hidden information mccfr if the game is "
                   "small enough to solve exactly, else ismcts.")
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
@click.option("--hands", type=HANDS, default=5, show_default=True,
              help="With a mixed strategy: the other player's likeliest hands (private "
                   "states) as the search assumed them, with their probabilities (0: none).")
@click.option("--record", "record_path", type=InputPath(), default=None,
              help="Analyse a decision of this game record (its first game), knowing its "
                   "history: the position after --ply plies, then --moves.")
@click.option("--ply", type=REPLAY_PLY, default=None,
              help="With --record: the plies of the record played (default: all).")
@click.option("--stream", is_flag=True, help="With --json: one JSON line per search report.")
@svg_option
@json_option
@user_errors
def analyse(game, position, moves, rules, seed, tileset, engine_spec, seat, time_limit, depth,
            nodes, sims, multipv, hands, record_path, ply, stream, svg_path, as_json):
    """Search a position: best move, principal variation and evaluation.

    Limits may be given in the engine spec (mcts:sims=500) or as --time/--depth/--nodes/
    --sims; a flag overrides the same limit in the spec. Without any limit the search runs
    for 1 second. MCTS and ISMCTS take --seed as their seed unless the spec sets one. Scores
    and win rates are from the point of view printed above the table (the side to move, or
    --seat). For a game with hidden information POSITION may be a player's view as 'show'
    prints it (cardbattle view=P2 ...), and ismcts recommends a mixed strategy: a
    probability per option. --svg draws the position with every line found, its score or
    probability beside it. Ctrl-C stops the search and prints the best result found so far.

    Given the history (--seed N --moves from the deal, or --record FILE), ismcts samples the
    hidden cards from everything the player saw in it, not only the view now; the output
    says which it had.
    """
    from crystalpick.search.analysis import request_analysis

    if record_path is None:
        if ply is not None:
            raise InputError("--ply counts the plies of a --record: give --record FILE")
        game_obj, state = load_state(game, position, moves, rules, seed, tileset)
    else:
        game_obj, state = recorded_state(game, position, moves, rules, record_path, ply)
    request = request_analysis(state, engine_spec, {"depth": depth, "nodes": nodes,
                                                    "sims": sims, "time": time_limit},
                               seat=None if seat is None else SEATS.index(seat), seed=seed,
                               multipv=multipv, hands=hands)
    inputs = request.inputs(moves.split())
    if record_path is not None:
        inputs.update(record=record_path,
                      record_ply=len(state.played_moves()) - len(moves.split()))
    seen = state
    if game_obj.capabilities.hidden_information:       # the viewer's screen: what they know
        seen = state.clone()
        seen.observer = request.viewer
    if not as_json:
        click.echo(seen.render(color=use_colour()))
        click.echo("")
    with search_progress(request.limits, inputs, as_json and stream) as progress:
        result, interrupted = stoppable(lambda stop: request.run(progress, stop))
    write_svg(seen, svg_path, diagram_marks(result))      # the same viewer as the screen
    if as_json:
        document = analysis_document(result, inputs, final=True, describe=state.describe_move)
        document.update({"interrupted": True} if interrupted else {})
        emit_json(document, indent=None if stream else 2)
    else:
        click.echo(analysis_text(result, state.to_move_name(), interrupted,
                                 state.describe_move, game_obj.score_unit))
        if game_obj.seed is not None and game_obj.seed != result.seed:
            click.echo(f"setup {seed_note(game_obj)}")
    if interrupted:
        raise Interrupted("interrupted: the best result so far is above")


def recorded_state(game, position, moves, rules, record_path, ply):
    """``--record FILE``: the record's position after ``ply`` plies, then ``moves``; the
    record gives the start and the rules, so neither may be given too."""
    from crystalpick.apps.match.records import record_state

    if position or rules:
        raise InputError("--record gives the start and the rules: POSITION, --rule and "
                         "--deck cannot be given with it")
    state = record_state(record_path, game, ply)
    return state.game, play_moves(state, moves)


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
