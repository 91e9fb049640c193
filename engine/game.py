"""The common game interface: every game implements it and every searcher drives it.

Modelled on OpenSpiel. A :class:`Game` holds the rule options and knows the notation; a
:class:`State` is one position that can be played forward and undone. Searchers, perft, the
CLI and the match runner only ever talk to these two classes, so they never know which game
they are playing.

Conventions (the same for every game):

* Players are ``0`` (moves first) and ``1``. ``current_player()`` returns :data:`CHANCE` at a
  chance node and :data:`TERMINAL` when the game is over.
* A move (or a chance outcome) is a non-negative ``int``, unique among the legal moves of its
  state. Its meaning is private to the game; ``move_to_str``/``parse_move`` translate it to and
  from the game's move notation. Integers keep moves cheap to store in search trees and
  comparable across the fast and reference implementations of a game.
* Values are always from a named point of view: ``returns()[p]`` is player ``p``'s result,
  +1 for a win, -1 for a loss, 0 for a draw.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from importlib import resources
from typing import ClassVar, Iterable, Mapping

CHANCE = -1
TERMINAL = -2


class GameError(ValueError):
    """Base of every error caused by what a user gave us (not by a bug)."""


class NotationError(GameError):
    """A position or move string is malformed; the message names the bad part."""


class IllegalMoveError(GameError):
    """A well-formed move that the rules forbid in the given position."""


class RuleError(GameError):
    """An unknown rule option or an unknown value for one."""


@dataclass(frozen=True)
class Capabilities:
    """What a game asks of a searcher (OpenSpiel's GameType): a searcher that cannot handle
    one of these refuses the game instead of playing it as something it is not."""

    chance: bool = False                # chance nodes (CHANCE) with exact probabilities
    simultaneous: bool = False          # secret simultaneous choices (made sequential)
    hidden_information: bool = False    # a player does not see the whole state
    players: int = 2

    @property
    def perfect_information(self) -> bool:
        """Every player sees the whole state at every decision: what a minimax or UCT search
        over the states (not over information sets) assumes."""
        return not (self.simultaneous or self.hidden_information)


@dataclass(frozen=True)
class RuleOption:
    """A named rule variant, settable from the CLI as ``--rule NAME=VALUE``."""

    name: str
    choices: tuple[str, ...]
    default: str
    help: str


@dataclass(frozen=True)
class BenchSettings:
    """The fixed workload ``crystalpick bench`` runs on each of a game's bench positions:
    perft, then each searcher (alpha-beta to a depth, the Monte Carlo searchers for a
    number of simulations)."""

    perft_depth: int
    mcts_simulations: int               # for mcts and ismcts
    alphabeta_depth: int = 0            # for alphabeta
    searchers: tuple[str, ...] = ("alphabeta", "mcts")

    def budget(self, searcher: str) -> dict:
        """The Limits fields of ``searcher``'s fixed budget."""
        return ({"depth": self.alphabeta_depth} if searcher == "alphabeta"
                else {"simulations": self.mcts_simulations})


BENCH_FILE = "positions.bench"      # a game's bench positions, in its own package


class Game(ABC):
    """A game with its rule options fixed: a factory for states and the notation's owner.

    It also hands the searchers what they know about the game: its evaluator and playout
    policy (engine/evaluation.pxd, matched to its kernel), how evaluation units map to win
    probabilities, and the bench workload. The defaults know nothing, which is correct for
    any game, only slower to play well. What only some games offer (decks, a greedy policy
    of their own, tuned searcher defaults) is an optional feature (engine/features.py).
    """

    name: ClassVar[str]
    player_names: ClassVar[tuple[str, str]]
    rule_options: ClassVar[tuple[RuleOption, ...]]
    implementations: ClassVar[tuple[str, ...]] = ("fast", "reference")
    uses_tileset: ClassVar[bool] = False     # True if component data comes from a tileset file
    capabilities: ClassVar[Capabilities] = Capabilities()
    # Plies (chance outcomes included) no game under any rule option exceeds; the kernels'
    # history and the searchers' stacks are sized from it (engine/kernel.pxd MAX_PLIES). None:
    # no useful bound; the game's kernel then grows its history with the game, and searchers
    # bound their lines from their root (the card battle).
    max_game_length: ClassVar[int | None]
    # Evaluation units per logistic unit: a score x means a win probability of
    # 1 / (1 + exp(-x / evaluation_scale)), i.e. tanh(x / (2 * evaluation_scale)) as a result
    # in [-1, 1]. Both searchers use this one number.
    evaluation_scale: ClassVar[float] = 150.0
    # What the evaluator's scores are in (a searcher's ``Value``, alpha-beta's ``+52.0``),
    # named by every output that prints one, so a reader knows what a number means.
    score_unit: ClassVar[str] = "evaluation units"
    bench_settings: ClassVar[BenchSettings | None] = None     # None: not in crystalpick bench

    def __init__(self, rules: Mapping[str, str] | None = None, *, impl: str = "fast",
                 seed: int | None = None, tileset: str | None = None):
        if tileset is not None and not self.uses_tileset:
            raise RuleError(f"{self.name} has no component data; --tileset does not apply")
        self.tileset_path = tileset
        if impl not in self.implementations:
            raise RuleError(f"unknown implementation {impl!r}; expected one of "
                            f"{', '.join(self.implementations)}")
        self.impl = impl
        self.seed = seed
        self.rules = {opt.name: opt.default for opt in self.rule_options}
        self.explicit_rules = dict(rules or {})
        for name, value in self.explicit_rules.items():
            self.rules[name] = self._check_rule(name, value)

    def rule_choices(self, option: RuleOption) -> tuple[str, ...]:
        """The values ``option`` may take in this game (a game whose choices depend on its
        data, like Maatatahay's layouts from the tileset, overrides this)."""
        return option.choices

    def _check_rule(self, name: str, value: str) -> str:
        options = {opt.name: opt for opt in self.rule_options}
        if name not in options:
            known = ", ".join(options) or "none"
            raise RuleError(f"unknown rule option {name!r} for {self.name}; known options: {known}")
        choices = self.rule_choices(options[name])
        if value not in choices:
            raise RuleError(f"rule {name}={value!r} is not valid; expected one of "
                            f"{'|'.join(choices)}")
        return value

    def component_digest(self) -> str:
        """A digest of the component data (a game loaded from data files overrides this)."""
        return ""

    @property
    def identity(self) -> tuple:
        """Everything that decides what a position means: name, every rule option and the
        component data. Caches (transposition tables, MCTS trees) are keyed by it."""
        return (self.name, tuple(sorted(self.rules.items())), self.component_digest())

    @abstractmethod
    def new_initial_state(self) -> "State":
        """The start position under this game's rule options (drawn with ``seed`` if random;
        a game that draws a seed itself stores it in ``self.seed`` so it can be printed)."""

    @abstractmethod
    def parse_position(self, text: str) -> "State":
        """Parse the game's one-line position notation; raise :class:`NotationError`."""

    def state(self, position: str | None = None, moves: Iterable[str] | str = ()) -> "State":
        """The position ``position`` (default: the start) after playing ``moves`` in notation."""
        state = self.new_initial_state() if position is None else self.parse_position(position)
        return play_moves(state, moves)

    def small_configuration(self, name: str) -> "Game":
        """A named small configuration of this game (its rules and component data), for
        exact solving; RuleError if there is none by that name."""
        raise RuleError(f"{self.name} has no named small configurations")

    def evaluator(self):
        """The searchers' evaluation hook for this game's fast kernel (default: all zero)."""
        from .evaluation import Evaluator
        return Evaluator()

    def playout_policy(self):
        """How MCTS draws playout moves on this game's fast kernel (default: from the
        generated moves)."""
        from .evaluation import PlayoutPolicy
        return PlayoutPolicy()

    def bench_suite(self) -> list:
        """The positions ``crystalpick bench`` runs: :data:`BENCH_FILE` in the package that
        defines the game class (perft-file layout, see crystalpick.positions)."""
        from crystalpick.positions import parse_suite
        package = type(self).__module__
        text = resources.files(package).joinpath(BENCH_FILE).read_text(encoding="utf-8")
        return parse_suite(text, f"{package}/{BENCH_FILE}")

    def describe(self) -> dict:
        """What ``crystalpick games`` prints: options with defaults and anything notable."""
        return {
            "name": self.name,
            "players": list(self.player_names),
            "rules": [{"name": o.name, "choices": list(o.choices), "default": o.default,
                       "help": o.help} for o in self.rule_options],
            "implementations": list(self.implementations),
        }


def sample_chance(state: "State", u: float) -> int:
    """The chance outcome at ``u`` in [0, 1) on the cumulative distribution of the outcomes
    in the state's order: the one way chance is drawn everywhere (matches, setups, random
    games), so one random number per chance event gives common random numbers."""
    total = 0.0
    outcomes = state.chance_outcomes()
    for move, probability in outcomes:
        total += probability
        if u < total:
            return move
    return outcomes[-1][0]


class State(ABC):
    """One position of a game; mutable through :meth:`play` and :meth:`undo`.

    A fast implementation (:class:`KernelState`) also has a C-level twin, a ``GameKernel``
    (engine/kernel.pxd), which the searchers drive: see :meth:`search_kernel`.
    """

    game: Game
    # A state parsed from one player's view (a game with hidden information): that player;
    # what they cannot see is a placeholder, so only their analysis of it means anything.
    observer: int | None = None

    @abstractmethod
    def current_player(self) -> int:
        """0 or 1 to move, :data:`CHANCE` at a chance node, :data:`TERMINAL` when over."""

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    @abstractmethod
    def legal_moves(self) -> list[int]:
        """The legal moves, or at a chance node the possible outcomes; empty when terminal."""

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(outcome, probability)`` pairs at a chance node (exact, summing to 1)."""
        raise GameError(f"{self.game.name} position is not a chance node")

    @abstractmethod
    def play(self, move: int) -> None:
        """Apply a legal move or chance outcome (not checked: validate with parse_move)."""

    @abstractmethod
    def undo(self) -> None:
        """Take back the last :meth:`play`."""

    @abstractmethod
    def clone(self) -> "State":
        ...

    @abstractmethod
    def returns(self) -> tuple[float, float]:
        """Each player's result at a terminal state: +1 win, -1 loss, 0 draw."""

    def winner(self) -> int | None:
        """The winning player of a finished game, or None (draw or not finished)."""
        if not self.is_terminal():
            return None
        r = self.returns()
        return 0 if r[0] > r[1] else 1 if r[1] > r[0] else None

    def end_reason(self) -> str:
        """Why the game is over in this position, in the game's own terms and short (e.g.
        Mattock's ``second cannot mine``): ``play`` says it, a match records it."""
        if not self.is_terminal():
            raise GameError(f"the {self.game.name} game is not over in this position")
        return self.rules_end_reason()

    @abstractmethod
    def rules_end_reason(self) -> str:
        """:meth:`end_reason` at a terminal state: which of the game's end conditions
        holds, where its rules live."""

    @abstractmethod
    def hash_key(self) -> int:
        """A 64-bit Zobrist key of everything that matters to the rules (for TT lookup)."""

    @abstractmethod
    def position(self) -> str:
        """The one-line position notation; ``game.parse_position`` round-trips it exactly."""

    @abstractmethod
    def move_to_str(self, move: int) -> str:
        ...

    def describe_move(self, move: int) -> str:
        """``move`` for people, starting with its notation (so it can be typed back) and
        adding what helps a reader, e.g. a card's name (default: the notation alone)."""
        return self.move_to_str(move)

    @abstractmethod
    def parse_move(self, text: str) -> int:
        """Translate move notation to a legal move of this state or raise a GameError."""

    @abstractmethod
    def render(self, color: bool = False, notation: bool = True) -> str:
        """A human-readable Unicode diagram of the position (ANSI colours if ``color``),
        ending with the position string if ``notation`` (``play`` prints it on request)."""

    # -- what one player knows (the observation) ----------------------------------------------
    # A searcher that plays from one player's point of view must read only that player's
    # observation. With perfect information it is the whole state, which these defaults say;
    # a game with hidden information (Capabilities.hidden_information) overrides both.

    def observation(self, player: int) -> dict:
        """What ``player`` knows here, as JSON-friendly data (perfect information: the
        position)."""
        return {"player": player, "position": self.position()}

    def observation_string(self, player: int) -> str:
        """What ``player`` knows here as one line of notation, unknown parts written as
        unknown (perfect information: the position string)."""
        return self.position()

    def move_to_str_seen_by(self, move: int, player: int) -> str | None:
        """``move`` (about to be played here) as ``player`` sees it: its notation, with what
        that player may not see hidden (perfect information: all of it); None when the player
        cannot even tell that the move was made."""
        return self.move_to_str(move)

    def describe_seen(self, move: int, player: int | None = None) -> str | None:
        """``move`` (about to be played here) for people, as ``player`` (None: the referee,
        who sees everything) sees it: :meth:`describe_move` where they see all of it, else
        :meth:`move_to_str_seen_by` (None: they cannot tell it was made). A game may add
        whose move and why (the card battle says whose draw and what it is for)."""
        seen = self.move_to_str(move) if player is None else self.move_to_str_seen_by(move,
                                                                                      player)
        return self.describe_move(move) if seen == self.move_to_str(move) else seen

    # -- what one player remembers (the information state) -------------------------------------
    # Everything ``player`` has observed since the state was made (for a new game: since the
    # deal), in order: OpenSpiel's information_state_string beside observation_string. Two
    # histories that differ only in what the player cannot see give equal information states,
    # and a player's own moves are in it, so it has perfect recall by construction. With
    # perfect information it is the history, which these defaults say from the move log; a
    # game with hidden information overrides information_state.

    # The moves since the state was made, a linked list (earlier, move, record) that clones
    # share safely, and the position before the first of them.
    _played: tuple | None = None
    _start: str | None = None

    def remember_move(self, move: int) -> None:
        """Log ``move``, about to be played here (every implementation's ``play`` calls it
        before changing the position; ``forget_move`` in ``undo``)."""
        if self._played is None:
            self._start = self.position()
        self._played = (self._played, move, self.move_record(move))

    def move_record(self, move: int):
        """What a game with hidden information keeps of the ply that plays ``move`` here for
        its information states (default: nothing; the move itself is logged)."""
        return None

    def forget_move(self) -> None:
        self._played = self._played[0] if self._played else None

    def played_moves(self) -> list[int]:
        """The moves played since the state was made, in order."""
        moves, link = [], self._played
        while link:
            link, move = link[0], link[1]
            moves.append(move)
        return moves[::-1]

    def information_state(self, player: int) -> tuple:
        """What ``player`` has observed since the state was made, as a tuple of events
        ``(kind, text)`` (perfect information: the start position, then every move)."""
        if not self.game.capabilities.perfect_information:
            raise GameError(f"{self.game.name} has hidden information but defines no "
                            f"information state")
        moves = self.played_moves()
        if not moves:
            return (("start", self.position()),)
        replay = self.game.parse_position(self._start)
        events = [("start", self._start)]
        for move in moves:
            events.append(("move", replay.move_to_str(move)))
            replay.play(move)
        return tuple(events)

    def information_state_key(self, player: int) -> int:
        """A 64-bit key of :meth:`information_state` (the kernel's where there is one)."""
        return hash(self.information_state_string(player)) & (2**64 - 1)

    def information_state_prefix_keys(self, player: int) -> list[int]:
        """:meth:`information_state_key` of each beginning of the player's record (its first
        event, first two, ..., all of it), so that a walk over other histories (a range,
        search/ranges.py) tells by one key whether a history's record begins this one,
        without building records as text. Default: from the text, as the key is."""
        events = [f"{kind} {text}" for kind, text in self.information_state(player)]
        return [hash("; ".join(events[:n])) & (2**64 - 1) for n in range(1, len(events) + 1)]

    def information_set_key(self, player: int) -> int:
        """A 64-bit key of the player's information set: :meth:`information_state_key` with
        what the rules make strategically irrelevant forgotten (engine/kernel.pxd
        ``information_set_key``; default: nothing is)."""
        return self.information_state_key(player)

    def information_state_string(self, player: int) -> str:
        """:meth:`information_state` as one line: its events' texts joined by ``; ``, each
        after its kind."""
        return "; ".join(f"{kind} {text}" for kind, text in self.information_state(player))

    def determinization(self, player: int, seed: int) -> "State":
        """A full state drawn from ``seed`` among those consistent with ``player``'s
        observation: what that player cannot see (the others' hands, deck contents, a secret
        choice) filled in at random, uniformly over what the observation allows. Where others
        made secret choices of a simultaneous step that ``player`` waits on, the state is
        the one before those choices, so that a searcher makes them with its own model of
        those players (the kernel's ``determinize``, engine/kernel.pxd, is the same in C).
        A game without hidden information has nothing to draw and refuses."""
        raise GameError(f"{self.game.name} has no hidden information: every player sees the "
                        f"whole state, so there is nothing to sample")

    def knowing_kernel(self, player: int, seed: int, beliefs=None,
                       own_range=None) -> "KnowingKernel":
        """A fresh search kernel of this position (no history below it) whose
        ``determinize(player)`` draws only worlds that ``player``'s information state
        allows, drawn from ``seed``: with moves played since the state was made, everything
        they saw in them (a game with hidden information overrides this to read its
        record), else their observation (this default: what a bare view allows, and all a
        perfect-information game has to know). ``beliefs``, the other player's range
        (``{private state: probability}``, search/ranges.py), makes the draws follow it, and
        ``own_range``, the player's own as the other player knows it, makes the kernel's
        determinize for the other player follow that: only a game with the Ranges feature
        can take one."""
        if beliefs is not None or own_range is not None:
            raise GameError(f"{self.game.name} has no ranges to draw worlds from")
        return KnowingKernel(self.game.parse_position(self.position()).search_kernel())

    def svg(self, marks=()) -> str:
        """An SVG diagram of the position with ``marks`` drawn: (move, label, weight) triples
        (engine/marks.py MoveMark), rank 1 first, e.g. an analysis's lines with their scores;
        a move the diagram cannot show is left out."""
        raise GameError(f"{self.game.name} has no SVG diagrams yet")

    def perft(self, depth: int, stop=None) -> int | None:
        """Number of move paths of length ``depth`` (chance outcomes count as plies); None if
        ``stop`` (a stop flag) was set before the count ended.

        The generic walk over this interface, which the reference implementations (and any
        new game) get for free; fast states override it with a native loop. The last ply is
        bulk-counted (at depth 1 the answer is the number of legal moves); ``stop`` is read
        at every inner node as the native loops read its word: once set, the count unwinds
        with the position restored."""
        try:
            return _perft_walk(self, depth, stop)
        except _PerftStopped:
            return None

    def search_kernel(self):
        """The state's own ``GameKernel`` for the searchers (clone it before searching); only
        a fast implementation has one."""
        raise GameError(f"the {self.game.impl} implementation of {self.game.name} cannot be "
                        f"searched; use the fast one (impl='fast')")

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.position()!r}>"

    def to_move_name(self) -> str:
        player = self.current_player()
        if player == CHANCE:
            return "chance"
        if player == TERMINAL:
            return "none (game over)"
        return self.game.player_names[player]


