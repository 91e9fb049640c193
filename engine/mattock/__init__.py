"""Mattock: hex-board tunnel digging. Rules: docs/rules/mattock.md (sections cited inline).

Two implementations of the same rules behind the common interface: ``reference`` (plain
Python, read against the rules page) and ``fast`` (the Cython kernel in ``_fast.pyx``), plus
the search knowledge: ``evaluation.pyx``, the playout sampler ``playout.pyx`` and the bench
positions ``positions.bench``.
"""
from __future__ import annotations

import random

from ..features import MCTSDefaults, StagedTurns, TunedSearch
from ..game import BenchSettings, Game, RuleOption
from .board import board, random_start_cells
from .notation import EMPTY, ROCK, TILE, Position, parse_position, start_position


class Mattock(Game, TunedSearch, StagedTurns):
    name = "mattock"
    player_names = ("first", "second")
    # Every ply mines one rock cell: at most 127 - 12 on size 7 (61 - 6 on size 5).
    max_game_length = 115
    # One playout ply, then the evaluation: 40 games at 0.2 s/move against greedy from 20
    # colour-swapped openings (docs/search.md): 1 ply 37/40 (twice), 2 plies 36/40, 4 plies
    # 33/40.
    # The evaluation's value of each new move as one visit, mixed half and half with the
    # minimax of those values below it, and less exploration: 61/100 against alpha-beta at
    # 0.1 s/move (8/40 without; c 0.5 / 0.25 / 0.15, prior 1 / 2 / 4 / 16, minimax
    # 0 / 0.3 / 0.5 in docs/search.md). Progressive widening 2: 67/100 at 0.1 s/move and
    # 52/100 at 1 s/move against alpha-beta, against 61/100 and 48/100 without (not a
    # significant difference either time; widen 1 / 2 / 4 in docs/search.md).
    mcts_defaults = MCTSDefaults(c=0.25, prior=1.0, minimax=0.5, widen=2.0, playout_depth=1)
    evaluation_scale = 150.0      # uncalibrated guess
    score_unit = "Mattock points"    # the evaluator's: 12 a cell in reach (evaluation.pyx)
    bench_settings = BenchSettings(perft_depth=3, alphabeta_depth=4, mcts_simulations=3000)
    rule_options = (
        RuleOption("size", ("5", "7"), "5", "board side length: 5 (61 cells, 3 miners each) or "
                   "7 (127 cells, 6 miners each)"),
        RuleOption("removal", ("blocking", "literal"), "blocking",
                   "which of the mover's miners count towards removing an isolated miner: "
                   "blocking = reached through empty tiles only; literal = the mover's own "
                   "miners do not block"),
        RuleOption("setup", ("standard", "random"), "standard",
                   "start cells: the fixed layout, or drawn per sector and mirrored through "
                   "the centre (seeded with --seed)"),
    )

    def stage_notation(self, state, stage: int) -> str:
        """A turn's first stage is its dig (rules section 4: Mine, then the optional Move);
        the kernel numbers a dig by its cell, which is also the turn that digs it and walks
        nowhere."""
        return state.move_to_str(stage)

    def _state(self, position: Position):
        if self.impl == "fast":
            from .fast import FastState
            return FastState(self, position)
        return self.reference_state(position)

    def reference_state(self, position: Position):
        """The rules as written at ``position``, whatever ``impl`` is: a fast state asks it
        why a move is illegal."""
        from .reference import ReferenceState
        return ReferenceState(self, position)

    def evaluator(self):
        from .evaluation import MattockEvaluator
        return MattockEvaluator()

    def playout_policy(self):
        from .playout import MattockPlayout
        return MattockPlayout()

    def new_initial_state(self):
        size = int(self.rules["size"])
        position = start_position(size, self.rules["removal"])
        if self.rules["setup"] == "random":
            if self.seed is None:
                self.seed = random.SystemRandom().randrange(2**32)
            first, second = random_start_cells(size, random.Random(self.seed))
            b = board(size)
            position.tiles = [ROCK] * b.cell_count
            position.miners = [EMPTY] * b.cell_count
            for player, cells in enumerate((first, second)):
                for cell in cells:
                    position.tiles[cell] = TILE
                    position.miners[cell] = player
        return self._state(position)

    def parse_position(self, text: str):
        return self._state(parse_position(text, self.rules, self.explicit_rules))


GAME = Mattock   # what engine/registry.py loads

__all__ = ["GAME", "Mattock"]
