"""A match's openings: read from a file (positions, move lists or game records), drawn at
random from the seed where the game alone would replay the same pair, and the one each pair
starts from."""
from __future__ import annotations

import random

from crystalpick.engine import GameError, get_game
from crystalpick.search.seeds import derive_seed

from .records import parse_records


def opening_state(game, opening: str | None):
    """An opening line is a position string, or moves to play from the start position."""
    if not opening:
        return game.new_initial_state()
    try:
        return game.parse_position(opening)
    except GameError as as_position:
        try:
            return game.state(None, opening)
        except GameError:
            raise GameError(f"{opening[:50]!r} is neither a position ({as_position}) nor a "
                            f"move list from the start") from None


def load_openings(text: str, source: str) -> list[str]:
    """Opening lines from a file: one position or move list a line, or game records (each
    gives the position at its end)."""
    if text.lstrip().startswith("["):
        openings = [record.replay().position() for record in parse_records(text, source)]
    else:
        openings = [line.strip() for line in text.splitlines()
                    if line.strip() and not line.lstrip().startswith("#")]
    if not openings:
        raise GameError(f"{source} holds no openings (one position or move list a line, or "
                        f"game records)")
    return openings


OPENING_PLIES = 2          # random plies of a default opening (more when those run out)


def default_openings(settings) -> tuple[list[str], str]:
    """Openings for a match given none, and what to tell the user. A game whose start and
    play have no chance would replay the same pair between two deterministic engines, so
    each pair gets its own opening: distinct random move lists drawn from the match seed.
    A game with chance, or with a start drawn from the seed, differs from pair to pair."""
    game = get_game(settings.game, settings.rules, tileset=settings.tileset)
    starts = {get_game(settings.game, settings.rules, tileset=settings.tileset, seed=seed)
              .new_initial_state().position() for seed in (1, 2)}
    if game.capabilities.chance or len(starts) > 1:
        return [], "no --openings: every pair draws its own setup and chance from the seed"
    openings = random_openings(game, derive_seed(settings.seed, "openings"), settings.pairs)
    return openings, (f"no --openings: {len(openings)} distinct random openings of "
                      f"{OPENING_PLIES}+ plies drawn from seed {settings.seed}, one a pair")


def random_openings(game, seed: int, count: int) -> list[str]:
    """``count`` distinct move lists of random legal plies from the start (longer lists once
    short ones keep repeating), none of which ends the game."""
    rng = random.Random(seed)
    openings: list[str] = []
    seen: set[str] = set()
    plies, repeats = OPENING_PLIES, 0
    while len(openings) < count:
        state = game.new_initial_state()
        moves = []
        while len(moves) < plies and not state.is_terminal():
            move = rng.choice(state.legal_moves())
            moves.append(state.move_to_str(move))
            state.play(move)
        line = " ".join(moves)
        if line in seen or state.is_terminal():
            repeats += 1
            if repeats > 100:
                plies, repeats = plies + 1, 0
            continue
        seen.add(line)
        openings.append(line)
    return openings


def opening_for(settings, pair: int) -> str | None:
    """The opening of ``pair`` of a match (its settings.py ``MatchSettings``: a type this
    module does not import, as settings.py imports it)."""
    if not settings.openings:
        return None
    if settings.openings_order == "random":
        return random.Random(derive_seed(settings.seed, "opening", pair)).choice(settings.openings)
    return settings.openings[pair % len(settings.openings)]