def play_moves(state: "State", moves: Iterable[str] | str) -> "State":
    """``state`` after playing ``moves`` (notation, a list or one string) on it; a
    GameError naming the first bad move by its number."""
    if isinstance(moves, str):
        moves = moves.split()
    for number, text in enumerate(moves, 1):
        try:
            move = state.parse_move(text)
        except GameError as err:
            raise type(err)(f"move {number}: {err}") from None
        state.play(move)
    return state


@dataclass(frozen=True)
class KnowingKernel:
    """A search kernel for a searcher that reads one player's information only
    (:meth:`State.knowing_kernel`), and what its determinizations rest on: the player's
    record since the state was made, ``plies`` they saw made, or none (0): their view only."""

    kernel: object
    plies: int = 0

    @property
    def knowledge(self) -> str:
        """``history`` or ``view``: what a search from this kernel says it knew."""
        return "history" if self.plies else "view"


class CopyMakeState(State):
    """A reference State: the position is a plain object (``pos``, with ``copy()``) and undo
    restores the copy kept before each move, so no unmake logic can be wrong. Its ``play``
    calls :meth:`remember` with the move before changing ``pos``. List it before the game's
    shared State class."""

    def __init__(self, game, position):
        self.game = game
        self.pos = position
        self._history: list = []

    def remember(self, move: int) -> None:
        self.remember_move(move)
        self._history.append(self.pos.copy())

    def undo(self) -> None:
        self.pos = self._history.pop()
        self.forget_move()

    def clone(self):
        twin = type(self)(self.game, self.pos.copy())
        twin._history = [p.copy() for p in self._history]
        twin._played, twin._start = self._played, self._start
        return twin


