"""Games between decks, measured in colour-swapped pairs with common random numbers: the
deck advisor's game task and its bookkeeping (:mod:`.advisor` drives them).

Game-independent: a game whose players bring decks (engine/features.py ``DeckBuilding``, one
deck rule option per seat) is played through the contract, and the one card-game fact
needed here, which card a move puts into play, is ``DeckBuilding.played_component``.

A deck is measured on a seed against each opponent deck in pairs: the deck plays once in
each seat, and both games of a pair deal from the same seed and draw their chance events
from the same stream (the k-th chance event takes the k-th random number, as in matches).
The seeds depend on the seed, the opponent and the pair only, never on the measured deck, so
two decks measured on one seed meet the same shuffles and engines' seeds, and the difference
of their pair scores is a paired comparison.
"""
from __future__ import annotations

import random
from contextlib import ExitStack
from dataclasses import dataclass

from crystalpick.engine import GAMES, DeckBuilding, get_game, require

from ..match.players import Player, make_player
from ..match.records import new_record
from crystalpick.search.seeds import derive_seed

from ..match.games import play_out

from ..match.settings import MatchSettings
from ..match.stats import Interval, Results, sample_interval
from crystalpick.search.specs import parse_spec

USER = "the deck advisor"       # who needs deck building, in a refusal


@dataclass(frozen=True)
class PlaySettings:
    """What every game of a deck advisor run shares: the game, its other rules, the engine
    that plays both seats."""

    game: str
    engine: str
    rules: dict          # the game's rule options other than the decks
    tileset: str | None = None

    def rules_for(self, decks: tuple[str, ...]) -> dict:
        """The rules with the seats' decks (deck option values, in seat order)."""
        return {**self.rules, **require(GAMES[self.game], DeckBuilding, USER).deck_rules(decks)}


@dataclass(frozen=True)
class DeckTask:
    """One game: ``deck`` (a deck option value) in seat ``seat`` against ``opponent`` in
    the other, game ``pair`` of measurement ``measurement`` on ``seed``."""

    measurement: str
    seed: int
    deck: str
    opponent: str
    pair: int
    seat: int

    def __str__(self) -> str:
        return f"deck-game-{self.measurement}-{self.seed}-{self.opponent}-{self.pair}-{self.seat}"


@dataclass(frozen=True)
class DeckGame:
    task: DeckTask
    score: float                  # the measured deck's: win 1, draw 1/2, loss 0
    played: frozenset             # the cards the measured deck put into play


class PlayedCards:
    """A player whose moves' cards (``DeckBuilding.played_component``) are noted."""

    def __init__(self, player: Player):
        self.player = player
        self.played: set[int] = set()

    def limits(self, *args):
        return self.player.limits(*args)

    def choose(self, state, limits, record):
        move, comment = self.player.choose(state, limits, record)
        card = state.game.played_component(state, move)
        if card is not None:
            self.played.add(card)
        return move, comment


def play_deck_game(settings: PlaySettings, task: DeckTask) -> DeckGame:
    """Play one game of a measurement: a pure task for the match executors."""
    decks = [task.opponent, task.opponent]
    decks[task.seat] = task.deck
    rules = settings.rules_for(tuple(decks))
    coordinates = (task.seed, task.opponent, task.pair)
    game = get_game(settings.game, rules, tileset=settings.tileset,
                    seed=derive_seed(*coordinates, "setup"))
    state = game.new_initial_state()
    match = MatchSettings(settings.game, [settings.engine] * 2, rules=rules,
                          tileset=settings.tileset, seed=task.seed)
    record = new_record(game, state, settings.engine, settings.engine, task.seed)
    with ExitStack() as players_open:
        players = [players_open.enter_context(
                       make_player(parse_spec(settings.engine),
                                   derive_seed(*coordinates, task.seat, side, "engine"), game))
                   for side in range(len(decks))]
        watched = players[task.seat] = PlayedCards(players[task.seat])
        end = play_out(match, state, players, record,
                       random.Random(derive_seed(*coordinates, "chance")))
    mine, theirs = end.returns[task.seat], end.returns[1 - task.seat]
    score = 1.0 if mine > theirs else 0.0 if mine < theirs else 0.5
    return DeckGame(task, score, frozenset(watched.played))


class Measurement:
    """A deck measured on one seed: its games by opponent, pair and seat. ``deck_for(opponent,
    pair)`` is the deck that plays a pair (the same for every pair, except when a card is
    swapped out for a different random replacement in each pair)."""

    def __init__(self, name: str, seed: int, deck_for):
        self.name = name
        self.seed = seed
        self.deck_for = deck_for
        self.games: dict[tuple[str, int, int], DeckGame] = {}

    def tasks(self, opponents, pairs: int) -> list[DeckTask]:
        """The games not yet played of the first ``pairs`` pairs against each opponent."""
        return [DeckTask(self.name, self.seed, self.deck_for(opponent, pair), opponent, pair,
                         seat)
                for pair in range(pairs) for opponent in opponents for seat in (0, 1)
                if (opponent, pair, seat) not in self.games]

    def add(self, game: DeckGame) -> None:
        self.games[game.task.opponent, game.task.pair, game.task.seat] = game

    def pair_scores(self, opponents=None) -> dict[tuple[str, int], float]:
        """The mean score of every complete pair, by (opponent, pair)."""
        scores = {}
        for (opponent, pair, seat), game in self.games.items():
            other = self.games.get((opponent, pair, 1 - seat))
            if seat == 0 and other is not None and (opponents is None or opponent in opponents):
                scores[opponent, pair] = (game.score + other.score) / 2
        return scores

    def results(self, opponents=None) -> Results:
        """Complete pairs (against ``opponents``, default all) as match results."""
        results = Results()
        for (opponent, pair, seat), game in sorted(self.games.items()):
            other = self.games.get((opponent, pair, 1 - seat))
            if seat == 0 and other is not None and (opponents is None or opponent in opponents):
                results.add_pair(game.score, other.score)
        return results


def paired_difference(base: Measurement, other: Measurement) -> Interval | None:
    """``other``'s score minus ``base``'s over the pairs both completed on the same shuffles,
    with its 95% interval; None before a common pair."""
    mine, theirs = base.pair_scores(), other.pair_scores()
    common = sorted(set(mine) & set(theirs))
    if not common:
        return None
    return sample_interval(theirs[key] - mine[key] for key in common)


def paired_count(base: Measurement, other: Measurement) -> int:
    return len(set(base.pair_scores()) & set(other.pair_scores()))


@dataclass
class CardUsage:
    """A card's games: those in which its deck put it into play, and the others."""

    played: Results
    not_played: Results


def card_usage(games, cards) -> dict[int, CardUsage]:
    """Each card of ``cards`` split the finished ``games`` (:class:`DeckGame`) by whether it
    was played (win 1, draw 1/2 per game)."""
    usage = {card: CardUsage(Results(), Results()) for card in cards}
    for game in games:
        for card, split in usage.items():
            (split.played if card in game.played else split.not_played).add_game(game.score)
    return usage
