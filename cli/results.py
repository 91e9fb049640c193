"""The commands that read the results database: ``results`` (its matches and tournaments) and
``ratings`` (the rating list of a tournament, or of every game in it)."""
from __future__ import annotations

import shlex
import time

import click

from .common import InputError, chosen_seed, command, emit_json, json_option, user_errors
from .params import MATCH_ID, SEED, TEXT, InputPath, checked

SAMPLES = checked("samples", "int", 100, 1_000_000)
VIRTUAL_DRAWS = checked("prior", "float", 0, 1000)


@command()
@click.option("--db", "db_path", type=InputPath(), default=None,
              help="Results database (default as for 'match').")
@json_option
@user_errors
def results(db_path, as_json):
    """List the matches in the results database with their statistics (a tournament's
    pairings say which tournament; 'crystalpick ratings' rates them together)."""
    from crystalpick.apps.match.db import default_path
    from crystalpick.apps.match.lock import stored_status
    from crystalpick.apps.match.report import format_summary
    from crystalpick.apps.match.runner import load_match
    from crystalpick.apps.match.session import match_document, open_results

    db = open_results(db_path or default_path(), create=False)
    listed = []
    for match_id, created, game, _, status in db.matches():
        document = match_document(load_match(db, match_id), db.path)
        tournament = db.tournament_of(match_id)
        kind, number = ("tournament", tournament) if tournament else ("match", match_id)
        document.update(status=stored_status(db.path, kind, number, status),
                        tournament=tournament,
                        created=time.strftime("%Y-%m-%d %H:%M", time.localtime(created)))
        if document["status"] == "interrupted":
            document["resume"] = resume_command(kind, number, db_path)
        listed.append(document)
    tournaments = [{"tournament_id": number, "game": game,
                    "status": stored_status(db.path, "tournament", number, status),
                    "created": time.strftime("%Y-%m-%d %H:%M", time.localtime(created)),
                    "matches": db.tournament_matches(number)}
                   for number, created, game, status in db.tournaments()]
    db.close()
    if as_json:
        emit_json({"matches": listed, "tournaments": tournaments})
        return
    for document in listed:
        pairing = f", tournament {document['tournament']}" if document["tournament"] else ""
        resume = f": continue with {document['resume']}" if "resume" in document else ""
        click.echo(f"match {document['match_id']} ({document['game']}, {document['created']}, "
                   f"{document['status']}{pairing}){resume}")
        click.echo(format_summary(document))
        click.echo("")
    for t in tournaments:
        resume = (f"; continue with {resume_command('tournament', t['tournament_id'], db_path)}"
                  if t["status"] == "interrupted" else "")
        click.echo(f"tournament {t['tournament_id']} ({t['game']}, {t['created']}, "
                   f"{t['status']}): matches {', '.join(map(str, t['matches']))}; its rating "
                   f"list: crystalpick ratings --tournament {t['tournament_id']}{resume}")


def resume_command(kind: str, number: int, db_path: str | None) -> str:
    """The command that continues an interrupted match or tournament."""
    where = f" --db {shlex.quote(db_path)}" if db_path else ""
    return f"crystalpick {kind} --resume --{kind}-id {number}{where}"


@command()
@click.option("--db", "db_path", type=InputPath(), default=None,
              help="Results database (default as for 'match').")
@click.option("--tournament", "tournament_id", type=MATCH_ID, default=None,
              help="Rate this tournament's games (default: the newest tournament).")
@click.option("--all", "everything", is_flag=True,
              help="Rate every game of the database, matches and tournaments together (one "
                   "list per game and playing conditions, and per group of engines that met).")
@click.option("--anchor", type=TEXT, default=None, metavar="SPEC",
              help="The engine rated 0 (default: the mean is 0).")
@click.option("--samples", type=SAMPLES, default=20_000, show_default=True,
              help="Posterior draws for the intervals and the LOS.")
@click.option("--prior", "virtual_draws", type=VIRTUAL_DRAWS, default=0.5, show_default=True,
              help="Virtual drawn games added to every pairing played (0: no prior, refused "
                   "where a perfect score leaves a rating unbounded).")
@click.option("--seed", type=SEED, default=None,
              help="Seed of the posterior draws (printed; default: the tournament's, so its "
                   "list is printed again exactly; with --all, random).")
@json_option
@user_errors
def ratings(db_path, tournament_id, everything, anchor, samples, virtual_draws, seed,
            as_json):
    """Print the rating list of a tournament, or of every game in the results database.

    The logistic Elo model (draws as half points) with --prior virtual draws: the Elo is
    the posterior's mode, the mean at 0 or --anchor at 0; the 95% intervals and the
    likelihood of superiority are the posterior's, an end the games leave open says so.
    """
    from crystalpick.apps.match.db import default_path
    from crystalpick.apps.match.ratings import format_document, players, rate
    from crystalpick.apps.match.session import open_results, rating_pools

    if everything and tournament_id is not None:
        raise InputError("give --tournament ID or --all, not both")
    db = open_results(db_path or default_path(), create=False)
    try:
        pools = rating_pools(db, tournament_id, everything)
    finally:
        db.close()
    fallback = chosen_seed(seed)
    lists = [{"title": title, **rate(units, anchor, virtual_draws, samples,
                                      own if seed is None and own is not None
                                      else fallback).document()}
             for title, units, own in pools if anchor is None or anchor in players(units)]
    left_out = [{"title": title, "engines": sorted(players(units))}
                for title, units, _ in pools if anchor is not None and
                anchor not in players(units)]
    if not lists:
        raise InputError(f"--anchor {anchor}: no such engine in these games")
    if as_json:
        emit_json({"lists": lists, **({"left_out": left_out} if left_out else {})})
        return
    click.echo("\n\n".join(f"{rated['title']}\n{format_document(rated)}" for rated in lists))
    if left_out:
        click.echo(f"\n--anchor {anchor} is not in {len(left_out)} of the {len(pools)} lists, "
                   f"left out: " + "; ".join(f"{pool['title']} (engines "
                                            f"{', '.join(pool['engines'])})"
                                            for pool in left_out))
