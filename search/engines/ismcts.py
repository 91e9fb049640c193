"""ISMCTS as an engine: the information-set searcher (search/ismcts.pyx) from one player's
view, within the limits; each search draws from its own seed, and ``workers=N`` sums the
root arms of N trees searched in worker processes (search/parallel.py, engines/roots.py)."""
from __future__ import annotations

import dataclasses
import math
import time

from crystalpick.engine.features import ISMCTSDefaults, ismcts_defaults

from ..assumed import drawn_range
from ..beliefs import Beliefs
from ..ismcts import ISMCTS, OPPONENTS, PLAYOUTS, PLAYS
from ..options import EngineSchema, Option
from ..parallel import run_in_workers
from ..requirements import HIDDEN_INFORMATION
from ..result import Analysis, Line, MixedStrategy
from ..score import Mean, PovScore
from ..tree_size import exactly_solvable
from .base import NODES, SIMS, TIME, SeededEngine, run_in_chunks
from .roots import ismcts_statistics, merge_ismcts


def secure_move(lines) -> int:
    """The option to play pure: the largest lower bound ``win rate - 1/sqrt(visits)`` (about
    two standard errors of a result in [0, 1]). Not the largest share of the average
    strategy: regret matching's average lags, and after a few hundred simulations it can
    still rank a losing pass above the boost that wins (tests/test_ismcts.py)."""
    visited = [line for line in lines if line.visits] or lines
    return max(visited, key=lambda line: line.win_probability
               - 1 / math.sqrt(max(line.visits, 1))).move


GAME_TUNED = "game-tuned"      # unset: the game's measured value at full size (game_options)


