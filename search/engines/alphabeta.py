"""Alpha-beta as an engine: iterative deepening of the PVS searcher (search/alphabeta.pyx)
within the limits, its transposition table kept between the positions of one game."""
from __future__ import annotations

import time

from ..alphabeta import AlphaBeta
from ..multipv import stopped_lines
from ..options import EngineSchema, Option
from ..requirements import PERFECT_INFORMATION
from ..result import Analysis, Line, line_strings
from ..score import PovScore, Proven, from_alphabeta
from ..symmetry import first_move_classes, twins, use_symmetry
from .base import DEPTH, MAX_DEPTH, NODES, SYMMETRY, TIME, Engine, root_view

SOFT_ITERATION_SHARE = 0.4   # don't start an iteration after this share of the soft budget


class AlphaBetaEngine(Engine):
    name = "alphabeta"
    schema = EngineSchema(
        "alphabeta", "Alpha-beta (PVS) with a transposition table; expectimax at chance nodes.",
        limits=(DEPTH, NODES, TIME),
        options=(
            Option("tt_megabytes", "int", 64, "Transposition table size in MiB.",
                   minimum=1, maximum=65536),
            Option("lmr", "bool", True, "Late-move reductions."),
            Option("star2", "bool", False, "Star2 probing at chance nodes."),
            Option("aspiration", "bool", True, "Aspiration windows around the last score."),
            SYMMETRY,
        ))

    stopped_by = ("depth", "nodes", "time", "clock")
    requires = (PERFECT_INFORMATION,)

    def __init__(self, **options):
        self.options = self.schema.settings(options)
        self.searcher: AlphaBeta | None = None
        self.game = None
        self.classes: list[list[int]] | None = None

    def allocate(self, state) -> None:
        """The searcher (its transposition table) for ``state``'s game, set at ``state``;
        kept between the positions of one game. Where it shares the entries of symmetric
        positions and two first moves are alike, the root's first-move classes
        (``classes``): the search ranks one move of each."""
        kernel = state.search_kernel().clone()
        options = {k: v for k, v in self.options.items() if k != "symmetry"}
        if self.searcher is None or self.game != state.game.identity:
            self.searcher = AlphaBeta(kernel, state.game.evaluator(), **options)
            self.game = state.game.identity
        else:
            self.searcher.set_kernel(kernel)
        choice = self.options["symmetry"]
        classes = first_move_classes(state) if choice != "off" else None
        self.searcher.symmetry = use_symmetry(choice, state, classes)
        alike = self.searcher.symmetry and sum(map(len, classes)) > len(classes)
        self.classes = classes if alike else None

    def analyse(self, state, limits, progress, point_of_view, multipv, stop=None):
        self.check_limits(limits)
        self.allocate(state)
        searcher = self.searcher
        soft, hard = limits.budget()
        start = time.monotonic()
        searcher.begin(None if self.classes is None else {c[0] for c in self.classes})
        searcher.set_stop(stop)
        completed = None
        previous = None
        searcher.set_limits(start + hard if hard is not None else 0.0, limits.nodes or 0)
        for depth in range(1, min(limits.depth or MAX_DEPTH, MAX_DEPTH) + 1):
            if (depth > 1 and soft is not None
                    and time.monotonic() - start > soft * SOFT_ITERATION_SHARE):
                break
            lines = searcher.iterate(depth, multipv, previous)
            if lines is None:
                break
            completed = (depth, lines)
            previous = lines[0][0]
            if progress:
                progress(self.result(state, depth, [(score, pv, depth) for score, pv in lines],
                                     point_of_view, start))
            proof = from_alphabeta(previous)
            if isinstance(proof, Proven) and proof.plies <= depth:
                break
        finished = completed[0] if completed else 0
        if searcher.stopped:
            lines = (stopped_lines(completed, searcher.partial(multipv), multipv)
                     or [searcher.unsearched_line() + (0,)])
        else:
            lines = [(score, pv, finished) for score, pv in completed[1]]
        return self.result(state, finished, lines, point_of_view, start)

    def result(self, state, depth, raw, point_of_view, start) -> Analysis:
        """``raw``: ``(score, pv, depth)`` lines, best first (search/multipv.py)."""
        view = root_view(state)
        scale = state.game.evaluation_scale

        def typed(value: float) -> PovScore:
            return PovScore(from_alphabeta(value, scale), view).viewed_by(point_of_view)

        alike = twins(state, [pv[0] for _, pv, _ in raw if pv])
        lines = [Line(move=pv[0], move_str=state.move_to_str(pv[0]), pv=list(pv),
                      pv_str=line_strings(state, pv), score=typed(value), depth=line_depth,
                      symmetric_to=state.move_to_str(alike[pv[0]]) if pv[0] in alike
                      else None)
                 for value, pv, line_depth in raw if pv]
        elapsed = time.monotonic() - start
        nodes = self.searcher.nodes
        return Analysis(
            engine=self.name, point_of_view=point_of_view,
            point_of_view_name=state.game.player_names[point_of_view], lines=lines,
            score=typed(raw[0][0]), nodes=nodes,
            elapsed=elapsed, nps=nodes / elapsed if elapsed > 0 else 0.0, depth=depth,
            seldepth=self.searcher.seldepth,
            move_classes=None if self.classes is None else len(self.classes))

