"""External-sampling MCCFR (search/mccfr.pyx) as the ``mccfr`` engine: regret minimisation
from the root of the game's history (or from the player's view, ``root=view``), every move
of the updated player walked. The recommendation is the average strategy at the player's
information set, a probability per option as ISMCTS shows its mixed strategy."""
from __future__ import annotations

import time

from crystalpick.engine import GameError, Ranges, provides

from ..assumed import bayes_range, drawn_range, searched_strategy
from ..beliefs import Beliefs
from ..mccfr import MCCFR
from ..regret_workers import RootParallel, worker_seeds
from ..options import EngineSchema, Option, OptionError
from ..result import Analysis, Line, MixedStrategy
from ..score import Mean, PovScore
from .base import NODES, SIMS, TIME, SeededEngine, run_in_chunks


def search_root(state, root: str = "history", observer: int = 0, seed: int = 0,
                beliefs=None, own_range=None):
    """The kernel to search from, the plies of history it holds and the plies of the
    player's record its redraws rest on: a game with hidden information keeps its history
    (searched from where the game started, the deal for a game record) unless ``root`` is
    ``view``: then the position, whose determinizations for ``observer`` draw only what
    their whole record allows (State.knowing_kernel, from ``seed``), by the other player's
    range where ``beliefs`` gives it (and the other player's redraws of the observer's hand
    by ``own_range``, the observer's range as the other knows it); with perfect information
    the position is all that matters. From the history, a game that can put back the deal
    a dealt position forgot (``Ranges.with_open_start``: a match's, ``--seed N --moves``)
    is searched from the deal, as bench/cardbattle_exploitability.py measures it, so its
    keys are those a range walked from the deal computes (``assumed_range``)."""
    if state.game.capabilities.perfect_information:
        return state.game.parse_position(state.position()).search_kernel(), 0, 0
    if root == "view":
        knowing = state.knowing_kernel(observer, seed, beliefs, own_range)
        return knowing.kernel, 0, knowing.plies
    if provides(state.game, Ranges):
        state = state.game.with_open_start(state) or state
    kernel = state.search_kernel().clone()
    return kernel, kernel.ply, kernel.ply


NOTHING_LEARNT = ("nothing learnt at this decision within the limit (an iteration walks every "
                  "move of the player to the end of the game, too many in a game this large): "
                  "the strategy is CFR's uniform start; ismcts searches such games, or "
                  "mccfr:root=view,horizon=N")


