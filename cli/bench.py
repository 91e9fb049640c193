"""``crystalpick bench``: the fixed bench suite (search/bench.py) and its signature."""
from __future__ import annotations

import sys

import click

from crystalpick.engine import GAMES

from .common import (Interrupted, check_plot, command, draw, emit_json,
                     json_option, plot_option, user_errors)
from .interrupts import stoppable
from .params import BENCH_DEPTH, BENCH_PERFT_DEPTH, BENCH_SIMS, OutputPath


@command()
@click.argument("game", type=click.Choice(sorted(GAMES), case_sensitive=False), required=False)
@click.option("--impl", type=click.Choice(["fast", "reference"]), default="fast",
              show_default=True, help="Implementation for the perft part.")
@click.option("--perft-depth", type=BENCH_PERFT_DEPTH, default=None,
              help="Override the suite's perft depth.")
@click.option("--depth", type=BENCH_DEPTH, default=None,
              help="Override the suite's alpha-beta depth.")
@click.option("--sims", type=BENCH_SIMS, default=None,
              help="Override the suite's MCTS simulations.")
@click.option("--profile", "profile_path", type=OutputPath("the profile"), default=None,
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
    from crystalpick.search.bench import (bench_document, bench_games, benched_games, id_width,
                                          rates_by_game, row_text, totals_text, workload_text)
    from crystalpick.apps.plots import rates_chart

    check_plot(plot_path)
    names = [game.lower()] if game else benched_games()
    if game and GAMES[names[0]].bench_settings is None:
        raise click.UsageError(f"{game} has no bench workload; games with one: "
                               f"{', '.join(benched_games())}")
    width = id_width(names)
    overrides = {"perft_depth": perft_depth, "alphabeta_depth": depth, "mcts_simulations": sims}
    rows, interrupted = profiled(lambda stop: bench_games(
        names, impl, overrides, stop,
        None if as_json else lambda name, settings: click.echo(
            f"{name}: {workload_text(settings, impl)}"),
        None if as_json else lambda row: click.echo(row_text(row, width))), profile_path)
    if as_json:
        emit_json(bench_document(names, impl, rows, interrupted))
    elif not interrupted:
        click.echo("")
        click.echo(totals_text(rows))
    draw(rates_chart, rates_by_game(rows), plot_path,
         f"crystalpick bench ({impl} perft): nodes/s per game over its bench positions")
    if interrupted:
        raise Interrupted(f"interrupted: the positions finished are "
                          f"{'in the document' if as_json else 'listed'} above ({len(rows)})")


def profiled(call, profile_path: str | None):
    """``stoppable(call)``, under cProfile when --profile is given: the profile saved there
    and its top functions printed on stderr."""
    if not profile_path:
        return stoppable(call)
    import cProfile
    import pstats
    profiler = cProfile.Profile()
    found = stoppable(lambda stop: profiler.runcall(call, stop))
    profiler.dump_stats(profile_path)
    pstats.Stats(profiler, stream=sys.stderr).sort_stats("cumulative").print_stats(15)
    return found
