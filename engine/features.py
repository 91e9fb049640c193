"""Game features that only some games have, as optional protocols a game declares.

:class:`~crystalpick.engine.game.Capabilities` says what a game asks of a searcher; a
feature says what a game offers beyond the contract (OpenSpiel's ``GameType``, for offers):
decks its players build, a greedy policy of its own, searcher defaults tuned to it, turns
that split into stages. A game
declares a feature by listing it among its bases; a caller asks :func:`provides` (or
:func:`require`, which refuses in one line) instead of calling a method every game would
have to carry. The contract tests check both ways: a declared feature is provided, an
undeclared one is absent.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import ClassVar, Iterable

from .game import GameError, RuleError


class Feature(ABC):
    """A protocol a game may offer. ``offers`` completes "``<game>`` has no ..." and
    ``needed_by`` "... needs ..." in a refusal."""

    offers: ClassVar[str]
    needed_by: ClassVar[str]


def provides(game, feature: type[Feature]) -> bool:
    """Whether ``game`` (a Game or a Game class) declares ``feature``."""
    return issubclass(game if isinstance(game, type) else type(game), feature)


def require(game, feature: type[Feature], user: str):
    """``game`` itself if it declares ``feature``; else a :class:`GameError` naming the game,
    what it lacks and who needed it (``user``: ``"the deck advisor"``, ``"--deck"``)."""
    if not provides(game, feature):
        raise GameError(f"{game.name} has no {feature.offers}: {user} needs "
                        f"{feature.needed_by}")
    return game


class DeckBuilding(Feature):
    """Each player brings a deck of components chosen under deck-building rules (the card
    battle): ``--deck`` fills one rule option per seat, and the deck advisor (apps/decks/)
    measures and changes decks through these methods alone."""

    offers = "decks"
    needed_by = "a game whose players bring decks"
    # The rule options that ``--deck`` fills, one per player in seat order.
    deck_options: ClassVar[tuple[str, ...]]

    @classmethod
    def deck_rules(cls, decks: Iterable[str]) -> dict[str, str]:
        """The rule settings that ``--deck`` values (one per player, in seat order) stand
        for."""
        decks = list(decks)
        if len(decks) != len(cls.deck_options):
            raise RuleError(f"--deck is given once per player: {len(cls.deck_options)} for "
                            f"{cls.name}, got {len(decks)}")
        return dict(zip(cls.deck_options, decks))

    @abstractmethod
    def deck_cards(self, player: int) -> tuple[int, ...]:
        """The components (card numbers) of ``player``'s deck, in increasing order."""

    @abstractmethod
    def deck_value(self, cards: Iterable[int]) -> str:
        """The deck option value that stands for a deck of exactly ``cards`` (no file)."""

    @abstractmethod
    def deck_replacements(self, player: int, card: int) -> tuple[int, ...]:
        """The components that may take ``card``'s place in ``player``'s deck, each leaving
        a legal deck: where the game's deck-building rules live."""

    @abstractmethod
    def component_name(self, card: int) -> str:
        """A component's name, for reports."""

    @abstractmethod
    def played_component(self, state, move: int) -> int | None:
        """The component that the mover puts into play with ``move`` in ``state``, or
        None."""


class GreedyPolicy(Feature):
    """The mover's best immediate choice judged from its own observation: a game that the
    depth-1 alpha-beta ``greedy`` cannot play (hidden information, simultaneous moves)
    offers it, so ``greedy`` still plays it."""

    offers = "greedy policy of its own"
    needed_by = "a game that judges a move from the mover's observation"

    @abstractmethod
    def greedy_move(self, state) -> int:
        """The greedy policy's move in ``state`` (not terminal, not a chance node)."""


@dataclass(frozen=True)
class MCTSDefaults:
    """MCTS's options that a game may tune (search/mcts.pyx): exploration ``c``, ``prior``
    (the evaluation's value of a new move, in visits; 0: none), ``minimax`` (weight of the
    priors' minimax), ``widen`` (progressive widening; 0: none) and ``playout_depth`` (plies
    a playout plays before the evaluation scores it; 0: to the end). These values are what
    a game without :class:`TunedSearch` gets."""

    c: float = 0.5
    prior: float = 0.0
    minimax: float = 0.0
    widen: float = 0.0
    playout_depth: int = 0


