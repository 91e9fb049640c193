"""The card battle game: data-driven cards and decks, hidden hands, a secret simultaneous
choice each round, a race to 8 crystals. Rules: docs/rules/cardbattle.md (the project's rules
reference); design notes: docs/cardbattle.md.

Two implementations of the same rules behind the common interface: ``reference`` (plain
Python, read against the rules page) and ``fast`` (the Cython kernel in ``_fast.pyx``). Every
card comes from a card set file and every deck from a deck file (``cards.py``); the default
card set is the project's own invention. The simultaneous choice is made sequential with the
earlier choices hidden from the later choosers (docs/cardbattle.md, "A round as decisions").
"""
from __future__ import annotations

import random
from pathlib import Path

from ..features import DeckBuilding, GreedyPolicy, ISMCTSDefaults, Ranges, TunedSearch
from ..game import (CHANCE, BenchSettings, Capabilities, Game, NotationError, RuleError,
                    RuleOption, sample_chance)
from .cards import INLINE_DECK, inline_deck, load_cardset, load_deck, sample_decks
from .moves import PUT_DOWN, kind_of, payload_of
from .observation import greedy_choice
from .notation import PLAYERS, format_position, is_view, parse_position, parse_view
from .options import RULE_OPTIONS, Options
from .position import CRYSTAL_TOKENS, DEAL, Position, Seat
from .ranges import private_count, private_key, private_keys, private_text
from .rules import crystals_problem
from .steps import advance
from .smallgames import small_game

DEFAULT_DECK = "mista"
DECK_FILE_SUFFIXES = (".toml", ".json")


