"""The commands that read the results database: ``results`` (its matches and tournaments) and
``ratings`` (the rating list of a tournament, or of every game in it)."""
from __future__ import annotations

import time

import click

from .common import InputError, chosen_seed, command, emit_json, json_option, user_errors
from .params import MATCH_ID, SEED, TEXT, InputPath, checked

BOOTSTRAP = checked("bootstrap", "int", 0, 100_000)
VIRTUAL_DRAWS = checked("prior", "float", 0, 1000)


@command()
@click.option("--db", "db_path", type=InputPath(), default=None,
              help="Results database (default as for 'match').")
@json_option
@user_errors
def results(db_path, as_json):
    """List the matches in the results database with their statistics (a tournament's
    pairings say which tournament; 'crystalpick ratings' rates them together)."""
    from crystalpick.apps.match.db import ResultsDB, default_path
    from crystalpick.apps.match.report import format_summary
    from crystalpick.apps.match.runner import load_match
    from crystalpick.apps.match.session import match_document

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


@command()
@click.option("--db", "db_path", type=InputPath(), default=None,
              help="Results database (default as for 'match').")
@click.option("--tournament", "tournament_id", type=MATCH_ID, default=None,
              help="Rate this tournament's games (default: the newest tournament).")
@click.option("--all", "everything", is_flag=True,
              help="Rate every game of the database, matches and tournaments together (one "
                   "list per game and playing conditions).")
@click.option("--anchor", type=TEXT, default=None, metavar="SPEC",
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
    from crystalpick.apps.match.db import ResultsDB, default_path
    from crystalpick.apps.match.ratings import format_document, players, rate
    from crystalpick.apps.match.session import rating_pools

    if everything and tournament_id is not None:
        raise InputError("give --tournament ID or --all, not both")
    seed = chosen_seed(seed)
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
