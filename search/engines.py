"""The two engines behind :func:`search.analyse`: they drive the Cython searchers within the
limits and turn raw root statistics into an :class:`Analysis`.

An engine object may be kept across the moves of a game: alpha-beta then keeps its
transposition table and history, MCTS its tree (re-rooted at the new position when that
position is in the tree). A :class:`StopFlag` given to ``analyse`` reaches the searchers'
C loops (and the worker processes of root-parallel MCTS and ISMCTS); when it is set they
return their best result so far.
"""
from __future__ import annotations

import dataclasses
import math
import random
import time
from abc import ABC, abstractmethod

from crystalpick.engine.features import mcts_defaults
from crystalpick.engine.game import CHANCE, GameError

from .alphabeta import AlphaBeta
from .ismcts import AVERAGES, ISMCTS, OPPONENTS, PLAYOUTS, PLAYS, SELECTIONS
from .limits import Limits
from .mcts import MCTS, check_prior_options
from .multipv import stopped_lines
from .options import EngineSchema, Option, OptionError
from .result import Analysis, Line, Progress
from .score import Mean, PovScore, Proven, Value, from_alphabeta, from_mcts
from .stop import StopFlag
from .symmetry import SYMMETRY_CHOICES, use_symmetry

MAX_DEPTH = 120              # alpha-beta iterations (the searcher's stack holds MAX_PLIES)
SOFT_ITERATION_SHARE = 0.4   # don't start an iteration after this share of the soft budget
MCTS_CHUNK = 1024            # simulations between progress reports and soft-limit checks

# The per-move search limits, one spelling for every engine that obeys them.
DEPTH = Option("depth", "int", None, "Plies to search (iterative deepening stops there).",
               minimum=1, maximum=MAX_DEPTH)
# The searchers count in 64-bit C integers; a day is the longest search anyone means.
NODES = Option("nodes", "int", None, "Positions to enter before stopping.", minimum=1,
               maximum=2**62)
SIMS = Option("sims", "int", None, "Simulations to run.", minimum=1, maximum=2**62,
              keyword="simulations")
TIME = Option("time", "float", None, "Seconds for this move.", minimum=0, above_minimum=True,
              maximum=86_400)

# The table option of both searchers that key a table by position (search/symmetry.py).
SYMMETRY = Option("symmetry", "choice", "auto", "Symmetric positions share one table entry "
                  "(auto: where two first moves lead to symmetric positions, such as "
                  "Mattock's start).", choices=SYMMETRY_CHOICES)


class Engine(ABC):
    name: str
    schema: EngineSchema
    stopped_by: tuple[str, ...]     # the Limits fields that end this engine's search

    @abstractmethod
    def analyse(self, state, limits: Limits, progress: Progress | None, point_of_view: int,
                multipv: int, stop: StopFlag | None = None) -> Analysis:
        ...

    def check_limits(self, limits: Limits) -> None:
        """Refuse limits of which none would ever stop this engine (analyse checks them
        first; the engine protocol when it reads a go)."""
        require_limit(self.name, limits, self.stopped_by)

    def prepare(self, state) -> None:
        """Refuse now what a search of ``state``'s game would refuse: a game this engine
        cannot play, options the game's defaults contradict, a table that does not fit in
        memory (made now and kept for the searches). The engine protocol calls it at
        setoption, so the refusal is the setoption's, not every later go's."""
        refuse_for(self.name, state.game)
        try:
            self.allocate(state)
        except MemoryError:
            raise not_enough_memory(self.name) from None

    def allocate(self, state) -> None:
        """Make what a search of ``state``'s game needs before it starts (nothing here:
        trees grow as they search)."""


def not_enough_memory(engine: str) -> GameError:
    """One message for a table or tree that does not fit, found at setoption or by analyse."""
    return GameError(f"{engine}: not enough memory for the table or tree its options ask for "
                     f"(lower tt_megabytes, hash or max_nodes)")


def make_engine(name: str, **options) -> Engine:
    """An engine by name (``alphabeta`` or ``mcts``) with its options (see its ``schema``)."""
    if name not in ENGINES:
        raise ValueError(f"unknown engine {name!r}; expected one of {', '.join(ENGINES)}")
    return ENGINES[name](**options)


