"""``crystalpick deck``: the deck advisor (apps/decks/advisor.py) for a game with deck
building."""
from __future__ import annotations

import sys

import click

from crystalpick.engine import GAMES

from .common import (InputError, Interrupted, check_plot, chosen_seed, command, draw,
                     emit_json, json_option, parse_rules, plot_option, user_errors)
from .params import CONCURRENCY, GAME_COUNT, IMPROVE_STEPS, SEED, SWAP_OUTS, TEXT, InputPath


# The engine `deck` plays both seats with unless --engine says otherwise: greedy, the
# strongest and fastest player of the card battle today (docs/cardbattle.md, ISMCTS strength).
DECK_ENGINE = "greedy"


@command("deck")
@click.argument("game", type=click.Choice(sorted(GAMES), case_sensitive=False))
@click.option("--deck", "deck", type=TEXT, default=None, metavar="NAME|FILE|CARDS",
              help="The deck to advise: a sample deck, a deck file or card numbers joined "
                   "by '.'.")
@click.option("--against", "opponents", type=TEXT, multiple=True, metavar="NAME|FILE|CARDS",
              help="An opponent deck (repeatable); the overall win rate is over all of them.")
@click.option("--engine", "engine_spec", type=TEXT, default=DECK_ENGINE, show_default=True,
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
@click.option("--tileset", "--cardset", "tileset", type=InputPath(),
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
    from tqdm import tqdm

    from crystalpick.apps.decks.advisor import AdvisorSettings, advisor_session, format_report
    from crystalpick.apps.decks.measurement import PlaySettings
    from crystalpick.apps.match.termination import EngineStartError
    from crystalpick.apps.plots import deck_graph

    if deck is None:
        raise InputError("give the deck to advise with --deck DECK")
    check_plot(plot_path)
    seed = chosen_seed(seed)
    settings = AdvisorSettings(PlaySettings(game.lower(), engine_spec, parse_rules(rules),
                                            tileset),
                               deck, list(opponents), game_count, seed, improve, outs)

    def bar(description, total):
        return tqdm(total=total, desc=description, unit="game", file=sys.stderr, disable=None,
                    leave=False)

    interrupted = False
    with advisor_session(settings, concurrency, bar) as advisor:
        try:
            advisor.advise(lambda: click.echo(f"deck advisor: {deck} against "
                                              f"{', '.join(opponents)}, played by {engine_spec} "
                                              f"in both seats, seed {seed}", err=True))
        except EngineStartError as err:
            raise InputError(f"engine {err}") from None
        except KeyboardInterrupt:
            interrupted = True
    document = advisor.document(interrupted)
    emit_json(document) if as_json else click.echo(format_report(document))
    draw(deck_graph, document, plot_path)
    if interrupted:
        raise Interrupted(f"interrupted after {document['games_played']} games: the report "
                          f"above holds what was measured")