class KernelState(State):
    """A fast State: the rules live in ``kernel``, a Cython ``GameKernel`` whose Python side
    (engine/kernel.pyx) this forwards to. List it before the game's shared State class."""

    kernel = None

    def search_kernel(self):
        return self.kernel

    def current_player(self) -> int:
        return self.kernel.current_player()

    def legal_moves(self) -> list[int]:
        return self.kernel.legal_moves()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.is_chance_node():
            return super().chance_outcomes()
        return self.kernel.chance_outcomes()

    def play(self, move: int) -> None:
        self.remember_move(move)
        self.kernel.play(move)

    def undo(self) -> None:
        self.kernel.undo()
        self.forget_move()

    def information_state_key(self, player: int) -> int:
        """The kernel's 64-bit key of :meth:`information_state` (engine/kernel.pxd)."""
        return self.kernel.information_state_key_of(player)

    def information_set_key(self, player: int) -> int:
        """The kernel's 64-bit key of the player's information set (engine/kernel.pxd)."""
        return self.kernel.information_set_key_of(player)

    def information_state_prefix_keys(self, player: int) -> list[int]:
        """The kernel's key at each ply since the state was made: each ply is one event of
        a record (perfect information: the positions; a kernel with hidden information,
        whose plies add none or several, overrides this)."""
        twin, keys = self.clone(), [self.information_state_key(player)]
        for _ in self.played_moves():
            twin.undo()
            keys.append(twin.information_state_key(player))
        return keys[::-1]

    def clone(self):
        twin = type(self).__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin.kernel = self.kernel.clone()
        return twin

    def hash_key(self) -> int:
        return self.kernel.key

    def played_on(self, moves: list[int]) -> "State":
        """A clone with ``moves`` played by the kernel alone, noted in the move log: moves a
        walk in C found legal (search/ranges.py holds thousands of such worlds), without
        :meth:`play`'s checks or a log start read per clone (this state keeps it)."""
        if self._played is None and self._start is None:
            self._start = self.position()
        twin = self.clone()
        for move in moves:
            twin._played = (twin._played, move, twin.move_record(move))
            twin.kernel.play(move)
        return twin

    def to_position(self):
        return self.kernel.to_position()

    def at_kernel(self, kernel) -> "State":
        """A fresh state of this game (no move log) at ``kernel``'s position: a world a
        searcher drew from this state's kernel, read with the game's own methods (every
        game makes its states from a position with ``_state``)."""
        return self.game._state(kernel.to_position())

    def perft(self, depth: int, stop=None) -> int | None:
        """Native perft: the walk runs in C without the GIL, the last ply bulk-counted, and
        reads ``stop``'s word at every inner node."""
        return self.kernel.perft(depth, stop)


class _PerftStopped(Exception):
    """Unwinds State.perft's walk once the stop flag is seen."""


def _perft_walk(state: State, depth: int, stop) -> int:
    if depth <= 0:
        return 1
    moves = state.legal_moves()
    if depth == 1:
        return len(moves)
    if stop is not None and stop.is_set():
        raise _PerftStopped
    total = 0
    for move in moves:
        state.play(move)
        try:
            total += _perft_walk(state, depth - 1, stop)
        finally:
            state.undo()
    return total