def require_limit(engine: str, limits: Limits, applicable: tuple[str, ...]) -> None:
    """Refuse a search that none of the given limits would ever stop (unless it is meant to
    run until its stop flag is set: ``infinite``)."""
    if not limits.infinite and all(getattr(limits, name) is None for name in applicable):
        raise ValueError(f"{engine} needs one of these limits: {', '.join(applicable)}")


def refuse_imperfect_information(engine: str, game) -> None:
    """Both searchers walk states as if every player saw them whole: for a game with hidden
    information or a secret simultaneous choice that would let a player read the others'
    cards, so they refuse it (an information-set searcher is needed) instead of cheating."""
    capabilities = game.capabilities
    if capabilities.perfect_information:
        return
    missing = [name for name, present in (("hidden information", capabilities.hidden_information),
                                          ("simultaneous moves", capabilities.simultaneous))
               if present]
    raise GameError(f"{engine} cannot play {game.name}: it searches perfect-information games "
                    f"only and {game.name} has {' and '.join(missing)}; use ismcts (the "
                    f"information-set searcher), greedy or random")


def refuse_perfect_information(engine: str, game) -> None:
    """ISMCTS samples what the searching player cannot see; a game where every player sees
    everything has nothing to sample, and mcts searches it better."""
    if game.capabilities.hidden_information:
        return
    raise GameError(f"{engine} cannot play {game.name}: it searches hidden-information games "
                    f"and {game.name} hides nothing; use mcts or alphabeta")


def refuse_for(engine: str, game) -> None:
    """The searcher ``engine`` refuses ``game`` if it cannot play it as it is."""
    if engine == ISMCTSEngine.name:
        refuse_perfect_information(engine, game)
    else:
        refuse_imperfect_information(engine, game)


def default_engine(game) -> str:
    """The engine a command uses when none is named: ISMCTS for a game with hidden
    information (the only searcher that plays it), alpha-beta otherwise."""
    return ISMCTSEngine.name if game.capabilities.hidden_information else AlphaBetaEngine.name


def root_view(state) -> int:
    """The player whose view the searchers use at the root (player 0 at a chance node)."""
    mover = state.current_player()
    return 0 if mover == CHANCE else mover


def run_in_chunks(tree, limits: Limits, start: float):
    """Run a simulation tree (mcts, ismcts) ``MCTS_CHUNK`` simulations at a time until a
    limit stops it: the hard time limit, the node count and the stop flag inside the C loop,
    the simulation count here. After each full chunk it yields whether the soft time limit
    is past, so the caller reports progress and decides whether to stop there."""
    soft, hard = limits.budget()
    deadline = start + hard if hard is not None else 0.0
    while True:
        chunk = MCTS_CHUNK
        if limits.simulations is not None:
            chunk = min(chunk, limits.simulations - tree.simulations)
        if chunk <= 0 or tree.run(chunk, deadline, limits.nodes or 0) < chunk:
            return
        yield soft is not None and time.monotonic() - start > soft


