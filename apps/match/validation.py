"""The ranges of a match's numeric settings, checked where they enter: the command line
(``cli/params.py`` wraps these same options), and the settings row a resumed match reads
back from the database. A value out of range is a :class:`GameError` naming it and the valid
range, never a forfeit, a hang or a traceback later in a game.
"""
from __future__ import annotations

from crystalpick.engine import GameError

from crystalpick.search.options import Option, OptionError

MAX_SEED = 2**63 - 1
MAX_GAMES = 100_000          # every game's opening and task is made up front
MAX_CONCURRENCY = 256        # local worker processes
MAX_SECONDS = 86_400.0       # a day per move or per game clock: beyond is a typo

SEED = Option("seed", "int", None, "Seed of everything random.", minimum=0, maximum=MAX_SEED)
GAMES = Option("games", "int", 2, "Games to play.", minimum=1, maximum=MAX_GAMES)
CONCURRENCY = Option("concurrency", "int", 1, "Games at once.", minimum=1,
                     maximum=MAX_CONCURRENCY)
MOVE_TIME = Option("st", "float", None, "Seconds per move.", minimum=0, above_minimum=True,
                   maximum=MAX_SECONDS)
TOLERANCE = Option("tolerance", "float", 0.1, "Seconds over the clock.", minimum=0,
                   maximum=MAX_SECONDS)
MAX_PLIES = Option("max-plies", "int", None, "Plies before a draw is adjudicated.", minimum=1,
                   maximum=1_000_000)
TC_BASE = Option("tc", "float", None, "Seconds per game.", minimum=0, above_minimum=True,
                 maximum=MAX_SECONDS)
TC_INCREMENT = Option("tc increment", "float", 0.0, "Seconds added per move.", minimum=0,
                      maximum=MAX_SECONDS)
MATCH_ID = Option("match-id", "int", None, "A match of the database.", minimum=1,
                  maximum=2**63 - 1)

# MatchSettings field -> the option that checks it
FIELDS = {"seed": SEED, "games": GAMES, "concurrency": CONCURRENCY, "move_time": MOVE_TIME,
          "tolerance": TOLERANCE, "max_plies": MAX_PLIES}


def check_numbers(settings) -> None:
    """Every numeric field of ``settings`` (a MatchSettings) in its range."""
    try:
        for name, option in FIELDS.items():
            option.check(getattr(settings, name))
        if settings.tc is not None:
            base, increment = settings.tc
            TC_BASE.check(base)
            TC_INCREMENT.check(increment)
    except OptionError as err:
        raise GameError(f"--{err}") from None
