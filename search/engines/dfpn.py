"""The df-pn solver (search/solve.py) as an engine: a proof when the limits allow one,
otherwise a draw's score and the first move not proven to lose."""
from __future__ import annotations

from ..decompose import DECOMPOSE_CHOICES
from ..options import EngineSchema, Option
from ..result import Analysis, Line, line_strings
from ..score import PovScore, Value
from ..solve import Solver
from .base import NODES, SYMMETRY, TIME, Engine


class DfpnEngine(Engine):
    """The solver as an engine: its score is a proof (``win N`` / ``loss N``) when the limits
    allow one; otherwise it is 0 and the move the first not proven to lose."""
    name = "dfpn"
    schema = EngineSchema(
        "dfpn", "Depth-first proof-number search: proves wins and losses (no chance or "
                "hidden information).",
        limits=(NODES, TIME),
        options=(Option("hash", "int", 64, "Transposition table size in MiB.",
                        minimum=1, maximum=65536),
                 SYMMETRY,
                 Option("decompose", "choice", "auto", "Search a turn as its first stage and "
                        "then the rest (auto: where the game's turns split so, as Mattock's "
                        "dig and walk).", choices=DECOMPOSE_CHOICES)))

    stopped_by = ("nodes", "time", "clock")
    requires = Solver.requires

    def __init__(self, **options):
        self.options = self.schema.settings(options)
        self.solver = None
        self.game = None

    def allocate(self, state) -> None:
        """The solver (its table) for ``state``'s game."""
        if self.solver is None or self.game != state.game.identity:
            self.solver = Solver(state.game, self.options["hash"],
                                 symmetry=self.options["symmetry"],
                                 decompose=self.options["decompose"])
            self.game = state.game.identity

    def analyse(self, state, limits, progress, point_of_view, multipv, stop=None):
        self.check_limits(limits)
        self.allocate(state)
        _, hard = limits.budget()
        solution = self.solver.solve(state, seconds=hard, nodes=limits.nodes, stop=stop)
        view = state.current_player()
        if solution.score is not None and solution.line:
            relative, pv = solution.score, solution.line
        else:
            rows = [row for row in solution.root_moves if row.status != "loss"] \
                or solution.root_moves
            relative, pv = Value(0.0, state.game.evaluation_scale), [rows[0].move]
        score = PovScore(relative, view).viewed_by(point_of_view)
        line = Line(move=pv[0], move_str=state.move_to_str(pv[0]), pv=list(pv),
                    pv_str=line_strings(state, pv), score=score)
        return Analysis(
            engine=self.name, point_of_view=point_of_view,
            point_of_view_name=state.game.player_names[point_of_view], lines=[line],
            score=score, nodes=solution.nodes, elapsed=solution.elapsed, nps=solution.nps,
            depth=len(pv))