def line_strings(state, moves) -> list[str]:
    walker = state.clone()
    out = []
    for move in moves:
        out.append(walker.move_to_str(move))
        walker.play(move)
    return out


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

    def __init__(self, **options):
        self.options = self.schema.settings(options)
        self.searcher: AlphaBeta | None = None
        self.game = None

    def allocate(self, state) -> None:
        """The searcher (its transposition table) for ``state``'s game, set at ``state``;
        kept between the positions of one game."""
        kernel = state.search_kernel().clone()
        options = {k: v for k, v in self.options.items() if k != "symmetry"}
        if self.searcher is None or self.game != state.game.identity:
            self.searcher = AlphaBeta(kernel, state.game.evaluator(), **options)
            self.game = state.game.identity
        else:
            self.searcher.set_kernel(kernel)
        self.searcher.symmetry = use_symmetry(self.options["symmetry"], state)

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

        lines = [Line(move=pv[0], move_str=state.move_to_str(pv[0]), pv=list(pv),
                      pv_str=line_strings(state, pv), score=typed(value), depth=line_depth)
                 for value, pv, line_depth in raw if pv]
        elapsed = time.monotonic() - start
        nodes = self.searcher.nodes
        return Analysis(
            engine=self.name, point_of_view=point_of_view,
            point_of_view_name=state.game.player_names[point_of_view], lines=lines,
            score=typed(raw[0][0]), nodes=nodes,
            elapsed=elapsed, nps=nodes / elapsed if elapsed > 0 else 0.0, depth=depth,
            seldepth=self.searcher.seldepth, info={"tt_bytes": self.searcher.tt_bytes})


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
            Option("seed", "int", None, "Seed of the search's random generator.",
                   minimum=0, maximum=2**63 - 1, unset="random"),
        ))

    stopped_by = ("simulations", "nodes", "time", "clock")

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
        if self.workers > 1:
            from .parallel import analyse_in_workers
            return analyse_in_workers(self, state, limits, point_of_view, multipv, stop)
        start = time.monotonic()
        stats = self.search(state, limits, progress, point_of_view, multipv, start, stop)
        return self.result(state, stats, point_of_view, multipv, start)

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
                progress(self.result(state, self.statistics(tree, kept), point_of_view,
                                     multipv, start))
            if past_soft_limit and self.settled(tree, state):
                break
        return self.statistics(tree, kept)

    @staticmethod
    def settled(tree, state) -> bool:
        """Past the soft limit, stop unless the most visited move is not the best valued."""
        sign = 1 if root_view(state) == 0 else -1
        children = [c for c in tree.root_children() if c[1] > 0]
        if not children:
            return True
        most = max(children, key=lambda c: c[1])
        best = max(children, key=lambda c: sign * c[2] / c[1])
        return most[0] == best[0]

    @staticmethod
    def statistics(tree, kept) -> dict:
        children = tree.root_children()
        top = sorted(children, key=lambda c: -c[1])[:8]
        return {
            "children": children,
            "pvs": {c[0]: tree.principal_variation(c[0]) for c in top},
            "root": tree.root_summary(),
            "simulations": tree.simulations, "nodes": tree.made,
            "tree_nodes": tree.node_count, "depth": tree.max_tree_depth, "kept": kept,
        }

    def result(self, state, stats, point_of_view, multipv, start) -> Analysis:
        mover_sign = 1 if root_view(state) == 0 else -1

        def rank(child):
            move, visits, value, proven = child
            proven_rank = 0 if proven is None else 2 if mover_sign * proven > 0 else -1
            return (proven_rank, visits)

        # at a chance node the children are outcomes, not moves anyone chooses
        ordered = [] if state.is_chance_node() else sorted(stats["children"], key=rank,
                                                            reverse=True)[:multipv]
        lines = []
        for move, visits, value, proven in ordered:
            pv = stats["pvs"].get(move) or [move]
            score = PovScore(from_mcts(value / visits if visits else 0.0, proven), 0)
            lines.append(Line(move=move, move_str=state.move_to_str(move), pv=pv,
                              pv_str=line_strings(state, pv),
                              score=score.viewed_by(point_of_view), visits=visits))
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
            bytes_per_node=MCTS.bytes_per_node(),
            info={"simulations_per_second":
                  stats["simulations"] / elapsed if elapsed > 0 else 0.0})

def secure_move(lines) -> int:
    """The option to play pure: the largest lower bound ``win rate - 1/sqrt(visits)`` (about
    two standard errors of a result in [0, 1]). Not the largest share of the average
    strategy: regret matching's average lags, and after a few hundred simulations it can
    still rank a losing pass above the boost that wins (tests/test_ismcts.py)."""
    visited = [line for line in lines if line.visits] or lines
    return max(visited, key=lambda line: line.win_probability
               - 1 / math.sqrt(max(line.visits, 1))).move


