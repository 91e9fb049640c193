"""The deck advisor (issue 15): a deck's win rate against other decks, what each of its cards
contributes, and single-card swaps that raise its win rate, each confirmed by a fresh match.

An application of the match layer that needs one game feature: deck building
(engine/features.py ``DeckBuilding``: ``deck_cards``, ``deck_replacements``, ``deck_value``,
``component_name``); a game without it is refused in one line. Games are played by
:func:`.measurement.play_deck_game` on a match executor. The measures (docs/cardbattle.md, "Deck
advisor"):

* **win rate**: the deck's mean score (win 1, draw 1/2) in ``games`` games against each
  opponent, colour-swapped pairs on the run's seed, with a 95% interval per pair
  (:meth:`..match.stats.Results.score_interval`); overall: every opponent's pairs together.
* **played / not played**: per card, the win rate of the measured games in which the deck put
  it into play, and of the others (a correlation, not a cause: a card that is played
  often in long games looks worse).
* **swapped out**: per card, the win rate of the deck with that card replaced by a legal
  replacement drawn uniformly from the card set afresh for each pair (so the expectation over
  the replacements: "an average replacement"), minus the deck's own, paired on the same
  shuffles, with a 95% interval. Positive: the card is worse than a card picked at random.
* **improve**: up to ``improve`` steps. Each takes the ``outs`` cards with the largest
  swapped-out change (of the original deck's cards still in the deck) and every legal
  replacement of each, screens these swaps by successive halving on a screening seed (every
  survivor plays 1, 2, 4, ... pairs per opponent, paired with the current deck; the better
  half by paired change survive, up to ``games / 2`` pairs), and confirms the best one by a
  fresh match: the current deck and the swapped one, ``games`` games per opponent each on a
  new seed. The swap is taken when the paired change's 95% interval lies above zero; the
  next step starts from it. A step whose best screened swap does not raise the win rate, or
  whose confirmation fails, ends the search.
"""
from __future__ import annotations

import random
import time
from contextlib import contextmanager
from dataclasses import dataclass, field

from crystalpick.engine import GAMES, DeckBuilding, GameError, get_game, require

from crystalpick.search.executors import LocalPool
from crystalpick.search.seeds import derive_seed

from ..match.runner import check_engines

from ..match.settings import MatchSettings
from ..match.stats import Interval, Results
from crystalpick.search.specs import parse_spec
from .measurement import (USER, Measurement, PlaySettings, card_usage, paired_count,
                          paired_difference, play_deck_game)

SEED_RANGE = 2**31          # seeds printed for the fresh matches: short enough to type


@dataclass
class AdvisorSettings:
    play: PlaySettings
    deck: str                  # the deck to advise: a deck option value (name, file, cards)
    opponents: list[str]
    games: int = 100           # per opponent for every measured deck: colour-swapped pairs
    seed: int = 0
    improve: int = 0
    outs: int = 3              # cards considered for swapping out at each improve step

    @property
    def pairs(self) -> int:
        return self.games // 2

    def check(self) -> None:
        """Fail on bad input before any game: one line naming the bad part."""
        game = require(GAMES[self.play.game], DeckBuilding, USER)
        if self.games < 2 or self.games % 2:
            raise GameError(f"--games {self.games}: expected an even number of at least 2 "
                            f"(the games are colour-swapped pairs)")
        if self.improve < 0:
            raise GameError(f"--improve {self.improve}: expected 0 or more swaps")
        if self.outs < 1:
            raise GameError(f"--outs {self.outs}: expected at least 1 card")
        if not self.opponents:
            raise GameError("give at least one --against DECK to play against")
        set_by_decks = [o for o in game.deck_options if o in self.play.rules]
        if set_by_decks:
            raise GameError(f"--rule {set_by_decks[0]}: the decks are --deck and --against")
        try:
            parse_spec(self.play.engine)
        except ValueError as err:
            raise GameError(f"--engine: {err}") from None
        mine = cards_of(self.play, self.deck, self.opponents[0])
        seen = {}
        for opponent in self.opponents:
            theirs = cards_of(self.play, opponent, self.deck)
            if theirs == mine:
                raise GameError(f"--against {opponent} holds the same cards as --deck "
                                f"{self.deck}: a deck against itself scores 1/2 by symmetry")
            if theirs in seen:
                raise GameError(f"--against {opponent} holds the same cards as --against "
                                f"{seen[theirs]}: give each opponent deck once")
            seen[theirs] = opponent


