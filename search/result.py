"""What a search reports: :class:`Analysis` with one :class:`Line` per multi-PV line."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Hashable

from .score import PovScore


@dataclass
class Line:
    """One candidate move with its continuation and value (one per multi-PV line)."""
    move: int
    move_str: str
    pv: list[int]
    pv_str: list[str]
    score: PovScore         # from the analysis's point of view (search/score.py)
    visits: int | None = None        # MCTS, ISMCTS
    probability: float | None = None  # ISMCTS: the move's share of the mixed strategy
    depth: int | None = None         # alpha-beta: the iteration its score comes from (multipv.py)
    symmetric_to: str | None = None  # an earlier line's move whose position mirrors this one's

    @property
    def win_probability(self) -> float:
        return self.score.win_probability


@dataclass(frozen=True)
class MixedStrategy:
    """How a mixed-strategy search (ismcts, mccfr) reached its recommendation, for whoever
    reads it: what its draws of the hidden cards rested on and how the move to play was
    chosen (``analyse`` prints and documents these fields; docs/analysis.schema.json)."""
    knowledge: str                      # "history": all the player saw; "view": the view alone
    plies_seen: int                     # plies of the history read (0 with the view)
    play: str = "drawn"                 # play_move drawn from the strategy, or "pure"
    selection: str | None = None        # ismcts: its selection rule (rm)
    searched_from: str | None = None    # mccfr: the root it searched from, in words
    real_simulations: int | None = None  # ismcts with redraw: simulations with the real hand
    reached: int | None = None          # mccfr: iterations through the decision's set
    note: str | None = None             # what makes the strategy rest on less than it seems


@dataclass(frozen=True)
class AssumedRange:
    """The other player's private states (the card battle: hands) as a search assumed them,
    the likeliest first (search/assumed.py): never a range the search did not use."""
    player: int                         # whose private states
    player_name: str
    noun: str                           # what one is called (Ranges.private_state_name)
    possible: int                       # how many the public observation leaves possible
    method: str                         # how they were drawn, in words
    samples: int | None                 # draws the probabilities are shares of (None: exact)
    distinct: int                       # different ones drawn (exact: above 0)
    hands: tuple[tuple[Hashable, str, float], ...]  # the likeliest: key, text, share


@dataclass
class Analysis:
    engine: str
    point_of_view: int
    point_of_view_name: str
    lines: list[Line]
    score: PovScore
    nodes: int
    elapsed: float
    nps: float
    depth: int | None = None          # alpha-beta: last completed iteration (a line may be deeper)
    seldepth: int | None = None       # alpha-beta: deepest ply entered; MCTS: deepest tree ply
    move_classes: int | None = None   # alpha-beta: the root's symmetry classes, one line each
    simulations: int | None = None    # MCTS
    seed: int | None = None           # MCTS: the seed used (give it back to reproduce)
    workers: int = 1
    tree_kept: int | None = None      # MCTS tree reuse: nodes carried over from last search
    tree_nodes: int | None = None
    bytes_per_node: int | None = None
    # a mixed strategy's: the lines are every option, the likeliest first, and play_move is
    # the move to play, drawn from it with the engine's seed or chosen pure (strategy.play)
    strategy: MixedStrategy | None = None
    play_move: int | None = None
    assumed: AssumedRange | None = None   # the other player's range the search assumed

    @property
    def mixed(self) -> bool:
        """The recommendation is a mixed strategy (a probability per option)."""
        return self.strategy is not None

    @property
    def move_to_play(self) -> int | None:
        return self.play_move if self.play_move is not None else self.best_move

    @property
    def win_probability(self) -> float:
        return self.score.win_probability

    @property
    def proven(self) -> bool:
        return self.score.proven

    @property
    def best_move(self) -> int | None:
        return self.lines[0].move if self.lines else None

    @property
    def best_move_str(self) -> str | None:
        return self.lines[0].move_str if self.lines else None

    @property
    def pv(self) -> list[int]:
        return self.lines[0].pv if self.lines else []

    @property
    def pv_str(self) -> list[str]:
        return self.lines[0].pv_str if self.lines else []


Progress = Callable[[Analysis], None]


def line_strings(state, moves) -> list[str]:
    """The notation of ``moves`` played one after another from ``state`` (left unchanged):
    a line's ``pv_str``, for every engine and the solver."""
    walker = state.clone()
    out = []
    for move in moves:
        out.append(walker.move_to_str(move))
        walker.play(move)
    return out


def line_depth(line, analysis) -> int | None:
    """The depth a line's score comes from: its own (a stopped alpha-beta search mixes two
    iterations, search/multipv.py), else the analysis's."""
    return line.depth if line.depth is not None else analysis.depth