class ISMCTSEngine(Engine):
    """Information Set MCTS (search/ismcts.pyx) from one player's view: the observer is the
    point of view (by default the player to move), and nothing they cannot see is read."""
    name = "ismcts"
    schema = EngineSchema(
        "ismcts", "Information Set MCTS for hidden-information games: a mixed strategy from "
                  "the player's own view.",
        limits=(SIMS, NODES, TIME),
        options=(
            Option("selection", "choice", "rm", "Selection rule: regret matching, EXP3 or "
                   "plain UCT (exploitable at simultaneous choices).", choices=SELECTIONS),
            Option("gamma", "float", 0.1, "Exploration share of rm and exp3.",
                   minimum=0, maximum=1, above_minimum=True),
            Option("c", "float", 0.7, "Exploration constant of uct (rewards in [0, 1]).",
                   minimum=0),
            Option("playout", "choice", "random", "Playouts uniformly random or by the "
                   "game's own policy (heuristic).", choices=PLAYOUTS),
            Option("warmup", "int", 0, "Visits an information set plays the playout policy "
                   "before its selection rule (heuristic playouts only).", minimum=0,
                   maximum=10**6),
            Option("epsilon", "float", 0.0, "Share of uniformly random moves in heuristic "
                   "playouts.", minimum=0, maximum=1),
            Option("model", "float", 0.0, "Share of the other players' choices in the tree "
                   "made by the game's playout policy from their sampled hand (an opponent "
                   "model) instead of the selection rule.", minimum=0, maximum=1),
            Option("infer", "bool", False, "Draw the other player's hand consistent with "
                   "their past choices as the game's playout policy would have made them "
                   "(the opponent model of model=1; needs the game's history)."),
            Option("play", "choice", "auto", "The move played: drawn from the mixed strategy "
                   "(sample), the option with the best win rate less 1/sqrt(visits) (best), "
                   "or best except at a secret simultaneous choice (auto).", choices=PLAYS),
            Option("opponent", "choice", "public", "The other player's information sets: "
                   "keyed by the public observation or by their own (their sampled hand).",
                   choices=OPPONENTS),
            Option("redraw", "float", 0.0, "Share of simulations that redraw the player's own "
                   "hand too, as the others see it, so their information sets answer every "
                   "hand the player might hold rather than the real one (for small games: "
                   "the real hand gets the rest).", minimum=0, maximum=1),
            Option("average", "choice", "linear", "The recommended strategy of rm and exp3: "
                   "the average of the strategies played, each weighted by its visit's number "
                   "(linear) or all alike (plain).", choices=AVERAGES),
            Option("max_nodes", "int", 1_000_000, "Information sets kept, at most.",
                   minimum=1024, maximum=2**30),
            Option("workers", "int", 1, "Root-parallel worker processes: independent trees "
                   "with seeds drawn from the search's, their root arms summed.",
                   minimum=1, maximum=256),
            Option("seed", "int", None, "Seed of the determinizations, the search and the "
                   "move drawn from the mixed strategy.", minimum=0, maximum=2**63 - 1,
                   unset="random"),
        ))

    stopped_by = ("simulations", "nodes", "time", "clock")

    def __init__(self, **options):
        self.options = self.schema.settings(options)
        self.seed = self.options.pop("seed")
        if self.seed is None:
            self.seed = random.SystemRandom().randrange(2**63)
        self.searches = 0

    def analyse(self, state, limits, progress, point_of_view, multipv, stop=None):
        self.check_limits(limits)
        refuse_perfect_information(self.name, state.game)
        start = time.monotonic()
        # each search of this engine draws from its own seed: the n-th move of a game alike
        rng = random.Random(f"{self.seed}:{self.searches}")
        self.searches += 1
        seeds = [rng.getrandbits(63) for _ in range(self.options["workers"])]
        policy = state.game.playout_policy()
        if self.options["infer"]:
            policy.infer(state.search_kernel(), point_of_view)
        if len(seeds) == 1:
            stats = self.search(state, policy, limits, progress, point_of_view, seeds[0],
                                start, stop)
        else:
            from .parallel import run_in_workers
            stats = merge_arms(run_in_workers([lambda seed=seed: self.search(
                state, policy, limits, None, point_of_view, seed, start, stop)
                for seed in seeds]))
        return self.result(state, stats, point_of_view, start, rng)

    def search(self, state, policy, limits, progress, observer, seed, start, stop) -> dict:
        """One tree's search within the limits (or until ``stop`` is set): its raw root
        statistics, as ``merge_arms`` sums them."""
        selection = self.options["selection"]
        exploration = self.options["c"] if selection == "uct" else self.options["gamma"]
        # a fresh kernel: no history of the real game below the search
        kernel = state.game.parse_position(state.position()).search_kernel()
        tree = ISMCTS(kernel, policy, observer, selection,
                      exploration, seed, self.options["max_nodes"],
                      self.options["playout"], self.options["warmup"],
                      self.options["opponent"], self.options["epsilon"],
                      self.options["model"], self.options["redraw"], self.options["average"])
        tree.set_stop(stop)
        tree.reset_counters()
        for past_soft_limit in run_in_chunks(tree, limits, start):
            if progress:
                progress(self.result(state, tree_statistics(tree), observer, start, None))
            if past_soft_limit:
                break
        return tree_statistics(tree)

    def result(self, state, stats, observer, start, rng) -> Analysis:
        """Every option of the observer's decision with its share of the average strategy
        (uct: of the visits), its win rate and visits; the overall win probability is the
        strategy's expected win rate (the simulations' mean when the observer is not to
        move). ``rng`` draws the move to play from the strategy (None: a progress report)."""
        arms = stats["arms"]
        selection = self.options["selection"]
        weights = [(visits if selection == "uct" else strategy) for _, visits, _, strategy, _
                   in arms]
        total = sum(weights)
        shares = [w / total if total > 0 else 1.0 / len(arms) for w in weights]
        lines = []
        for (move, visits, value, _, _), share in zip(arms, shares):
            rate = value / visits if visits else 0.5
            lines.append(Line(move=move, move_str=state.move_to_str(move), pv=[move],
                              pv_str=[state.move_to_str(move)], visits=visits,
                              probability=share,
                              score=PovScore(Mean(2 * rate - 1), observer)))
        lines.sort(key=lambda line: (-line.probability, -line.visits))
        simulations = stats["simulations"]
        if lines and any(line.visits for line in lines):
            expected = sum(line.probability * line.win_probability for line in lines)
        else:
            real = stats["real_simulations"]
            expected = stats["result_sum"] / real if real else 0.5
        play, how = None, None
        if rng is not None and lines:
            # drawn even when not used, so each search takes the same share of the seed
            drawn = rng.choices([line.move for line in lines],
                                [line.probability for line in lines])[0]
            mode = self.options["play"]
            pure = mode == "best" or (mode == "auto" and not stats["secret"])
            play = secure_move(lines) if pure else drawn
            how = "pure" if pure else "drawn"
        elapsed = time.monotonic() - start
        return Analysis(
            engine=self.name, point_of_view=observer,
            point_of_view_name=state.game.player_names[observer], lines=lines,
            score=PovScore(Mean(2 * expected - 1), observer), nodes=stats["nodes"],
            elapsed=elapsed, nps=stats["nodes"] / elapsed if elapsed > 0 else 0.0,
            seldepth=stats["depth"], simulations=simulations, seed=self.seed,
            workers=self.options["workers"], tree_nodes=stats["tree_nodes"],
            bytes_per_node=ISMCTS.bytes_per_node(), play_move=play,
            info={"simulations_per_second": simulations / elapsed if elapsed > 0 else 0.0,
                  "selection": selection, "observer": state.game.player_names[observer],
                  **({"real_simulations": stats["real_simulations"]}
                     if self.options["redraw"] else {}),
                  **({"play": how} if how else {})})


