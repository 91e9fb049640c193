"""Alpha-beta as an engine: iterative deepening of the PVS searcher (search/alphabeta.pyx)
within the limits, its transposition table kept between the positions of one game."""
from __future__ import annotations

import time

from ..alphabeta import AlphaBeta
from ..options import EngineSchema, Option
from ..requirements import PERFECT_INFORMATION
from ..result import Analysis, Line, line_strings
from ..score import PovScore, Proven, from_alphabeta
from .base import DEPTH, MAX_DEPTH, NODES, TIME, Engine, root_view

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
        ))

    stopped_by = ("depth", "nodes", "time", "clock")
    requires = (PERFECT_INFORMATION,)

    def __init__(self, **options):
        self.options = self.schema.settings(options)
        self.searcher: AlphaBeta | None = None
        self.game = None

    def allocate(self, state) -> None:
        """The searcher (its transposition table) for ``state``'s game, set at ``state``;
        kept between the positions of one game."""
        kernel = state.search_kernel().clone()
        if self.searcher is None or self.game != state.game.identity:
            self.searcher = AlphaBeta(kernel, state.game.evaluator(), **self.options)
            self.game = state.game.identity
        else:
            self.searcher.set_kernel(kernel)

    def analyse(self, state, limits, progress, point_of_view, multipv, stop=None):
        self.check_limits(limits)
        self.allocate(state)
        searcher = self.searcher
        soft, hard = limits.budget()
        start = time.monotonic()
        searcher.begin()
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
                progress(self.result(state, completed, point_of_view, start))
            proof = from_alphabeta(previous)
            if isinstance(proof, Proven) and proof.plies <= depth:
                break
        if searcher.stopped:
            completed = with_interrupted_iteration(completed, searcher.partial(multipv),
                                                   multipv)
        return self.result(state, completed, point_of_view, start)

    def result(self, state, completed, point_of_view, start) -> Analysis:
        depth, raw = completed
        view = root_view(state)
        scale = state.game.evaluation_scale

        def typed(value: float) -> PovScore:
            return PovScore(from_alphabeta(value, scale), view).viewed_by(point_of_view)

        lines = [Line(move=pv[0], move_str=state.move_to_str(pv[0]), pv=list(pv),
                      pv_str=line_strings(state, pv), score=typed(value))
                 for value, pv in raw if pv]
        elapsed = time.monotonic() - start
        nodes = self.searcher.nodes
        return Analysis(
            engine=self.name, point_of_view=point_of_view,
            point_of_view_name=state.game.player_names[point_of_view], lines=lines,
            score=typed(raw[0][0]), nodes=nodes,
            elapsed=elapsed, nps=nodes / elapsed if elapsed > 0 else 0.0, depth=depth,
            seldepth=self.searcher.seldepth, info={"tt_bytes": self.searcher.tt_bytes})


def with_interrupted_iteration(completed, partial, multipv):
    """What a stopped alpha-beta search reports: the interrupted iteration's lines if no
    iteration completed; otherwise the last completed iteration, led by the interrupted
    iteration's best move when that is not the previous best (the previous best is searched
    first, so another leader has beaten it one ply deeper)."""
    if completed is None:
        return 0, partial
    depth, lines = completed
    score, pv = partial[0]
    if not pv or pv[0] == lines[0][1][0]:
        return completed
    return depth, [(score, pv)] + [line for line in lines if line[1][0] != pv[0]][:multipv - 1]
