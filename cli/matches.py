"""``crystalpick match`` (two engines) and what it shares with ``tournament``
(cli/tournaments.py): the options of where and how games are played, and driving a
:class:`~crystalpick.apps.match.session.MatchSession` to the end (or to Ctrl-C) with its
report printed."""
from __future__ import annotations

import sys

import click

from crystalpick.engine import GAMES

from .common import (DECK_OPTION, RULE_OPTION, TILESET_OPTION, InputError, Interrupted,
                     PICTURE, check_plot, chosen_seed, command, deck_rules, draw,
                     emit_json, json_option, parse_rules, user_errors)
from .params import (CONCURRENCY, GAME_COUNT, MATCH_ID, MAX_PLIES, MOVE_TIME, SEED, TOLERANCE,
                     TEXT, InputPath, OutputPath, checked)

ENGINE_HELP = ("Engine spec ENGINE[:KEY=VALUE,...]: alphabeta[:depth=4,...], "
               "mcts[:time=0.5,c=1.4,...], ismcts[:sims=20000,...] (hidden information), "
               "mccfr[:time=1,...] (equilibrium of a small game; "
               "mccfr:root=view,horizon=1 plays full-size ones), "
               "dfpn[:time=1,...] (proofs), greedy, random, or cmd:COMMAND (an external engine "
               "speaking the protocol, docs/protocol.md); 'crystalpick engines' lists every "
               "option. Keys depth/nodes/sims/time set the per-move budget.")
PAIRS_PER_PAIRING = checked("games-per-pair", "int", 2, 100_000)
ROUNDS = checked("rounds", "int", 1, 100_000)


def play_options(command):
    """What ``match`` and ``tournament`` share: where and how the games are played."""
    options = [
        click.argument("game", type=click.Choice(sorted(GAMES), case_sensitive=False),
                       required=False),
        click.option("--concurrency", type=CONCURRENCY, default=1, show_default=True,
                     help="Games played at once, each in its own process."),
        click.option("--cluster", type=TEXT, default=None, metavar="tcp://HOST:8786",
                     help="Play every game as a task on this Dask scheduler instead of local "
                          "processes (pip install \"crystalpick[cluster]\"). crystalpick, and "
                          "any cmd: engine's command, must be installed on every worker. tcp://, "
                          "tls://, ws:// or wss://; an address where no scheduler answers "
                          "within 10 s is an error."),
        click.option("--openings", type=InputPath(), default=None,
                     help="Openings: one position or move list a line, or game records."),
        click.option("--openings-order", type=click.Choice(["sequential", "random"]),
                     default="sequential", show_default=True,
                     help="Each pair's opening: the next of the file (cycling), or one drawn "
                          "with the seed (repeats possible)."),
        click.option("--tc", type=TEXT, default=None, metavar="SECONDS[+INC]",
                     help="Clock per game and increment per move, e.g. 10+0.1."),
        click.option("--st", "move_time", type=MOVE_TIME, default=None, metavar="SECONDS",
                     help="Fixed time per move (for engines without their own limit)."),
        click.option("--tolerance", type=TOLERANCE, default=0.1, show_default=True,
                     help="Seconds an engine may overstep its clock before it loses on time."),
        click.option("--max-plies", type=MAX_PLIES, default=None,
                     help="Adjudicate a game still running after this many plies as a draw."),
        RULE_OPTION,
        DECK_OPTION,
        TILESET_OPTION,
        click.option("--seed", type=SEED, default=None,
                     help="Seed of the games (printed; default: random)."),
        click.option("--db", "db_path", type=OutputPath("the results database", read_back=True),
                     default=None,
                     help="Results database (SQLite). Default: crystalpick.sqlite in "
                          "$XDG_DATA_HOME/crystalpick (~/.local/share/crystalpick)."),
        click.option("--records", "records_path", type=OutputPath("the records"),
                     default=None,
                     help="Also append every finished game's record to this file."),
        click.option("--plot", "plot_path", type=PICTURE, default=None,
                     metavar="FILE.svg|FILE.png",
                     help="Also draw the running score and Elo (95% intervals) against games "
                          "played, and the SPRT's LLR with its bounds, to this picture "
                          "(pip install \"crystalpick[plots]\"); one curve per pairing in a "
                          "tournament."),
        json_option,
        user_errors,
    ]
    for option in reversed(options):
        command = option(command)
    return command


def new_settings(game, engines, games, options, sprt=None):
    """The settings of a new match (a tournament's template) from the shared options, and
    what to say about its openings."""
    from crystalpick.apps.match.settings import new_match_settings

    if game is None:
        raise InputError("GAME is required unless --resume is given")
    return new_match_settings(
        game, engines, games,
        rules=parse_rules(tuple(options["rules"]) + deck_rules(game, options["decks"])),
        seed=chosen_seed(options["seed"]), tileset=options["tileset"],
        openings=options["openings"], openings_order=options["openings_order"],
        tc=options["tc"], move_time=options["move_time"], tolerance=options["tolerance"],
        max_plies=options["max_plies"], sprt=sprt, concurrency=options["concurrency"])


