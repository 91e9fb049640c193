"""``tournament`` (several engines: a round-robin or a gauntlet, each pairing a match) and
its lines printed as it plays (the rating list is ``ratings``, cli/results.py)."""
from __future__ import annotations

import click

from .common import InputError, command
from .matches import (ENGINE_HELP, PAIRS_PER_PAIRING, ROUNDS, new_settings, open_session, play,
                      play_options)
from .params import MATCH_ID, TEXT


@command()
@play_options
@click.option("--engine", "engines", type=TEXT, multiple=True, metavar="SPEC",
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
    keeps every finished game and --resume continues. The ratings: logistic Elo with draws
    as half points and half a virtual draw a pairing as the prior, the mean at 0, the
    posterior's 95% intervals (drawn with --seed); see 'crystalpick ratings'.
    """
    from crystalpick.apps.match.report import format_tournament
    from crystalpick.apps.match.tournament import TournamentSettings

    if tournament_id is not None and not resume:
        raise InputError("--tournament-id names a tournament to continue: give --resume too")
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

        play(session, options, resume, announce, format_tournament,
             lambda state: f"{' vs '.join(state.settings.engines)} "
                           f"{state.results.score * 100:.0f}%")


def describe(session) -> str:
    plan, settings = session.tournament, session.settings[0]
    return (f"{settings.game} {plan.format}, {len(plan.engines)} engines, "
            f"{len(session.states)} pairings x {plan.games} games")
