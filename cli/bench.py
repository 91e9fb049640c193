"""``crystalpick bench``: the fixed bench suite (search/bench.py) and its signature."""
from __future__ import annotations

import sys

import click

from crystalpick.engine import GAMES

from .common import (Interrupted, check_folder, check_plot, command, draw, emit_json,
                     json_option, plot_option, user_errors)
from .interrupts import stoppable
from .params import BENCH_DEPTH, BENCH_PERFT_DEPTH, BENCH_SIMS


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