def open_session(options):
    from crystalpick.apps.match.db import default_path
    from crystalpick.apps.match.session import MatchSession

    check_plot(options["plot_path"])
    return MatchSession(options["db_path"] or default_path(), records=options["records_path"])


def play(session, options, resume: bool, announce, text, progress) -> None:
    """Play ``session`` (MatchSession.play) and print its report, the document of what was
    finished (as JSON, or as ``text(document)``), also when stopped. ``announce(session)``
    is the line said once it begins, ``progress(state)`` the text under the progress bar."""
    from tqdm import tqdm

    given = click.get_current_context().get_parameter_source("concurrency")
    keep = resume and given is click.core.ParameterSource.DEFAULT   # the stored one
    bars = []

    def began(session, where):
        for said in (where, announce(session)):
            if said:
                click.echo(said, err=True)
        bars.append(tqdm(total=session.total_games, initial=session.finished_games,
                         desc="games", unit="game", file=sys.stderr, disable=None))

    def on_game(state, outcome):
        bars[0].update(1)
        bars[0].set_postfix_str(progress(state))

    stopped = None
    try:
        session.play(None if keep else options["concurrency"], options["cluster"], on_game,
                     began)
    except KeyboardInterrupt:             # Ctrl-C or SIGTERM (cli/interrupts.py)
        if not bars:
            raise Interrupted("interrupted before the first game") from None
        session.reload()
        stopped = Interrupted(f"interrupted: {session.finished_games} finished games are "
                              f"saved in {session.db.path}; continue with "
                              f"{session.resume_hint(options['cluster'])}")
    finally:
        for bar in bars:
            bar.close()
    document = session.report()
    if stopped is not None:
        document["interrupted"] = True
    if options["as_json"]:
        emit_json(document)
    else:
        click.echo(text(document), err=stopped is not None)
    if options["plot_path"]:               # what was finished, also when stopped
        from crystalpick.apps.match.session import running_series
        from crystalpick.apps.plots import match_graph
        draw(match_graph, running_series(session), options["plot_path"],
             document.get("ratings"),            # a tournament's list; a match has none
             kept=f"; {stopped.message}" if stopped else f"; the games are kept in "
             f"{session.db.path} ('crystalpick results --db {session.db.path}' reports them)")
    if stopped is not None:
        raise stopped


@command()
@play_options
@click.option("--engine", "engines", type=TEXT, multiple=True, metavar="SPEC",
              help="Given twice. " + ENGINE_HELP)
@click.option("--games", "game_count", type=GAME_COUNT, default=2, show_default=True,
              help="Games to play, in colour-swapped pairs.")
@click.option("--sprt", type=TEXT, default=None, metavar="elo0=0,elo1=10,alpha=0.05,beta=0.05",
              help="Stop the match when the SPRT accepts a hypothesis (model=logistic for "
                   "logistic Elo; default normalized).")
@click.option("--resume", "resume", is_flag=True,
              help="Continue the newest unfinished match in the database (or --match-id).")
@click.option("--match-id", type=MATCH_ID, default=None, help="The match to resume.")
def match(game, engines, game_count, sprt, resume, match_id, **options):
    """Play an engine-vs-engine match and report Elo, LOS, pentanomial counts and the SPRT.

    Every game is stored in the results database as soon as it finishes, so an interrupted
    match (Ctrl-C, a killed process, a lost cluster) loses no finished game: continue it
    with --resume. Games run in local processes, or with --cluster on a Dask cluster
    ('dask scheduler', then 'dask worker tcp://HOST:8786 --nthreads 1' on each machine).
    """
    from crystalpick.apps.match.report import (format_summary, progress_text, running,
                                                 running_chart)
    from crystalpick.apps.match.session import DECKS_STAY, seat_decks

    if match_id is not None and not resume:
        raise InputError("--match-id names a match to continue: give --resume too")
    note = None
    if not resume:
        settings, note = new_settings(game, engines, game_count, options, sprt)
    with open_session(options) as session:
        if resume:
            session.claim_match(match_id)       # locked: no other runner plays it now
        else:
            session.plan_match(settings)

        def announce(session):
            state = session.states[0]
            said = (f"match {state.match_id} in {session.db.path}: {state.settings.game}, "
                    f"{' vs '.join(state.settings.engines)}, {state.settings.games} games, "
                    f"seed {state.settings.seed}")
            decks = seat_decks(state.settings)
            if decks:
                said += (f"\ndecks: {', '.join(f'{seat} {deck}' for seat, deck in decks.items())}"
                         f" ({DECKS_STAY})")
            return said + (f"\n{note}" if note else "")

        def text(document):
            chart = running_chart(running(session.states[0].running()))
            return format_summary(document) + (f"\n{chart}" if chart else "")

        play(session, options, resume, announce, text,
             lambda state: progress_text(state.unpaired(), state.sprt))