class CardBattle(Game, DeckBuilding, GreedyPolicy, TunedSearch, Ranges):
    name = "cardbattle"
    player_names = PLAYERS
    implementations = ("fast", "reference")
    uses_tileset = True            # the component data is the card set (--cardset FILE)
    deck_options = ("deck1", "deck2")
    capabilities = Capabilities(chance=True, simultaneous=True, hidden_information=True)
    # No useful bound (void rounds up to max-rounds, tie-break chains): the kernel's history
    # grows with the game instead (engine/kernel.pxd).
    max_game_length = None
    private_state_name = "hand"         # Ranges: what the others cannot see of a player
    # ISMCTS's strongest measured settings at full size (docs/cardbattle.md, "Strength and
    # exploitability"): the game's own playouts and opponent model, inferences, pure play
    ismcts_defaults = ISMCTSDefaults(playout="heuristic", warmup=30, epsilon=0.1, model=1.0,
                                     infer=True, play="best")
    bench_settings = BenchSettings(perft_depth=6, mcts_simulations=10000, searchers=("ismcts",))
    rule_options = RULE_OPTIONS + tuple(
        RuleOption(name, (DEFAULT_DECK,) + tuple(d for d in sample_decks() if d != DEFAULT_DECK),
                   DEFAULT_DECK, f"§2: {player}'s deck: a sample deck, a deck file "
                                 f"(.toml or .json; --deck FILE) or card numbers joined by "
                                 f"'.' (--deck 3.25.27...)")
        for name, player in zip(("deck1", "deck2"), PLAYERS))

    def __init__(self, rules=None, *, impl: str | None = None, seed: int | None = None,
                 tileset: str | None = None):
        self.cardset = load_cardset(tileset)
        super().__init__(rules, impl=impl or self.implementations[0], seed=seed,
                         tileset=tileset)
        self.options = Options.from_rules(self.rules)
        minimum = int(self.rules["deck-minimum"])
        self.decks = [load_deck(self.rules[name], self.cardset, minimum)
                      for name in self.deck_options]

    def _check_rule(self, name: str, value: str) -> str:
        """A deck option also takes a deck file (checked when it is loaded)."""
        if name not in self.deck_options:
            return super()._check_rule(name, value)
        if Path(value).suffix.lower() in DECK_FILE_SUFFIXES or INLINE_DECK.match(value):
            return value
        if value not in sample_decks():
            raise RuleError(f"deck {value!r} ({name}) is neither a sample deck "
                            f"({', '.join(sample_decks())}), a .toml or .json deck file, nor "
                            f"card numbers joined by '.'")
        return value

    # -- deck building and the greedy policy (engine/features.py) ------------------------------

    def deck_cards(self, player: int) -> tuple[int, ...]:
        return tuple(sorted(self.decks[player].cards))

    def deck_value(self, cards) -> str:
        return inline_deck(cards)

    def deck_replacements(self, player: int, card: int) -> tuple[int, ...]:
        """§2: any card of the set not already in the deck, provided the deck keeps a
        creature (the deck's size, and so ``deck-minimum``, does not change)."""
        deck = set(self.decks[player].cards)
        others_hold_a_creature = any(self.cardset.card(n).is_creature for n in deck - {card})
        return tuple(n for n, c in self.cardset.cards.items()
                     if n not in deck and (others_hold_a_creature or c.is_creature))

    def component_name(self, card: int) -> str:
        return self.cardset.card(card).name

    def played_component(self, state, move: int) -> int | None:
        """The card a choice (``play:N``) or a boost (``boost:N``) puts on the table."""
        return payload_of(move) if kind_of(move) in PUT_DOWN else None

    def greedy_move(self, state) -> int:
        """observation.greedy_choice on the mover's own observation (playout.pyx is the
        same in C)."""
        return greedy_choice(state.observation(state.current_player()), self.cardset,
                             state.legal_moves())

    # -- ranges (engine/features.py; ranges.py) ---------------------------------------------

    def private_state(self, state, player: int):
        """(hand, creature chosen in secret or 0), card numbers in increasing order."""
        kernel = getattr(state, "kernel", None)
        if kernel is not None:                  # the fast state's, read in C
            return kernel.private_key(player)
        return private_key(state.to_position(), player)

    def private_states(self, state, player: int) -> tuple:
        return private_keys(state.to_position(), self.cardset, player)

    def private_state_count(self, state, player: int) -> int:
        return private_count(state.to_position(), self.cardset, player)

    def private_state_text(self, key) -> str:
        return private_text(key, self.cardset)

    def with_open_start(self, state):
        """A state made from a dealt position (``new_initial_state``, a match's games) has
        forgotten its deal: replayed from the setup, each draw the one that deals the
        position's hands (their order is forgotten by the information sets, §5), then the
        moves played since."""
        start = state.clone()
        for _ in state.played_moves():
            start.undo()
        if all(self.private_state_count(start, p) == 1 for p in range(len(PLAYERS))):
            return state
        hands = [set(seat.hand) for seat in start.to_position().seats]
        dealt = self.setup_state()
        while dealt.current_player() == CHANCE:
            for move in dealt.legal_moves():
                trial = dealt.clone()
                trial.play(move)
                if all(set(seat.hand) <= hand
                       for seat, hand in zip(trial.to_position().seats, hands)):
                    dealt = trial
                    break
            else:
                return None
        if dealt.position() != start.position():
            return None                         # not a position the deal makes
        for move in state.played_moves():
            dealt.play(move)
        return dealt

    def small_configuration(self, name: str) -> "CardBattle":
        """engine/cardbattle/smallgames/configurations.toml's ``name``, dealing from this
        game's seed (the same seed, the same deal)."""
        config = small_game(name)
        return type(self)(config.rules, impl=self.impl, seed=self.seed,
                          tileset=config.tileset)

    def playout_policy(self):
        """The greedy policy in C for playouts, from the mover's own view (playout.pyx)."""
        from .playout import CardBattlePlayout
        return CardBattlePlayout()

    def component_digest(self) -> str:
        decks = ",".join(".".join(map(str, deck.cards)) for deck in self.decks)
        return f"{self.cardset.digest:016x}:{decks}"

    def _state(self, position: Position):
        if self.impl == "fast":
            from .fast import FastState
            return FastState(self, position)
        return self.reference_state(position)

    def reference_state(self, position: Position):
        """The rules as written at ``position``, whatever ``impl`` is: the round log replays
        a game through it."""
        from .reference import ReferenceState
        return ReferenceState(self, position)

    def setup_state(self):
        """The game before the deal (§3): the deal, the mulligan redraws and the coin toss
        are the chance nodes that follow."""
        tokens = CRYSTAL_TOKENS if self.options.stake else 0       # §6: 8 each, any target
        pos = Position(seats=[Seat(deck=sorted(deck.cards), tokens=tokens)
                              for deck in self.decks], phase=DEAL)
        advance(pos, self.cardset, self.options)
        return self._state(pos)

    def new_initial_state(self):
        """The deal played out with cards drawn from ``seed`` (a fresh seed, kept in
        ``self.seed``, if None): the first decision is P1's mulligan."""
        if self.seed is None:
            self.seed = random.SystemRandom().randrange(2**32)
        rng = random.Random(self.seed)
        state = self.setup_state()
        while state.current_player() == CHANCE:
            state.play(sample_chance(state, rng.random()))
        return self._state(state.to_position())

    def parse_position(self, text: str):
        """The referee's position, or an observer's view (``cardbattle view=P2 ...``, as
        ``observation_string`` prints it): then the state's ``observer`` is that player and
        the cards they cannot see are placeholders (notation.parse_view)."""
        observer = None
        if is_view(text):
            pos, observer = parse_view(text, self.cardset)
        else:
            pos = parse_position(text, self.cardset)
        wrong = crystals_problem(pos, self.options)
        if wrong is not None:
            raise NotationError(f"seat {PLAYERS[wrong[0]]}: {wrong[1]}")
        settled = pos.copy()
        advance(settled, self.cardset, self.options)
        attributes = self.cardset.attributes
        if format_position(settled, attributes) != format_position(pos, attributes):
            raise NotationError("position: not a position the rules stop at (they would go "
                                "on to: " + format_position(settled, attributes) + ")")
        state = self._state(pos)
        if not state.is_terminal() and not state.legal_moves():
            raise NotationError(f"position: {state.to_move_name()} has nothing to do in "
                                f"phase {pos.phase}")
        if observer is not None:
            if state.observation_string(observer) != " ".join(text.split()):
                raise NotationError("view: not as the game prints it (compare with 'crystalpick "
                                    "show' of the position): " + state.observation_string(observer))
            state.observer = observer
        return state

    def describe(self) -> dict:
        info = super().describe()
        info["tileset"] = {"kind": "card set", "name": self.cardset.name,
                           "file": self.cardset.source,
                           "reconstruction": self.cardset.reconstruction,
                           "note": self.cardset.note, "label": self.cardset.label()}
        info["attributes"] = list(self.cardset.attributes)
        info["glosses"] = dict(zip(self.cardset.attributes, self.cardset.glosses))
        info["sample_decks"] = list(sample_decks())
        info["capabilities"] = {"chance": True, "simultaneous": True,
                                "hidden_information": True, "players": 2}
        info["chance"] = ("every draw (deal, mulligan, draw for a creature, tie-break, "
                          "refill) and the coin toss are chance nodes with exact "
                          "probabilities; a new game deals from --seed")
        return info


GAME = CardBattle   # what engine/registry.py loads

__all__ = ["GAME", "CardBattle"]