class ISMCTSEngine(SeededEngine):
    """Information Set MCTS (search/ismcts.pyx) from one player's view: the observer is the
    point of view (by default the player to move), and nothing they cannot see is read."""
    name = "ismcts"
    schema = EngineSchema(
        "ismcts", "Information Set MCTS for hidden-information games: a mixed strategy from "
                  "the player's own view.",
        limits=(SIMS, NODES, TIME),
        options=(
            Option("selection", "choice", "rm", "Selection rule: regret matching (the only "
                   "one; named in the output).", choices=("rm",)),
            Option("gamma", "float", 0.1, "Exploration: regret matching's uniform share.",
                   minimum=0, maximum=1, above_minimum=True),
            Option("playout", "choice", None, "Playouts uniformly random or by the game's own "
                   "policy (heuristic).", choices=PLAYOUTS, unset=GAME_TUNED),
            Option("warmup", "int", None, "Visits an information set plays the playout policy "
                   "before its selection rule (heuristic playouts only).", minimum=0,
                   maximum=10**6, unset=GAME_TUNED),
            Option("epsilon", "float", None, "Share of uniformly random moves in heuristic "
                   "playouts.", minimum=0, maximum=1, unset=GAME_TUNED),
            Option("model", "float", None, "Share of the other players' choices in the tree "
                   "made by the game's playout policy from their sampled hand (an opponent "
                   "model) instead of the selection rule.", minimum=0, maximum=1,
                   unset=GAME_TUNED),
            Option("infer", "bool", None, "Draw the other player's hand consistent with "
                   "their past choices as the game's playout policy would have made them "
                   "(the opponent model of model=1; needs the game's history).",
                   unset=GAME_TUNED),
            Option("range", "bool", False, "Draw the other player's hand by their range: "
                   "Bayes from the game's history under a model of their play (the game's "
                   "playout policy, 10% uniform: search/beliefs.py) instead of infer's hard "
                   "inferences; infer still serves where no range can be had (no history)."),
            Option("play", "choice", None, "The move played: the option with the best win "
                   "rate less 1/sqrt(visits) (best), or that except at a secret simultaneous "
                   "choice, where it is drawn from the mixed strategy (auto).", choices=PLAYS,
                   unset=GAME_TUNED),
            Option("opponent", "choice", "public", "The other player's information sets: "
                   "keyed by the public observation or by their own (their sampled hand).",
                   choices=OPPONENTS),
            Option("redraw", "float", 0.0, "Share of simulations that redraw the player's own "
                   "hand too, as the others see it, so their information sets answer every "
                   "hand the player might hold rather than the real one (for small games: "
                   "the real hand gets the rest).", minimum=0, maximum=1),
            Option("average", "choice", "linear", "The recommended strategy: the average of "
                   "the strategies played, each weighted by its visit's number (linear, the "
                   "only one).", choices=("linear",)),
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
    requires = (HIDDEN_INFORMATION,)

    def __init__(self, **options):
        super().__init__(**options)
        self.beliefs = Beliefs()
        self.range = None           # the range the last search drew from (None: none)

    def game_options(self, game) -> dict:
        """The options of a search of ``game``: those left unset take the game's measured
        defaults (engine/features.py ``ismcts_defaults``; the card battle's are its strength
        settings) where the game is too large to solve exactly, and the generic ones (which
        approach the equilibrium) on a small game or one that tunes none."""
        tuned = ISMCTSDefaults() if exactly_solvable(game) else ismcts_defaults(game)
        defaults = dataclasses.asdict(tuned)
        return {key: defaults[key] if value is None and key in defaults else value
                for key, value in self.options.items()}

    def analyse(self, state, limits, progress, point_of_view, multipv, stop=None):
        self.check_limits(limits)
        start = time.monotonic()
        options = self.game_options(state.game)
        rng = self.next_search_rng()
        seeds = [rng.getrandbits(63) for _ in range(options["workers"])]
        policy = state.game.playout_policy()
        self.range = (self.beliefs.range_of(state, point_of_view)
                      if options["range"] else None)
        inferred = bool(options["infer"] and self.range is None
                        and policy.infer(state.search_kernel(), point_of_view))
        # what the determinizations rest on: the player's whole record where the state has
        # one (by the other's range if asked), else their view (a fresh kernel: no history
        # of the real game below the search)
        knowing = state.knowing_kernel(point_of_view, seeds[0],
                                       self.range.probabilities if self.range else None)
        self.drawn = (knowing.kernel, policy, seeds[0], inferred, len(seeds))
        if len(seeds) == 1:
            stats = self.search(state, knowing, policy, options, limits, progress,
                                point_of_view, seeds[0], start, stop)
        else:
            stats = merge_ismcts(run_in_workers([lambda seed=seed: self.search(
                state, knowing, policy, options, limits, None, point_of_view, seed, start,
                stop) for seed in seeds], stop))
        return self.result(state, stats, options, point_of_view, start, rng, knowing)

    drawn = None    # the last search's kernel, playout policy, seed, whether it inferred, workers

    def assumed_range(self, state, observer, shown):
        """The other hand as the simulations drew it: the same policy's determinize of the
        same kernel, from the first tree's seed (search/assumed.py)."""
        if self.drawn is None:
            return None
        kernel, policy, seed, inferred, workers = self.drawn
        other = state.game.player_names[1 - observer]
        method = f"{self.name}'s draws" + (f", inferred from {other}'s play"
                                           if inferred else "")
        if self.range is not None:
            method += f", by {other}'s range (Bayes under the playout policy's model)"
        if workers > 1:     # what a policy keeps between draws was kept in each worker
            method += f", drawn again here as in each of its {workers} workers"
        return drawn_range(state, kernel, policy, observer, seed, method, shown)

    def search(self, state, knowing, policy, options, limits, progress, observer, seed, start,
               stop) -> dict:
        """One tree's search of ``knowing``'s kernel (cloned; a KnowingKernel) with
        ``options`` (:meth:`game_options`) within the limits (or until ``stop`` is set): its
        raw root statistics, as ``merge_ismcts`` sums them."""
        tree = ISMCTS(knowing.kernel.clone(), policy, observer, gamma=options["gamma"],
                      seed=seed, max_nodes=options["max_nodes"], playout=options["playout"],
                      warmup=options["warmup"], opponent=options["opponent"],
                      epsilon=options["epsilon"], model=options["model"],
                      redraw=options["redraw"])
        tree.set_stop(stop)
        tree.reset_counters()
        for past_soft_limit in run_in_chunks(tree, limits, start):
            if progress:
                progress(self.result(state, ismcts_statistics(tree), options, observer, start,
                                     None, knowing))
            if past_soft_limit:
                break
        return ismcts_statistics(tree)

    def result(self, state, stats, options, observer, start, rng, knowing) -> Analysis:
        """Every option of the observer's decision with its share of the average strategy,
        its win rate and visits; the overall win probability is the strategy's expected win
        rate (the simulations' mean when the observer is not to move), and what the
        determinizations rested on (``knowing``, a KnowingKernel). ``rng`` draws the move to play from the strategy (None: a progress report)."""
        arms = stats["arms"]
        total = sum(strategy for _, _, _, strategy in arms)
        shares = [strategy / total if total > 0 else 1.0 / len(arms)
                  for _, _, _, strategy in arms]
        lines = []
        for (move, visits, value, _), share in zip(arms, shares):
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
            pure = options["play"] == "best" or not stats["secret"]
            play = secure_move(lines) if pure else drawn
            how = "pure" if pure else "drawn"
        elapsed = time.monotonic() - start
        return Analysis(
            engine=self.name, point_of_view=observer,
            point_of_view_name=state.game.player_names[observer], lines=lines,
            score=PovScore(Mean(2 * expected - 1), observer), nodes=stats["nodes"],
            elapsed=elapsed, nps=stats["nodes"] / elapsed if elapsed > 0 else 0.0,
            seldepth=stats["depth"], simulations=simulations, seed=self.seed,
            workers=options["workers"], tree_nodes=stats["tree_nodes"],
            bytes_per_node=ISMCTS.bytes_per_node(), play_move=play,
            strategy=MixedStrategy(
                knowledge=knowing.knowledge, plies_seen=knowing.plies, play=how or "drawn",
                selection=options["selection"],
                real_simulations=stats["real_simulations"] if options["redraw"] else None))