@dataclass(frozen=True)
class ISMCTSDefaults:
    """ISMCTS's options that a game may tune for its full-size play (search/ismcts.pyx):
    ``playout`` (random, or the game's own policy: heuristic), ``warmup`` (visits a node
    follows that policy first), ``epsilon`` (share of uniform moves in its playouts),
    ``model`` (share of the others' choices made by it), ``infer`` (the others' hands drawn
    consistent with their past choices) and ``play`` (auto, or best: the move played pure).
    These values are what a game without :class:`TunedSearch` gets, and any game small
    enough to solve exactly, where they approach the equilibrium."""

    playout: str = "random"
    warmup: int = 0
    epsilon: float = 0.0
    model: float = 0.0
    infer: bool = False
    play: str = "auto"


class TunedSearch(Feature):
    """Searcher defaults measured for this game (docs/search.md, docs/cardbattle.md)
    instead of the generic ones, for the searchers the game can be searched by."""

    offers = "tuned searcher defaults"
    needed_by = "a game with measured searcher defaults"
    mcts_defaults: ClassVar[MCTSDefaults] = MCTSDefaults()
    ismcts_defaults: ClassVar[ISMCTSDefaults] = ISMCTSDefaults()


def mcts_defaults(game) -> MCTSDefaults:
    """The MCTS defaults for ``game``: its own if it tunes them, the generic ones if not."""
    return game.mcts_defaults if provides(game, TunedSearch) else MCTSDefaults()


def ismcts_defaults(game) -> ISMCTSDefaults:
    """The ISMCTS defaults for ``game``: its own if it tunes them, the generic ones if not."""
    return game.ismcts_defaults if provides(game, TunedSearch) else ISMCTSDefaults()


class StagedTurns(Feature):
    """A turn is two decisions of the mover, a first stage and then the rest (Mattock: the
    dig, then the walk or none), which a searcher may take one at a time: choosing among a
    few stages first and listing only the chosen stage's moves, as Amazons programs split a
    queen move from its arrow. The stages themselves are the kernel's (engine/kernel.pxd
    ``stages``, ``stage_moves``, ``stage_key``); a game declares here that they are worth
    asking for (every kernel answers, by default one stage per move)."""

    offers = "turns in stages"
    needed_by = "a game whose turns split into a first stage and the rest"

    @abstractmethod
    def stage_notation(self, state, stage: int) -> str:
        """A first stage of a turn in ``state`` as text: the beginning of its moves'
        notation (Mattock's dig ``h5`` of ``h5`` and ``h5/h4-h5``)."""


class Ranges(Feature):
    """A player's private state (the card battle: their hand, and a creature chosen in
    secret) as a key, and every private state the public information leaves possible for
    them, so that a search can hold a probability for each (a range, search/ranges.py)
    instead of drawing worlds. A game declares it where those states can be listed (open
    deck lists: the unseen cards, taken hand-size at a time)."""

    offers = "ranges over private states"
    needed_by = "a game whose private states can be listed"
    # What a private state is called for people ("P2's hand as assumed ...").
    private_state_name: ClassVar[str] = "private state"

    @abstractmethod
    def private_state(self, state, player: int):
        """The canonical key (hashable, ordered) of ``player``'s private state in the full
        ``state``: equal for any two states that differ only in what the others cannot
        see of ``player`` now."""

    @abstractmethod
    def private_states(self, state, player: int) -> tuple:
        """Every key :meth:`private_state` could give for ``player`` in a state with the
        same public observation as ``state``, in increasing order (a superset of those the
        whole public history allows: the range gives the others 0)."""

    @abstractmethod
    def private_state_count(self, state, player: int) -> int:
        """How many :meth:`private_states` there are, counted without listing them."""

    @abstractmethod
    def private_state_text(self, key) -> str:
        """A key of :meth:`private_state` for people, as the game names its parts (an
        analysis shows the range it assumed with it)."""

    @abstractmethod
    def with_open_start(self, state):
        """``state`` with a history that starts where every player knows everything (the
        card battle: the setup before the deal, the deal that made ``state``'s starting
        position played as its chance moves), so a range can be walked from there; ``state``
        itself where its history already does; None where the game cannot make one (a
        position given mid-game). A range walked from a start that hides a hand would hold
        the true hand alone."""


FEATURES: tuple[type[Feature], ...] = (DeckBuilding, GreedyPolicy, TunedSearch, StagedTurns,
                                       Ranges)