def cards_of(play: PlaySettings, deck: str, other: str) -> tuple[int, ...]:
    """The cards of ``deck`` (checked by loading a game with it in the first seat)."""
    game = get_game(play.game, play.rules_for((deck, other)), tileset=play.tileset)
    return game.deck_cards(0)


class NoProgress:
    def update(self, n: int = 1) -> None: ...

    def set_postfix_str(self, text: str) -> None: ...

    def close(self) -> None: ...


@dataclass
class Step:
    """One improve step: the screening and, when a swap was worth it, its confirmation."""

    number: int
    screen_seed: int
    candidates: int
    out: int | None = None
    into: int | None = None
    screen_games: int = 0
    screened: Interval | None = None
    screened_pairs: int = 0
    confirm_seed: int | None = None
    before: Measurement | None = None
    after: Measurement | None = None
    confirmed: bool = False
    verdict: str = ""


@dataclass
class Advisor:
    """Runs the measures in order (baseline, per-card, improve); whatever it has measured
    when stopped is in its fields, so an interrupted run still reports."""

    settings: AdvisorSettings
    executor: object
    progress: object = None         # (description, total) -> a tqdm-like bar
    baseline: Measurement | None = None
    swap_out: dict = field(default_factory=dict)       # card -> Measurement
    steps: list = field(default_factory=list)
    games_played: int = 0
    started: float = field(default_factory=time.monotonic)

    def __post_init__(self):
        self.progress = self.progress or (lambda description, total: NoProgress())
        play = self.settings.play
        self.rules_game = get_game(play.game, play.rules_for(
            (self.settings.deck, self.settings.opponents[0])), tileset=play.tileset)
        self.original = self.rules_game.deck_cards(0)
        self.current = self.original
        given = self.settings.opponents
        self.opponent_cards = [cards_of(play, o, self.settings.deck) for o in given]
        self.opponents = [self.deck_value(cards) for cards in self.opponent_cards]
        self.names = dict(zip(self.opponents, given))

    # -- the game's view of a deck ----------------------------------------------------------

    def game_with(self, cards) -> object:
        """A game whose first seat holds ``cards``: what the deck rules are asked about."""
        play = self.settings.play
        return get_game(play.game, play.rules_for((self.deck_value(cards), self.opponents[0])),
                        tileset=play.tileset)

    def deck_value(self, cards) -> str:
        return self.rules_game.deck_value(cards)

    def swapped(self, cards, out: int, into: int) -> tuple[int, ...]:
        return tuple(sorted(set(cards) - {out} | {into}))

    def name(self, card: int) -> str:
        return self.rules_game.component_name(card)

    # -- running games -----------------------------------------------------------------------

    def fixed(self, name: str, seed: int, cards) -> Measurement:
        value = self.deck_value(cards)
        return Measurement(name, seed, lambda opponent, pair: value)

    def play(self, wanted: list[tuple[Measurement, int]], description: str) -> None:
        """Play the missing games of each (measurement, pairs per opponent)."""
        by_name = {m.name: m for m, _ in wanted}
        tasks = [task for measurement, pairs in wanted
                 for task in measurement.tasks(self.opponents, pairs)]
        if not tasks:
            return
        bar = self.progress(description, len(tasks))
        try:
            for task in tasks:
                self.executor.submit(str(task), play_deck_game, self.settings.play, task)
            for outcome in self.executor.completed():
                by_name[outcome.task.measurement].add(outcome)
                self.games_played += 1
                bar.update(1)
                if len(wanted) == 1:
                    results = wanted[0][0].results()
                    if results.games:
                        bar.set_postfix_str(f"score {100 * results.score:.1f}%")
        except BaseException:        # Ctrl-C, a failed task: drop the games still queued
            self.executor.cancel()
            raise
        finally:
            bar.close()

    def check_engines(self) -> None:
        """Start the engine once where the games run (a refused or broken engine fails
        here, before any game)."""
        play = self.settings.play
        self.executor.check(check_engines, MatchSettings(
            play.game, [play.engine] * 2, rules=play.rules_for((self.opponents[0],) * 2),
            tileset=play.tileset, seed=self.settings.seed))

    def advise(self, announce=lambda: None) -> None:
        """Check the engine where the games run, ``announce()`` the run, then measure."""
        self.check_engines()
        announce()
        self.run()

    def run(self) -> None:
        settings = self.settings
        self.baseline = self.fixed("baseline", settings.seed, self.original)
        self.play([(self.baseline, settings.pairs)], "win rate")
        game = self.game_with(self.original)
        for card in self.original:
            replacements = game.deck_replacements(0, card)
            if replacements:
                self.swap_out[card] = self.replaced_at_random(card, replacements)
        self.play([(m, settings.pairs) for m in self.swap_out.values()], "swapped out")
        for number in range(1, settings.improve + 1):
            if not self.improve_step(number):
                break

    def replaced_at_random(self, card: int, replacements) -> Measurement:
        """The deck with ``card`` replaced by a replacement drawn afresh for each pair."""
        def deck_for(opponent: str, pair: int) -> str:
            rng = random.Random(derive_seed(self.settings.seed, "replacement", card, opponent,
                                            pair))
            return self.deck_value(self.swapped(self.original, card, rng.choice(replacements)))
        return Measurement(f"without-{card}", self.settings.seed, deck_for)

    def swap_out_change(self, card: int) -> Interval | None:
        measured = self.swap_out.get(card)
        return paired_difference(self.baseline, measured) if measured else None

    def outs(self) -> list[int]:
        """The cards to try swapping out: the original deck's still in the deck, largest
        swapped-out change first."""
        ranked = [(change.mean, card) for card in self.original if card in self.current
                  for change in [self.swap_out_change(card)] if change is not None]
        return [card for _, card in sorted(ranked, key=lambda t: (-t[0], t[1]))][
            : self.settings.outs]

    def improve_step(self, number: int) -> bool:
        """Screen the swaps of this step and confirm the best: whether it was taken."""
        settings = self.settings
        game = self.game_with(self.current)
        candidates = [(out, into) for out in self.outs()
                      for into in game.deck_replacements(0, out)]
        step = Step(number, derive_seed(settings.seed, "screen", number) % SEED_RANGE,
                    len(candidates))
        self.steps.append(step)
        if not candidates:
            step.verdict = "no card of the set can replace the deck's cards"
            return False
        before = self.fixed(f"screen-{number}", step.screen_seed, self.current)
        screened = {swap: self.fixed(f"screen-{number}-{swap[0]}-{swap[1]}", step.screen_seed,
                                     self.swapped(self.current, *swap))
                    for swap in candidates}
        played = self.games_played
        survivors, pairs = list(candidates), 1
        while True:
            self.play([(before, pairs)] + [(screened[s], pairs) for s in survivors],
                      f"improve {number}: screening {len(survivors)} swaps")
            ranked = sorted(survivors, key=lambda s: -paired_difference(before, screened[s]).mean)
            if len(ranked) == 1 or pairs == settings.pairs:
                break
            survivors, pairs = ranked[: (len(ranked) + 1) // 2], min(2 * pairs, settings.pairs)
        step.screen_games = self.games_played - played
        step.out, step.into = ranked[0]
        step.screened = paired_difference(before, screened[ranked[0]])
        step.screened_pairs = paired_count(before, screened[ranked[0]])
        if step.screened.mean <= 0:
            step.verdict = "no swap raised the win rate in screening"
            return False
        step.confirm_seed = derive_seed(settings.seed, "confirm", number) % SEED_RANGE
        candidate = self.swapped(self.current, step.out, step.into)
        step.before = self.fixed(f"confirm-{number}-before", step.confirm_seed, self.current)
        step.after = self.fixed(f"confirm-{number}-after", step.confirm_seed, candidate)
        self.play([(step.before, settings.pairs), (step.after, settings.pairs)],
                  f"improve {number}: confirming -{step.out} +{step.into}")
        change = paired_difference(step.before, step.after)
        step.confirmed = change is not None and change.low > 0
        if not step.confirmed:
            step.verdict = "not confirmed: the fresh match's paired change includes 0"
            return False
        step.verdict = "confirmed"
        self.current = candidate
        return True

    # -- the report --------------------------------------------------------------------------

    def document(self, interrupted: bool = False) -> dict:
        """Everything measured, as the JSON document of docs/cardbattle.md."""
        settings = self.settings
        seconds = time.monotonic() - self.started
        usage = card_usage(self.baseline.games.values() if self.baseline else (), self.original)
        taken = [step for step in self.steps if step.confirmed]
        document = {
            "game": settings.play.game, "engine": settings.play.engine,
            "rules": settings.play.rules, "tileset": settings.play.tileset or "default",
            "seed": settings.seed, "games_per_opponent": settings.games,
            "deck": {"name": settings.deck, "cards": list(self.original)},
            "opponents": [{"name": self.names[o], "cards": list(cards)}
                          for o, cards in zip(self.opponents, self.opponent_cards)],
            "win_rate": self.win_rates(self.baseline),
            "cards": [{"card": card, "name": self.name(card),
                       "played": rate(usage[card].played, per_pair=False),
                       "not_played": rate(usage[card].not_played, per_pair=False),
                       "swapped_out": change(self.swap_out_change(card),
                                             paired_count(self.baseline, self.swap_out[card])
                                             if card in self.swap_out else 0),
                       "swapped_out_win_rate": rate(self.swap_out[card].results())
                       if card in self.swap_out else None}
                      for card in self.original],
            "improve": {"requested": settings.improve, "outs": settings.outs,
                        "steps": [self.step_document(s) for s in self.steps]},
            "final_deck": {"cards": list(self.current),
                           "changes": [{"out": s.out, "in": s.into} for s in taken],
                           "win_rate": self.win_rates(taken[-1].after if taken
                                                      else self.baseline)},
            "games_played": self.games_played, "seconds": round(seconds, 3),
            "games_per_second": round(self.games_played / seconds, 2) if seconds else None,
            "interrupted": interrupted,
        }
        return document

    def win_rates(self, measurement: Measurement | None) -> dict:
        if measurement is None:
            return {"overall": None, "by_opponent": {}}
        return {"overall": rate(measurement.results()),
                "by_opponent": {self.names[o]: rate(measurement.results([o]))
                                for o in self.opponents}}

    def step_document(self, step: Step) -> dict:
        card = lambda n: None if n is None else {"card": n, "name": self.name(n)}  # noqa: E731
        document = {"step": step.number, "out": card(step.out), "in": card(step.into),
                    "screening": {"seed": step.screen_seed, "candidates": step.candidates,
                                  "games": step.screen_games,
                                  "change": change(step.screened, step.screened_pairs)},
                    "confirmation": None, "confirmed": step.confirmed, "verdict": step.verdict}
        if step.confirm_seed is not None:
            document["confirmation"] = {
                "seed": step.confirm_seed, "before": self.win_rates(step.before),
                "after": self.win_rates(step.after),
                "change": change(paired_difference(step.before, step.after),
                                 paired_count(step.before, step.after))}
        return document


@contextmanager
def advisor_session(settings: AdvisorSettings, concurrency: int, progress=None):
    """An :class:`Advisor` with its own pool of ``concurrency`` game processes, stopped when
    the block is left, also by Ctrl-C or an error: as :class:`..match.session.MatchSession`
    owns a match's executor, so a command only reports (``advisor.document``) afterwards."""
    settings.check()
    with LocalPool(concurrency) as executor:
        yield Advisor(settings, executor, progress)


def rate(results: Results, per_pair: bool = True) -> dict | None:
    """A win rate with its 95% interval (per pair, or per game), or None without games."""
    if (sum(results.pairs) if per_pair else results.games) == 0:
        return None
    interval = results.score_interval(pentanomial=per_pair)
    return {"score": round(interval.mean, 4), **interval.ends(4),
            "games": results.games, "wins": results.wins,
            "draws": results.draws, "losses": results.losses}


def change(interval: Interval | None, pairs: int) -> dict | None:
    """A paired change in win rate with its 95% interval, or None before a common pair."""
    if interval is None:
        return None
    return {"change": round(interval.mean, 4), **interval.ends(4), "pairs": pairs}


# -- text -----------------------------------------------------------------------------------

def percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def points(value: float) -> str:
    return f"{100 * value:+.1f}"


def rate_text(measured: dict | None) -> str:
    if measured is None:
        return "no complete pair"
    if measured["low"] is None:
        return (f"{percent(measured['score'])} (no interval: {measured['no_interval']})  "
                f"{measured['games']} games")
    return (f"{percent(measured['score'])} [{100 * measured['low']:.1f}, "
            f"{100 * measured['high']:.1f}]  {measured['games']} games")


def change_text(measured: dict | None) -> str:
    if measured is None:
        return "-"
    if measured["low"] is None:
        return f"{points(measured['change'])} (no interval: {measured['no_interval']})"
    return (f"{points(measured['change'])} [{points(measured['low'])}, "
            f"{points(measured['high'])}]")


def format_report(document: dict) -> str:
    """The report as text: win rates, the cards table, the improve steps, the speed."""
    deck = document["deck"]["name"]
    lines = [f"deck advisor: {document['game']}, {document['engine']} in both seats, "
             f"{document['games_per_opponent']} games per opponent in colour-swapped pairs "
             f"with common random numbers",
             "", f"win rate of {deck} (95% interval)"]
    width = max(len(o["name"]) for o in document["opponents"]) + 3
    for opponent, measured in document["win_rate"]["by_opponent"].items():
        lines.append(f"  {'vs ' + opponent:<{width}}  {rate_text(measured)}")
    lines.append(f"  {'overall':<{width}}  {rate_text(document['win_rate']['overall'])}")
    lines += ["", f"cards of {deck}: win rate in the games where it was played and where it "
                  f"was not (games); change in win rate, in points, when it is swapped out "
                  f"for a random card of the set (paired, 95%; every change is against "
                  f"the one measurement above, so its luck moves them all alike)"]
    names = {c["card"]: f"{c['card']} {c['name']}" for c in document["cards"]}
    width = max(len(n) for n in names.values())
    lines.append(f"  {'card':<{width}}  {'played':>14}  {'not played':>14}  swapped out")
    for card in document["cards"]:
        cells = [f"{percent(c['score'])} ({c['games']})" if c else "- (0)"
                 for c in (card["played"], card["not_played"])]
        lines.append(f"  {names[card['card']]:<{width}}  {cells[0]:>14}  {cells[1]:>14}  "
                     f"{change_text(card['swapped_out'])}")
    improve = document["improve"]
    if improve["requested"]:
        lines += ["", f"improve: up to {improve['requested']} swaps; each step screens every "
                      f"replacement of the {improve['outs']} cards with the largest "
                      f"swapped-out change, then confirms the best in a fresh match (taken "
                      f"when the paired change's 95% interval lies above 0)"]
        for step in improve["steps"]:
            lines.append(step_text(step))
        final = document["final_deck"]
        if final["changes"]:
            lines.append(f"  improved deck: cards = {final['cards']}")
    lines += ["", f"{document['games_played']} games in {document['seconds']:.1f} s "
                  f"({document['games_per_second'] or 0:.1f} games/s)",
              f"seed: {document['seed']}"]
    return "\n".join(lines)


def step_text(step: dict) -> str:
    screening = step["screening"]
    head = f"  {step['step']}. "
    if step["out"] is None:
        return head + (step["verdict"] or "interrupted while screening")
    swap = (f"-{step['out']['card']} {step['out']['name']} +{step['in']['card']} "
            f"{step['in']['name']}")
    text = (f"{head}{swap}: best of {screening['candidates']} swaps screened in "
            f"{screening['games']} games (seed {screening['seed']}), change "
            f"{change_text(screening['change'])}")
    confirmation = step["confirmation"]
    if confirmation is not None:
        text += (f"\n     fresh match (seed {confirmation['seed']}): "
                 f"{rate_text(confirmation['before']['overall'])} -> "
                 f"{rate_text(confirmation['after']['overall'])}, change "
                 f"{change_text(confirmation['change'])}")
    return f"{text}: {step['verdict'] or 'interrupted'}"