class MCCFREngine(SeededEngine):
    """External-sampling MCCFR (Lanctot et al. 2009) from the start of the game: every move
    of the updated player walked, the other player's and chance's sampled, regrets and
    averages weighted by the iteration (Linear CFR). Its variance is low, so it converges
    (docs/cardbattle.md measures it), but an iteration walks the updated player's whole
    subtree: a small game's tool (``root=view,horizon=N`` cuts it for full-size ones). What
    it learns is the whole game's strategy, read at the information set asked (and kept
    through a game with ``reuse``)."""
    name = "mccfr"
    schema = EngineSchema(
        "mccfr", "External-sampling Monte Carlo CFR: regret minimisation over the whole game "
                 "from its start, every move of the updated player walked; a mixed strategy "
                 "that converges to an equilibrium (small games: an iteration walks the "
                 "player's whole subtree).",
        limits=(SIMS, NODES, TIME),
        options=(
            Option("linear", "bool", True, "Weight each iteration in the regrets and the "
                   "average strategy by its number (Linear CFR): early, poor strategies "
                   "fade (docs/cardbattle.md measures both)."),
            Option("horizon", "int", 0, "Decisions (either player's) walked below the "
                   "player's own decision before one playout by the game's playout policy "
                   "stands for the rest of the game (0: to the end). With root=view: the "
                   "subgame of the next decisions re-solved at each decision, what a full-size game "
                   "allows; its beliefs and leaf values are estimates, so it converges to "
                   "that subgame's equilibrium, not the game's.", minimum=0, maximum=64),
            Option("epsilon", "float", 0.1, "With a horizon: each playout move's chance of "
                   "being uniform instead of the playout policy's, so that the values at the "
                   "horizon are of a continuation that sometimes errs, not of one fixed line "
                   "the search would learn to exploit (docs/research/cardbattle-view-search-"
                   "defect.md; 0: the policy's moves only).", minimum=0, maximum=1),
            Option("continuations", "int", 1, "With a horizon: the other player chooses at "
                   "each leaf, where they are, among this many playouts that differ in how "
                   "they play on (the playout policy with epsilon, up to uniform play; "
                   "multi-valued states, Brown, Sandholm and Amos 2018), so the search cannot "
                   "count on one continuation (1: one playout).", minimum=1, maximum=8),
            Option("infer", "bool", False, "With root=view: draw the other player's hidden "
                   "cards conditioned on their play seen so far, as if they had played the "
                   "game's playout policy (ismcts's infer)."),
            Option("range", "bool", False, "With root=view: draw the other player's private "
                   "state by their range, Bayes from the game's history under a model of "
                   "their play (the game's playout policy, 10% uniform: search/beliefs.py), "
                   "not uniformly over what the record allows; a position without history "
                   "is drawn from the view."),
            Option("public", "bool", None, "With root=view (and there by default): redraw "
                   "the player's own hidden cards too, from the other player's view (with "
                   "range=true, by the player's range as the other knows it; kept in half "
                   "the iterations that update the player), so the other player is searched "
                   "against every hand they must allow the player, not against the real one: "
                   "re-solving from the public state with both players' ranges (sounder at "
                   "equal strength: docs/research/cardbattle-public-resolving.md).",
                   unset="view"),
            Option("tremble", "float", 0.0, "Uniform share mixed into every current strategy, "
                   "so no information set of the history loses all weight to a strategy "
                   "that never plays a move seen there (its regrets would stop learning).",
                   minimum=0, maximum=0.5),
            Option("max_nodes", "int", 2_000_000, "Information sets kept, at most (the others "
                   "play uniformly and learn nothing).", minimum=1024, maximum=2**30),
            Option("root", "choice", "history", "Where the search starts: the history (the "
                   "deal: the whole game's equilibrium, read at the information set) or "
                   "the view (the current position, what the player cannot see redrawn each "
                   "iteration as ISMCTS does: every iteration reaches the decision, the "
                   "beliefs are not the equilibrium's).", choices=("history", "view")),
            Option("reuse", "bool", True, "Keep the table from one decision to the next of "
                   "a game and go on searching it (docs/cardbattle.md measures both)."),
            Option("workers", "int", 1, "Searches run side by side from different seeds, one "
                   "thread each, read as one (their average strategies mixed: never more "
                   "exploitable than their mean, less noisy).", minimum=1, maximum=64),
            Option("play", "choice", "mixed", "The move played: drawn from the average "
                   "strategy (mixed), or its most likely move (best: purification, Ganzfried, "
                   "Sandholm and Waugh 2012), which gives up the mixing that keeps an "
                   "equilibrium unexploitable for what a sampled strategy's noise costs.",
                   choices=("mixed", "best")),
            Option("seed", "int", None, "Seed of the sampling and of the move drawn from the "
                   "mixed strategy.", minimum=0, maximum=2**63 - 1, unset="random"),
        ))

    stopped_by = ("simulations", "nodes", "time", "clock")
    requires = ()

    def __init__(self, **options):
        super().__init__(**options)
        self.reuse = self.options.pop("reuse")
        self.kept: tuple[tuple, int, MCCFR] | None = None  # game identity, observer, search
        self.last_search = None     # the last analysis's search, for readers of its whole table
        self.seen = 0               # plies of the player's record the last search rests on
        if self.options["range"] and self.options["infer"]:
            raise OptionError(f"{self.name}: range=true and infer=true are two ways to draw "
                              "the other hand: choose one")
        self.beliefs = Beliefs()
        self.range = None           # the range the last search drew from (None: none)
        self.own = None             # ... and the player's own, for the other (public)
        if self.options["continuations"] > 1 and not self.options["horizon"]:
            raise OptionError(f"{self.name}: continuations="
                              f"{self.options['continuations']} needs a horizon (the leaves "
                              "are where the horizon cuts the walk)")
        for name in ("horizon", "infer", "range", "public"):
            if self.options[name] and self.options["root"] != "view":
                shown = str(self.options[name]).lower()     # as typed: true, 4
                raise OptionError(f"{self.name}: {name}={shown} needs "
                                  "root=view (the search must start at the decision, "
                                  "not at the deal)")

    def analyse(self, state, limits, progress, point_of_view, multipv, stop=None):
        self.check_limits(limits)
        start = time.monotonic()
        rng = self.next_search_rng()
        search, kept = self.start(state, point_of_view, rng.getrandbits(63))
        self.last_search = search
        search.set_stop(stop)
        for past_soft_limit in run_in_chunks(search, limits, start):
            if progress:
                progress(self.result(state, search, kept, point_of_view, start, None))
            if past_soft_limit:
                break
        return self.result(state, search, kept, point_of_view, start, rng)

    def start(self, state, observer: int, seed: int) -> tuple[MCCFR, int]:
        """The search of this decision and the information sets it starts with: the kept
        one of the same game continued at the new information set (``reuse``), else a
        fresh one (none kept)."""
        self.public = self.public_for(state.game)
        self.range = (self.beliefs.range_of(state, observer)
                      if self.options["range"] else None)
        self.own = (self.beliefs.range_of(state, 1 - observer)
                    if self.options["range"] and self.public and self.range
                    else None)
        kernel, plies, self.seen = search_root(
            state, self.options["root"], observer, seed,
            self.range.probabilities if self.range else None,
            self.own.probabilities if self.own else None)
        self.drawn = (kernel, seed) if self.options["root"] == "view" else None
        def policy():           # one per search: a policy's redraws keep state of their own
            return self.playout_policy(state, observer)
        identity = state.game.identity
        if self.reuse and self.kept is not None and self.kept[:2] == (identity, observer):
            search = self.kept[2]
            if search.continue_at(kernel.clone(), seed):
                search.reset_counters()
                return search, search.infoset_count
        search = self.fresh(state, kernel, plies, observer, seed, policy)
        self.kept = (identity, observer, search) if self.reuse else None
        return search, 0

    drawn = None        # root=view: the last search's kernel and seed
    public = False      # the last search redrew the player's own hand too

    def public_for(self, game) -> bool:
        """``public`` for a search of ``game``: as asked (a game that hides nothing
        refused), else on from the view of a game with hidden information."""
        asked = self.options["public"]
        if asked is None:
            return self.options["root"] == "view" and game.capabilities.hidden_information
        if asked and not game.capabilities.hidden_information:
            raise GameError(f"{self.name}: public=true redraws the player's hidden cards, and "
                            f"{game.name} hides nothing")
        return asked

    def assumed_range(self, state, observer, shown):
        """root=view: the other hand as the iterations redraw it (the kernel's
        determinize, or the playout policy's with ``infer``: search/assumed.py). From the
        history none is drawn (every hand is walked with its chance probability): the range
        is the one the strategy found implies, by Bayes from the deal (exact; none for a
        position without its history, or where the histories are too many)."""
        if self.drawn is None:
            search = self.last_search
            if search is None or not search.history_plies:
                return None
            other = state.game.player_names[1 - observer]
            return bayes_range(state, observer, searched_strategy(search),
                               f"Bayes from the deal, every move by {self.name}'s average "
                               f"strategy (what it implies of {other}'s play)", shown)
        kernel, seed = self.drawn
        policy = state.game.playout_policy() if self.options["infer"] else None
        inferred = policy is not None and policy.infer(state.search_kernel(), observer)
        other = state.game.player_names[1 - observer]
        method = f"{self.name}'s draws" + (f", inferred from {other}'s play"
                                           if inferred else "")
        if self.range is not None:
            method += f", by {other}'s range (Bayes under the playout policy's model)"
        if self.public:
            own = state.game.player_names[observer]
            method += (f"; {own}'s own hand redrawn for {other} too, by "
                       + (f"{own}'s range as {other} knows it" if self.own is not None
                          else f"{other}'s view"))
        return drawn_range(state, kernel, policy, observer, seed, method, shown)

    def playout_policy(self, state, observer: int):
        """The game's playout policy for the playouts at the horizon and, with ``infer``,
        the view's redraws (conditioned on the other player's play seen so far); None where
        neither is asked."""
        if not (self.options["horizon"] or self.options["infer"]):
            return None
        policy = state.game.playout_policy()
        if self.options["infer"]:
            policy.infer(state.search_kernel(), observer)
        return policy

    def fresh(self, state, kernel, plies: int, observer: int, seed: int, policy):
        """A new search (a :class:`RootParallel` of ``workers`` searches if more than one)
        from ``kernel``, or from the position's view where the history starts at another
        player's secret choice; ``policy()`` makes each search's playout policy."""
        try:
            return self.new_search(kernel, observer, seed, policy)
        except ValueError:
            if not plies:
                raise
            # a history that starts at another player's secret choice: the position's view
            # alone, as for a position given without history
            view = state.game.parse_position(state.position()).search_kernel()
            self.seen = 0
            return self.new_search(view, observer, seed, policy)

    def new_search(self, kernel, observer: int, seed: int, policy=lambda: None):
        """``policy()`` makes each search's playout policy (None where none is asked)."""
        workers = self.options["workers"]
        if workers == 1:
            return MCCFR(kernel, observer, **self.settings(seed, policy()))
        return RootParallel([MCCFR(kernel.clone(), observer,
                                   **self.settings(worker_seed, policy()))
                             for worker_seed in worker_seeds(seed, workers)])

    def settings(self, seed: int, policy=None) -> dict:
        """The search's keyword arguments from the engine's options (and ``policy``, the
        game's playout policy, where they ask for one)."""
        return dict(seed=seed, max_infosets=self.options["max_nodes"],
                    tremble=self.options["tremble"], linear=self.options["linear"],
                    horizon=self.options["horizon"], policy=policy,
                    epsilon=self.options["epsilon"],
                    continuations=self.options["continuations"],
                    public=self.public)

    def result(self, state, search, kept, observer, start, rng) -> Analysis:
        """Every option of the observer's decision with its share of the average strategy,
        its win rate over the iterations that played it and their number; the overall win
        probability is the strategy's expected win rate; ``kept``, the information sets the
        search started with (reused from the game's earlier decisions). ``rng`` draws the
        move to play from the strategy (None: a progress report). An information set no
        iteration reached (a game too large for one iteration within the limit) has CFR's
        starting strategy, uniform: a move is always recommended."""
        found = search.root_slots()
        slots = found or [(move, 0.0, 0.0, 0.0, 0) for move in state.legal_moves()]
        total = sum(average for _, average, _, _, _ in slots)
        lines = []
        for move, average, _, value, visits in slots:
            share = average / total if total > 0 else 1.0 / len(slots)
            rate = value / visits if visits else 0.5
            lines.append(Line(move=move, move_str=state.move_to_str(move), pv=[move],
                              pv_str=[state.move_to_str(move)], visits=visits,
                              probability=share, score=PovScore(Mean(2 * rate - 1), observer)))
        lines.sort(key=lambda line: (-line.probability, -line.visits))
        expected = sum(line.probability * line.win_probability for line in lines) \
            if lines else 0.5
        play = None
        if rng is not None and lines:
            play = rng.choices([line.move for line in lines],
                               [line.probability for line in lines])[0]
            if self.options["play"] == "best":     # drawn all the same: the seed's share
                play = lines[0].move
        elapsed = time.monotonic() - start
        drawn_by = "the range over" if self.range is not None else "the"
        root = (f"the history ({search.history_plies} plies)" if search.history_plies
                else f"the position, redrawn from {drawn_by} record ({self.seen} plies)"
                if self.seen else "the position alone")
        learnt = any(average > 0 for _, average, _, _, _ in found)
        return Analysis(
            engine=self.name, point_of_view=observer,
            point_of_view_name=state.game.player_names[observer], lines=lines,
            score=PovScore(Mean(2 * expected - 1), observer), nodes=search.made,
            elapsed=elapsed, nps=search.made / elapsed if elapsed > 0 else 0.0,
            seldepth=search.max_depth, simulations=search.simulations, seed=self.seed,
            tree_nodes=search.infoset_count, tree_kept=kept,
            bytes_per_node=MCCFR.bytes_per_infoset(), play_move=play,
            strategy=MixedStrategy(
                knowledge="history" if self.seen else "view", plies_seen=self.seen,
                play="pure" if self.options["play"] == "best" else "drawn",
                searched_from=root, reached=search.reached,
                note=None if learnt else NOTHING_LEARNT))
