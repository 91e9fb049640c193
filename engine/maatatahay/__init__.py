"""Maatatahay: warrior tiles on a 5x5 board. Rules: docs/rules/maatatahay.md.

Two implementations of the same rules behind the common interface: ``reference`` (plain
Python, read against the rules page) and ``fast`` (the Cython kernel in ``_fast.pyx``), plus
the search knowledge: ``evaluation.pyx`` and the bench positions ``positions.bench``.
All component values come from a tileset file (``tileset.py``); the default one is the
project's own reconstruction. Design notes: docs/maatatahay.md.
"""
from __future__ import annotations

import random

from ..game import CHANCE, BenchSettings, Capabilities, Game, RuleOption, sample_chance
from .constants import PLAY_OPTIONS
from .notation import parse_position
from .position import Position
from .start import RANDOM_LAYOUT, setup_position
from .tileset import TRIBES, load_tileset


class Maatatahay(Game):
    name = "maatatahay"
    player_names = TRIBES
    uses_tileset = True
    capabilities = Capabilities(chance=True)
    # The setup's 25 chance plies, then at most 12 rounds of at most 17 plies each.
    max_game_length = 229
    evaluation_scale = 150.0      # uncalibrated guess
    score_unit = "Maatatahay units (40 a game point)"
    bench_settings = BenchSettings(perft_depth=5, alphabeta_depth=6, mcts_simulations=5000)
    rule_options = PLAY_OPTIONS + (
        RuleOption("layout", (RANDOM_LAYOUT,) + tuple(load_tileset().layouts), RANDOM_LAYOUT,
                   "temple layout at setup: a named layout of the tileset (the sources name "
                   "diagonal, partial-diagonal, even, chaos), or random (the Standard game): "
                   "each of the tileset's layouts equally likely; the choices listed are the "
                   "default tileset's"),
    )

    def __init__(self, rules=None, *, impl: str = "fast", seed: int | None = None,
                 tileset: str | None = None):
        self.tileset = load_tileset(tileset)
        super().__init__(rules, impl=impl, seed=seed, tileset=tileset)

    def rule_choices(self, option: RuleOption) -> tuple[str, ...]:
        """Layouts are the loaded tileset's, so a user tileset may name its own."""
        if option.name == "layout":
            return (RANDOM_LAYOUT,) + tuple(self.tileset.layouts)
        return option.choices

    def evaluator(self):
        from .evaluation import MaatatahayEvaluator
        return MaatatahayEvaluator()

    def component_digest(self) -> str:
        return f"{self.tileset.digest:016x}"

    def _state(self, position: Position):
        if self.impl == "fast":
            from .fast import FastState
            return FastState(self, position)
        from .reference import ReferenceState
        return ReferenceState(self, position)

    def setup_state(self):
        """The game before its setup: the layout (if random), the cell crystals, the first
        three pairs and the coin toss are the chance nodes that follow."""
        options = {o.name: self.rules[o.name] for o in PLAY_OPTIONS}
        return self._state(setup_position(self.tileset, self.rules["layout"], options))

    def new_initial_state(self):
        """The setup's chance nodes played out with outcomes drawn (by their probabilities)
        from ``seed``: a fresh seed, kept in ``self.seed``, if None."""
        if self.seed is None:
            self.seed = random.SystemRandom().randrange(2**32)
        rng = random.Random(self.seed)
        state = self.setup_state()
        while state.current_player() == CHANCE:
            state.play(sample_chance(state, rng.random()))
        return self._state(state.to_position())

    def parse_position(self, text: str):
        return self._state(parse_position(text, self.tileset, self.rules, self.explicit_rules))

    def describe(self) -> dict:
        info = super().describe()
        info["tileset"] = {"kind": "tileset", "name": self.tileset.name,
                           "file": self.tileset.source,
                           "reconstruction": self.tileset.reconstruction,
                           "note": self.tileset.note, "label": self.tileset.label()}
        info["layouts"] = list(self.tileset.layouts)
        info["chance"] = ("setup (layout, cell crystals, first pairs, coin toss), relic bag "
                          "draws and pair refills are chance nodes with exact probabilities; "
                          "a new game plays the setup's outcomes from --seed")
        return info


GAME = Maatatahay   # what engine/registry.py loads

__all__ = ["GAME", "Maatatahay"]
