"""``tournament`` (several engines: a round-robin or a gauntlet, each pairing a match) and
``ratings`` (the rating list of a tournament, or of every game in the results database)."""
from __future__ import annotations

import random

import click

from .main import InputError, cli, emit_json, json_option, user_errors
from .matches import (BOOTSTRAP, ENGINE_HELP, PAIRS_PER_PAIRING, ROUNDS, VIRTUAL_DRAWS,
                      new_settings, open_session, play, play_options)
from .params import MATCH_ID, SEED


@cli.command()
@play_options
@click.option("--engine", "engines", multiple=True, metavar="SPEC",
              help="A participant (at least two; in a gauntlet the first plays all the "
                   "others). " + ENGINE_HELP)
@click.option("--format", "schedule", type=click.Choice(["round-robin", "gauntlet"]),
              default="round-robin", show_default=True,
              help="Every engine against every other, or the first against each other.")
@click.option("--games-per-pair", "games_per_pair", type=PAIRS_PER_PAIRING, default=2,
              show_default=True, help="Games of every pairing per round, in colour-swapped "
                                      "pairs (even).")
@click.option("--rounds", type=ROUNDS, default=1, show_default=True,
              help="Rounds: every pairing plays --games-per-pair games in each, on new "
                   "openings.")
@click.option("--resume", is_flag=True,
              help="Continue the newest unfinished tournament in the database (or "
                   "--tournament-id).")
@click.option("--tournament-id", type=MATCH_ID, default=None,
              help="The tournament to resume.")
def tournament(game, engines, schedule, games_per_pair, rounds, resume, tournament_id,
               **options):
    """Play a tournament of several engines and print their rating list.

    Every pairing is a match of colour-swapped pairs stored in the results database; pair k
    of every pairing starts from the same opening (setup, deal) with the same chance. The
    pairings are interleaved, so a stopped tournament has played each about equally; Ctrl-C
    keeps every finished game and --resume continues. The ratings: maximum likelihood,
    logistic Elo with draws as half points, the mean at 0, 95% intervals from a bootstrap
    over game pairs (seeded by --seed); see 'crystalpick ratings'.
    """
    from crystalpick.search.match.report import format_tournament
    from crystalpick.search.match.session import tournament_document
    from crystalpick.search.match.tournament import TournamentSettings

    note = None
    if not resume:
        plan = TournamentSettings(list(engines), schedule, games_per_pair, rounds)
        template, note = new_settings(game, engines[:2], plan.games, options)
    with open_session(options) as session:
        if resume:
            session.claim_tournament(tournament_id)
        else:
            session.plan_tournament(plan, template)

        def announce(session):
            said = (f"tournament {session.tournament_id} in {session.db.path}: "
                    f"{describe(session)}, seed {session.settings[0].seed}")
            return said + (f"\n{note}" if note else "")

        play(session, options, resume, announce, tournament_document, format_tournament,
             lambda state: f"{' vs '.join(state.settings.engines)} "
                           f"{state.results.score * 100:.0f}%")


def describe(session) -> str:
    plan, settings = session.tournament, session.settings[0]
    return (f"{settings.game} {plan.format}, {len(plan.engines)} engines, "
            f"{len(session.states)} pairings x {plan.games} games")


@cli.command()
@click.option("--db", "db_path", type=click.Path(dir_okay=False), default=None,
              help="Results database (default as for 'match').")
@click.option("--tournament", "tournament_id", type=MATCH_ID, default=None,
              help="Rate this tournament's games (default: the newest tournament).")
@click.option("--all", "everything", is_flag=True,
              help="Rate every game of the database, matches and tournaments together (one "
                   "list per game and playing conditions).")
@click.option("--anchor", default=None, metavar="SPEC",
              help="The engine rated 0 (default: the mean is 0).")
@click.option("--bootstrap", type=BOOTSTRAP, default=1000, show_default=True,
              help="Resamples of game pairs for the intervals and the LOS.")
@click.option("--prior", "virtual_draws", type=VIRTUAL_DRAWS, default=1.0, show_default=True,
              help="Virtual drawn games added to every pairing played (0: the plain "
                   "maximum-likelihood ratings, unbounded for a perfect score).")
@click.option("--seed", type=SEED, default=None,
              help="Seed of the bootstrap (printed; default: random).")
@json_option
@user_errors
def ratings(db_path, tournament_id, everything, anchor, bootstrap, virtual_draws, seed,
            as_json):
    """Print the rating list of a tournament, or of every game in the results database.

    Maximum-likelihood ratings in the logistic Elo model (draws as half points), the mean at
    0 or --anchor at 0, 95% intervals and the likelihood of superiority from a bootstrap
    over colour-swapped game pairs resampled within each pairing.
    """
    from crystalpick.search.match.db import ResultsDB, default_path
    from crystalpick.search.match.ratings import format_document, players, rate
    from crystalpick.search.match.session import rating_pools

    if everything and tournament_id is not None:
        raise InputError("give --tournament ID or --all, not both")
    seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
    db = ResultsDB(db_path or default_path(), create=False)
    try:
        pools = rating_pools(db, tournament_id, everything)
    finally:
        db.close()
    lists = [{"title": title, **rate(units, anchor, virtual_draws, bootstrap, seed).document()}
             for title, units in pools if anchor is None or anchor in players(units)]
    if not lists:
        raise InputError(f"--anchor {anchor}: no such engine in these games")
    if as_json:
        emit_json({"lists": lists})
        return
    click.echo("\n\n".join(f"{rated['title']}\n{format_document(rated)}" for rated in lists))
