"""The commands that read game records: ``replay`` (a position of a record and its
annotations) and ``annotate`` (every move evaluated, apps/annotate.py)."""
from __future__ import annotations

import os
import sys

import click

from crystalpick.engine import GameError

from .common import (InputError, Interrupted, check_plot, chosen_seed, command,
                     draw, emit_json, json_option, plot_option, position_document,
                     read_records, use_colour, user_errors, write_atomically)
from .params import (CONCURRENCY, DEPTH, NODES, RECORD_NUMBER, REPLAY_PLY, SEED, SIMS, TIME,
                     TEXT, InputPath, OutputPath)


def replay_document(record, index: int, state, shown: int, annotated: list | None) -> dict:
    """``replay --json``: the record's players and result, the position after ``shown``
    plies (as ``show --json``), the move that led to it with its record comment, and
    every ply ``annotated`` (a line per ply, None where not annotated) when asked."""
    from crystalpick.apps.annotate import ANNOTATOR_TAG

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


@command()
@click.argument("record_file", type=InputPath())
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
    from crystalpick.apps.annotate import ANNOTATOR_TAG, annotation_text, move_describer

    records = read_records(record_file)
    if not 1 <= index <= len(records):
        raise InputError(f"{record_file} holds {len(records)} records; --game {index} is not one")
    record = records[index - 1]
    state = record.replay(ply)
    shown = len(record.plies) if ply is None else ply
    describe = move_describer(record)
    try:
        lines = [annotation_text(number, p.move, p.comment, describe, state.game.player_names)
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


def annotated_records(words: tuple):
    """``annotate [GAME] RECORDS``: the records of the file and the game they are of."""
    from crystalpick.apps.annotate import records_game

    if len(words) > 2:
        raise InputError(f"annotate takes [GAME] RECORDS, got {len(words)} arguments: "
                         f"{' '.join(words)}")
    records_file = words[-1]
    if not os.path.isfile(records_file):
        raise InputError(f"records file {records_file!r} does not exist")
    records = read_records(records_file)
    if not records:
        raise InputError(f"{records_file} holds no game records")
    return records, records_game(records, words[0] if len(words) == 2 else None, records_file)


@command()
@click.argument("words", metavar="[GAME] RECORDS", nargs=-1, required=True)
@click.option("--engine", "engine_spec", type=TEXT, default=None, metavar="SPEC",
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
@click.option("--cluster", type=TEXT, default=None, metavar="tcp://HOST:8786",
              help="Search every position as a task on this Dask scheduler (as for 'match').")
@click.option("--seed", type=SEED, default=None,
              help="Seed of MCTS's per-position seeds (printed; default: random).")
@click.option("-o", "--output", "output_path", type=OutputPath("the records"), default=None,
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
    from tqdm import tqdm

    from crystalpick.apps.annotate import format_report, new_annotation
    from crystalpick.search.executors import ExecutorError
    from crystalpick.apps.plots import evaluation_graph

    check_plot(plot_path)
    records, game = annotated_records(words)
    annotation = new_annotation(records, game, engine_spec, {
        "depth": depth, "nodes": nodes, "sims": sims, "time": time_limit}, chosen_seed(seed))
    stopped = None
    with tqdm(total=len(annotation.tasks()), desc="positions", unit="pos", file=sys.stderr,
              disable=None) as bar:
        try:
            annotation.run_in(concurrency, cluster,
                              lambda executor: executor.describe() and click.echo(
                                  executor.describe(), err=True),
                              lambda evaluation: bar.update(1))
        except KeyboardInterrupt:
            stopped = Interrupted("interrupted")
        except ExecutorError as err:
            if not annotation.evaluations:
                raise InputError(f"{err}; nothing was written") from None
            stopped = InputError(str(err))
    written = output_path if output_path and (stopped is None or annotation.evaluations) \
        else None
    if written:
        write_atomically(output_path, annotation.records_text())
    if as_json:
        emit_json({**annotation.report(), **annotation.speed()})
    else:
        click.echo(format_report(annotation))
        click.echo(f"\n{annotation.speed_text()}")
    if written:
        click.echo(f"annotated records written to {written}", err=True)
    draw(evaluation_graph, annotation.report(), plot_path,
         kept=f"; {annotation.kept_text(written)}")
    if stopped is not None:
        stopped.message = f"{stopped.message}: {annotation.kept_text(written)}"
        raise stopped