def tree_statistics(tree) -> dict:
    """What ``ISMCTSEngine.result`` reads of a tree, as plain data a worker can send."""
    return {"arms": tree.root_arms(), "simulations": tree.simulations, "nodes": tree.made,
            "depth": tree.max_tree_depth, "tree_nodes": tree.node_count,
            "real_simulations": tree.real_simulations, "result_sum": tree.result_sum,
            "secret": tree.root_is_secret()}


def merge_arms(results: list[dict]) -> dict:
    """ISMCTS's trees: sum each root arm's visits, values, average-strategy sums and
    availability (arms in the order the first tree met them), and the counts."""
    arms: dict[int, list] = {}
    for stats in results:
        for move, *numbers in stats["arms"]:
            entry = arms.setdefault(move, [move, 0, 0.0, 0.0, 0])
            for i, number in enumerate(numbers, 1):
                entry[i] += number
    merged = {key: sum(s[key] for s in results)
              for key in ("simulations", "nodes", "tree_nodes", "real_simulations",
                          "result_sum")}
    return dict(merged, arms=[tuple(a) for a in arms.values()],
                depth=max(s["depth"] for s in results), secret=results[0]["secret"])


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
                 SYMMETRY))

    stopped_by = ("nodes", "time", "clock")

    def __init__(self, **options):
        self.options = self.schema.settings(options)
        self.solver = None
        self.game = None

    def allocate(self, state) -> None:
        """The solver (its table) for ``state``'s game: it refuses a game with chance."""
        from .solve import Solver
        if self.solver is None or self.game != state.game.identity:
            self.solver = Solver(state.game, self.options["hash"],
                                 symmetry=self.options["symmetry"])
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
            depth=len(pv), info={"tt_bytes": solution.tt_bytes, "exact": solution.exact})


ENGINES = {engine.name: engine for engine in (AlphaBetaEngine, MCTSEngine, ISMCTSEngine,
                                              DfpnEngine)}
