"""MCTS as an engine: the UCT searcher (search/mcts.pyx) run in chunks within the limits,
its tree kept and re-rooted between the moves of one game, the game's defaults filling the
options left unset; ``workers=N`` searches N independent trees in worker processes and sums
their roots (search/parallel.py, engines/roots.py)."""
from __future__ import annotations

import dataclasses
import random
import time

from crystalpick.engine.features import mcts_defaults
from crystalpick.engine.game import GameError

from ..decompose import DECOMPOSE_CHOICES, MCTS_AUTO, use_decomposition
from ..mcts import MCTS, check_prior_options
from ..options import EngineSchema, Option, OptionError
from ..parallel import run_in_workers
from ..requirements import PERFECT_INFORMATION
from ..result import Analysis, Line, line_strings
from ..score import PovScore, from_mcts
from ..symmetry import twins
from .base import NODES, SIMS, TIME, Engine, root_view, run_in_chunks
from .roots import mcts_statistics, merge_mcts

# MCTS options that read the moves' priors (check_prior_options says why each needs them)
PRIOR_OPTIONS = frozenset({"minimax", "widen"})


class MCTSEngine(Engine):
    name = "mcts"
    schema = EngineSchema(
        "mcts", "UCT Monte Carlo tree search with MCTS-Solver and tree reuse.",
        limits=(SIMS, NODES, TIME),
        options=(
            Option("c", "float", None, "Exploration constant of UCT (results in [-1, 1]; "
                   "default: the game's).", minimum=0, unset="game"),
            Option("playout", "choice", "random", "Playout policy (prior: none, a new leaf "
                   "is expanded and scored by its best move's prior; needs prior > 0).",
                   choices=("random", "heuristic", "prior")),
            Option("solver", "bool", True, "MCTS-Solver: prove wins and losses in the tree."),
            Option("workers", "int", 1, "Root-parallel worker processes.",
                   minimum=1, maximum=256),
            Option("reuse", "bool", True, "Keep the subtree of the new position between moves."),
            Option("max_nodes", "int", 16_000_000, "Tree size limit in nodes (32 bytes each; "
                   "the tree grows as it needs to).",
                   minimum=1024, maximum=2**30),
            Option("playout_depth", "int", None, "Plies before a playout is cut short and "
                   "scored by the evaluation (0: play to the end; default: the game's).",
                   minimum=0, unset="game"),
            Option("prior", "float", None, "Visits' worth of the evaluation's value given to "
                   "each new move (0: none, unvisited moves first; default: the game's).",
                   minimum=0, unset="game"),
            Option("minimax", "float", None, "Weight of the minimax of the priors below a "
                   "move in selection (implicit minimax backups; needs prior > 0; default: "
                   "the game's).", minimum=0, maximum=1, unset="game"),
            Option("widen", "float", None, "Progressive widening: a node's moves sorted by "
                   "prior, selection looks at the first 1 + widen x sqrt(visits) (0: all; "
                   "needs prior > 0; default: the game's).", minimum=0, unset="game"),
            Option("decompose", "choice", "auto", "Choose a turn's first stage by its "
                   "statistics, then a move of it (Mattock: the dig, then the walk; auto: as "
                   "measured, docs/search.md).", choices=DECOMPOSE_CHOICES),
            Option("seed", "int", None, "Seed of the search's random generator.",
                   minimum=0, maximum=2**63 - 1, unset="random"),
        ))

    stopped_by = ("simulations", "nodes", "time", "clock")
    requires = (PERFECT_INFORMATION,)

    def __init__(self, **options):
        settings = self.schema.settings(options)
        if settings["prior"] is not None:
            try:
                check_prior_options(settings["playout"], settings["prior"],
                                    settings["minimax"] or 0.0, settings["widen"] or 0.0)
            except ValueError as err:
                raise OptionError(str(err)) from None
        self.seed = settings.pop("seed")
        if self.seed is None:
            self.seed = random.SystemRandom().randrange(2**63)
        self.workers = settings.pop("workers")
        self.reuse = settings.pop("reuse")
        self.options = settings
        self.tree: MCTS | None = None
        self.game = None

    def analyse(self, state, limits, progress, point_of_view, multipv, stop=None):
        self.check_limits(limits)
        start = time.monotonic()
        if self.workers > 1:
            stats = self.search_in_workers(state, limits, point_of_view, multipv, start, stop)
        else:
            stats = self.search(state, limits, progress, point_of_view, multipv, start, stop)
        return self.result(state, stats, point_of_view, multipv, start)

    def search_in_workers(self, state, limits, point_of_view, multipv, start, stop) -> dict:
        """Root parallelism: ``workers`` fresh trees seeded seed, seed+1, ..., each searched
        in a worker process within the same limits, their root statistics summed."""
        options = dict(self.options, workers=1, reuse=False)
        trees = [MCTSEngine(seed=self.seed + i, **options) for i in range(self.workers)]
        return merge_mcts(run_in_workers([lambda tree=tree: tree.search(
            state, limits, None, point_of_view, multipv, start, stop) for tree in trees], stop))

    def allocate(self, state) -> None:
        self.tree_options(state.game)

    def tree_options(self, game) -> dict:
        """The tree's options for ``game``: those left unset take the game's defaults, and
        together they must make sense (the prior options need priors)."""
        options = dict(self.options)
        defaults = dataclasses.asdict(mcts_defaults(game))
        unset = {key for key in defaults if options[key] is None}
        for key in unset:
            options[key] = defaults[key]
        if options["prior"] == 0:    # the game's options that need priors give way
            for key in PRIOR_OPTIONS & unset:
                options[key] = 0.0
        try:
            check_prior_options(options["playout"], options["prior"], options["minimax"],
                                options["widen"])
        except ValueError as err:
            raise GameError(f"{err} ({game.name}'s defaults: {defaults})") from None
        options["exploration"] = options.pop("c")
        options["decompose"] = use_decomposition(options["decompose"], game, MCTS_AUTO)
        return options

    def tree_for(self, state) -> tuple[MCTS, int]:
        """The tree to search ``state`` with, and how many nodes of the old one it kept."""
        game = state.game
        kernel = state.search_kernel().clone()
        if self.tree is not None and self.reuse and self.game == game.identity:
            kept = self.tree.reuse(kernel)
        else:
            options = self.tree_options(game)
            self.tree = MCTS(kernel, game.evaluator(), game.playout_policy(), seed=self.seed,
                             evaluation_scale=game.evaluation_scale, **options)
            self.game = game.identity
            kept = 0
        self.tree.reset_counters()
        return self.tree, kept

    def search(self, state, limits, progress, point_of_view, multipv, start,
               stop=None) -> dict:
        """Run simulations within the limits (or until ``stop`` is set); return the raw root
        statistics."""
        tree, kept = self.tree_for(state)
        tree.set_stop(stop)
        for past_soft_limit in run_in_chunks(tree, limits, start):
            if progress:
                progress(self.result(state, mcts_statistics(tree, kept), point_of_view,
                                     multipv, start))
            if past_soft_limit and self.settled(tree, state):
                break
        return mcts_statistics(tree, kept)

    @staticmethod
    def settled(tree, state) -> bool:
        """Past the soft limit, stop unless the most visited move (of the most visited
        stage) is not the best valued."""
        sign = 1 if root_view(state) == 0 else -1
        children = [c for c in tree.root_children() if c[1] > 0]
        if not children:
            return True
        stage_visits = tree.root_stage_visits()
        most = max(children, key=lambda c: (stage_visits[c[0]], c[1]))
        best = max(children, key=lambda c: sign * c[2] / c[1])
        return most[0] == best[0]

    def result(self, state, stats, point_of_view, multipv, start) -> Analysis:
        mover_sign = 1 if root_view(state) == 0 else -1

        def rank(child):
            """Proven wins first, proven losses last, else the tree's choice: the most
            visited stage (with ``decompose``), then the most visited move of it."""
            move, visits, value, proven = child
            proven_rank = 0 if proven is None else 2 if mover_sign * proven > 0 else -1
            return (proven_rank, stats["stage_visits"].get(move, visits), visits)

        # at a chance node the children are outcomes, not moves anyone chooses
        ordered = [] if state.is_chance_node() else sorted(stats["children"], key=rank,
                                                            reverse=True)[:multipv]
        lines = []
        alike = twins(state, [child[0] for child in ordered])
        for move, visits, value, proven in ordered:
            pv = stats["pvs"].get(move) or [move]
            score = PovScore(from_mcts(value / visits if visits else 0.0, proven), 0)
            lines.append(Line(move=move, move_str=state.move_to_str(move), pv=pv,
                              pv_str=line_strings(state, pv),
                              score=score.viewed_by(point_of_view), visits=visits,
                              symmetric_to=state.move_to_str(alike[move]) if move in alike
                              else None))
        _, root_visits, root_value, root_proven = stats["root"]
        if root_proven is None and lines:
            score = lines[0].score
        else:
            score = PovScore(from_mcts(root_value / max(root_visits, 1), root_proven),
                             0).viewed_by(point_of_view)
        elapsed = time.monotonic() - start
        return Analysis(
            engine=self.name, point_of_view=point_of_view,
            point_of_view_name=state.game.player_names[point_of_view], lines=lines,
            score=score, nodes=stats["nodes"], elapsed=elapsed,
            nps=stats["nodes"] / elapsed if elapsed > 0 else 0.0,
            seldepth=stats["depth"], simulations=stats["simulations"], seed=self.seed,
            workers=self.workers, tree_kept=stats["kept"], tree_nodes=stats["tree_nodes"],
            bytes_per_node=MCTS.bytes_per_node())
