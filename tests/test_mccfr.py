"""External-sampling MCCFR (search/mccfr.pyx, the ``mccfr`` engine): its spec, that its
strategy approaches the equilibrium as the budget grows (measured exactly on a small card
battle configuration, solvers/exact), that the exploitability bench's one search per tree
answers as a fresh engine at each decision does, that a game too large for one iteration
still stops at its limit with a legal answer, that the table is kept through a game's
decisions (``reuse``), where it searches from (history or view), and that root-parallel
workers stop when told, however many."""
from __future__ import annotations

import threading

import pytest

from crystalpick.engine import get_game
from crystalpick.engine.cardbattle import CardBattle
from crystalpick.search import Limits, analyse, make_engine
from crystalpick.solvers.exact.levels import levels
from crystalpick.solvers.exact.policy import (EnginePolicy, WholeGamePolicy, make_policy,
                                             policy_strategy)
from crystalpick.solvers.exact.response import exploitability
from crystalpick.solvers.exact.tree import build_tree
from crystalpick.search.options import OptionError
from crystalpick.search.specs import SCHEMAS, parse_spec
from crystalpick.search.stop import StopFlag

from test_ismcts import PENNIES_POSITION, pennies_game


def decisions_of(game, player: int, count: int, seed: int = 1):
    """The first ``count`` decisions of ``player`` in one game of ``game`` (its deal from
    the game's seed), every move before them drawn at random from ``seed``: states to
    search in order, each the previous one played on."""
    import random

    from crystalpick.engine import sample_chance
    state, rng, found = game.new_initial_state(), random.Random(seed), []
    while len(found) < count:
        if state.is_chance_node():
            state.play(sample_chance(state, rng.random()))
            continue
        if state.current_player() == player:
            found.append(state.clone())
        state.play(rng.choice(state.legal_moves()))
    return found


def searched(engine, states, limits):
    return [analyse(state, engine, limits, point_of_view=0) for state in states]


@pytest.fixture(scope="module")
def pennies(tmp_path_factory):
    return pennies_game(tmp_path_factory.mktemp("pennies"))


@pytest.fixture(scope="module")
def open3():
    game = CardBattle().small_configuration("open-3")
    tree = build_tree(game.setup_state(), recall=True)
    return game, tree, levels(tree)


def test_a_good_spec_parses_to_typed_values():
    spec = parse_spec("mccfr:sims=500,linear=false,workers=2,seed=7")
    assert spec.options == {"linear": False, "workers": 2, "seed": 7}
    assert spec.limits == {"simulations": 500}


@pytest.mark.parametrize("text,fragment", [
    ("mccfr:targeting=0.5", "mccfr has no option 'targeting'"),
    ("mccfr:linear=maybe", "linear=maybe: expected true or false"),
    ("mccfr:max_nodes=10", "max_nodes=10: expected an integer in 1024.."),
    ("mccfr:workers=0", "workers=0: expected an integer in 1..64"),
])
def test_a_bad_spec_is_refused_naming_the_bad_part(text, fragment):
    with pytest.raises(OptionError) as caught:
        parse_spec(text)
    assert fragment in str(caught.value)


def test_oos_is_gone_and_refused_like_any_unknown_engine():
    """Online Outcome Sampling was deleted (issue 44: it did not improve with budget);
    its name is now as unknown as any other."""
    from crystalpick.search.engines import ENGINES
    assert "oos" not in ENGINES and "oos" not in SCHEMAS
    with pytest.raises(OptionError) as caught:
        parse_spec("oos:sims=100")
    assert str(caught.value).startswith("unknown engine 'oos'")


def measured(open3, spec: str, seed: int = 2) -> float:
    game, tree, layers = open3
    strategy = policy_strategy(tree, game, make_policy(spec, seed))
    return exploitability(tree, (strategy, strategy), layers).exploitability


@pytest.mark.parametrize("options", ["", ",linear=false", ",workers=2"])
def test_the_strategy_approaches_the_equilibrium_as_the_budget_grows(open3, options):
    """open-3's equilibrium is exact (value 1/2); 30 iterations leave the strategy far from
    it, 10,000 bring it within 0.01 (the result is a function of the seed)."""
    small = measured(open3, f"mccfr:sims=30{options}")
    large = measured(open3, f"mccfr:sims=10000{options}")
    assert large < 0.01 and large < small / 5


def test_one_search_per_tree_answers_as_a_fresh_engine_at_each_decision(open3):
    """The bench reads one search at every information set (WholeGamePolicy); a fresh engine
    asked at the decision itself, with the same seed and budget, must give the same
    probabilities, or the bench would measure something the engine does not play."""
    game, tree, _ = open3
    spec = "mccfr:sims=500"
    assert isinstance(make_policy(spec, 3), WholeGamePolicy)
    assert not isinstance(make_policy(spec + ",root=view", 3), WholeGamePolicy)
    whole, fresh = make_policy(spec, 3), EnginePolicy(spec, 3)
    infosets = tree.infosets[::max(1, len(tree.infosets) // 25)]
    for info in infosets:
        state = tree.start.clone()
        for move in info.history:
            state.play(move)
        assert whole.probabilities(state) == pytest.approx(fresh.probabilities(state),
                                                           abs=1e-12)


def test_a_game_too_large_for_one_iteration_stops_at_its_node_limit():
    """A full card battle: one iteration walks the player's whole subtree and never ends
    within the limit; it is cut short inside, not counted, and the answer is CFR's starting
    strategy, uniform over the legal moves."""
    state = decisions_of(get_game("cardbattle", seed=5), 0, 1)[0]
    result = analyse(state, make_engine("mccfr", seed=1), Limits(nodes=50_000),
                     point_of_view=0)
    assert result.simulations == 0 and 50_000 <= result.nodes < 60_000
    legal = state.legal_moves()
    assert sorted(line.move for line in result.lines) == sorted(legal)
    assert all(line.probability == pytest.approx(1 / len(legal)) for line in result.lines)
    assert "uniform start" in result.strategy.note


def test_the_stop_flag_ends_an_iteration_midway():
    """The same endless iteration, with no limit but the stop flag, set from another thread
    once the search runs: it returns (a hang is the failure) with a legal answer."""
    state = decisions_of(get_game("cardbattle", seed=5), 0, 1)[0]
    stop = StopFlag()
    timer = threading.Timer(0.2, stop.set)
    timer.start()
    try:
        result = analyse(state, make_engine("mccfr", seed=1), Limits(simulations=10**12),
                         point_of_view=0, stop=stop)
    finally:
        timer.cancel()
    assert result.simulations == 0 and result.nodes > 0
    assert result.move_to_play in state.legal_moves()


def test_a_seed_repeats_the_search(open3):
    game, tree, _ = open3
    state = tree.start.clone()
    while state.is_chance_node():
        state.play(state.legal_moves()[0])

    def run(seed):
        result = analyse(state, make_engine("mccfr", seed=seed), Limits(simulations=300))
        return [(line.move, line.probability, line.visits) for line in result.lines]
    assert run(11) == run(11)
    assert run(11) != run(12)
    result = analyse(state, make_engine("mccfr", seed=1), Limits(simulations=300))
    assert result.strategy.note is None


def test_root_parallel_workers_share_the_budget_and_add_their_sums(open3):
    """Two workers from different seeds: the iterations asked are split between them, and
    what is read is the sum of their average-strategy weights (a sequence-form mixture)."""
    from crystalpick.search.mccfr import MCCFR
    from crystalpick.search.regret_workers import RootParallel, worker_seeds
    _, tree, _ = open3
    seeds = worker_seeds(5, 2)
    assert len(set(seeds)) == 2
    workers = [MCCFR(tree.start.search_kernel().clone(), 0, seed=seed, linear=True)
               for seed in seeds]
    both = RootParallel(workers)
    assert both.run(1001) == 1001 and both.simulations == 1001
    assert sorted(worker.simulations for worker in workers) == [500, 501]
    checked = 0
    for info in tree.infosets[::50]:
        parts = [worker.average_sums(info.key, info.player) for worker in workers]
        if None in parts:
            continue
        assert both.average_sums(info.key, info.player) == pytest.approx(
            {move: parts[0][move] + parts[1][move] for move in parts[0]})
        checked += 1
    assert checked > 10


def test_analyse_defaults_to_mccfr_on_a_game_small_enough_to_solve_and_ismcts_beyond():
    """The least exploitable engine at equal time where measured: mccfr on the small
    configurations (solve's size check passes), ismcts on a full card battle, where no
    mccfr iteration finishes."""
    from crystalpick.search.analysis import request_analysis
    small = CardBattle().small_configuration("hidden-3").new_initial_state()
    while small.is_chance_node():
        small.play(small.legal_moves()[0])
    full = decisions_of(get_game("cardbattle", seed=5), 0, 1)[0]
    assert request_analysis(small, None, {}).spec.name == "mccfr"
    assert request_analysis(full, None, {}).spec.name == "ismcts"
    assert request_analysis(small, "ismcts", {}).spec.name == "ismcts"


def test_the_second_chooser_searches_from_the_history(pennies):
    """After P1's secret choice P2 decides with the history behind it, and cannot tell which
    card P1 chose: its strategy is the equilibrium's (each card half the time) whichever it
    was."""
    for secret in ("play:1", "play:2"):
        result = analyse(pennies.state(PENNIES_POSITION, secret),
                         make_engine("mccfr", seed=4), Limits(simulations=5000))
        assert result.strategy.searched_from == "the history (1 plies)"
        assert result.mixed and all(abs(line.probability - 0.5) < 0.05
                                    for line in result.lines)
        assert sorted(line.move for line in result.lines) == \
            sorted(pennies.state(PENNIES_POSITION, secret).legal_moves())
        assert sum(line.probability for line in result.lines) == pytest.approx(1.0)


def test_a_position_without_history_is_searched_from_the_view(pennies):
    result = analyse(pennies.parse_position(PENNIES_POSITION), make_engine("mccfr", seed=1),
                     Limits(simulations=2000))
    assert result.strategy.searched_from == "the position alone"
    assert result.lines


@pytest.mark.parametrize("play", ["mixed", "best"])
def test_play_best_plays_the_strategys_likeliest_move_and_mixed_draws_from_it(pennies, play):
    """At matching pennies the strategy is near half and half: drawn, both cards are played
    over ten seeds; with play=best each seed's top line, and the analysis says it was pure."""
    played = set()
    for seed in range(10):
        result = analyse(pennies.state(PENNIES_POSITION, "play:1"),
                         make_engine("mccfr", seed=seed, play=play), Limits(simulations=500))
        assert result.strategy.play == ("pure" if play == "best" else "drawn")
        if play == "best":
            assert result.play_move == result.lines[0].move
        played.add(result.play_move)
    if play == "mixed":
        assert len(played) == 2


HIDDEN3_DECISIONS = dict(game=CardBattle().small_configuration("hidden-3"), player=0,
                         count=3, seed=3)


def test_reuse_keeps_the_table_across_the_decisions_of_one_game():
    """The second decision of the game goes on with the first's table: it starts with every
    information set the first search made, and the table only grows; without reuse each
    decision starts empty."""
    states = decisions_of(**HIDDEN3_DECISIONS)
    budget = Limits(simulations=200)
    first, second, third = searched(make_engine("mccfr", seed=2), states, budget)
    assert first.tree_kept == 0
    assert second.tree_kept == first.tree_nodes and second.tree_nodes > first.tree_nodes
    assert third.tree_kept == second.tree_nodes and third.tree_nodes > second.tree_nodes
    alone = searched(make_engine("mccfr", seed=2, reuse=False), states, budget)
    assert [result.tree_kept for result in alone] == [0, 0, 0]
    assert alone[1].tree_nodes < second.tree_nodes


def test_a_new_game_or_another_game_starts_afresh():
    """The engine persists across a match's games: a new deal's decision, another rule set's
    or the other player's does not extend the information state searched, so the table is
    not kept (a different deal whose start looks the same would be sound to continue). A
    full card battle, where no iteration ends but the table fills within the node limit."""
    engine = make_engine("mccfr", seed=2)
    budget = Limits(nodes=20_000)
    game = get_game("cardbattle", seed=5)
    searched(engine, decisions_of(game, 0, 2), budget)
    assert searched(engine, decisions_of(get_game("cardbattle", seed=6), 0, 1),
                    budget)[0].tree_kept == 0
    other_rules = get_game("cardbattle", {"target": "3"}, seed=6)
    assert searched(engine, decisions_of(other_rules, 0, 1), budget)[0].tree_kept == 0
    assert searched(engine, decisions_of(other_rules, 0, 2)[1:], budget)[0].tree_kept > 0
    later = decisions_of(game, 0, 3)
    searched(engine, later[2:], budget)
    assert searched(engine, later[:1], budget)[0].tree_kept == 0    # an earlier decision


def test_a_game_searched_with_reuse_repeats_for_a_seed():
    states = decisions_of(**HIDDEN3_DECISIONS)

    def run(seed):
        return [[(line.move, line.probability, line.visits) for line in result.lines]
                for result in searched(make_engine("mccfr", seed=seed), states,
                                       Limits(simulations=200))]
    assert run(4) == run(4)
    assert run(4) != run(5)


def test_the_stop_flag_ends_a_continued_search():
    states = decisions_of(**HIDDEN3_DECISIONS)
    engine = make_engine("mccfr", seed=1)
    searched(engine, states[:1], Limits(simulations=200))
    stop = StopFlag()
    result = analyse(states[1], engine, Limits(simulations=10**12), point_of_view=0,
                     progress=lambda _: stop.set(), stop=stop)
    assert result.tree_kept > 0 and 0 < result.simulations < 10**6
    assert result.lines


def test_root_view_searches_from_the_position_and_reaches_the_decision():
    """From the view every iteration reaches the decision (what the player cannot see
    redrawn each time, from what the player's record allows: the output says so), and the
    player's own regrets are updated every other iteration (with the default public, which
    redraws the player's own hand too, at the real hand in half of those and where a redraw
    draws it: tests/test_mccfr_public.py); a bare view has no record."""
    state = decisions_of(get_game("cardbattle", seed=5), 0, 12)[-1]
    result = analyse(state, make_engine("mccfr", seed=2, root="view", horizon=1, public=False),
                     Limits(simulations=300), point_of_view=0)
    plies = len(state.played_moves())
    assert result.strategy.searched_from == f"the position, redrawn from the record ({plies} plies)"
    assert (result.strategy.knowledge, result.strategy.plies_seen) == ("history", plies)
    assert result.strategy.reached == 150
    default = analyse(state, make_engine("mccfr", seed=2, root="view", horizon=1),
                      Limits(simulations=300), point_of_view=0)
    assert 60 <= default.strategy.reached < 100
    bare = state.game.parse_position(state.position())
    result = analyse(bare, make_engine("mccfr", seed=2, root="view", horizon=1),
                     Limits(simulations=10), point_of_view=0)
    assert result.strategy.searched_from == "the position alone"
    assert result.strategy.knowledge == "view"


def test_the_most_workers_stop_when_told(open3):
    """Issue 46: at the most workers allowed (64) a chunk of 1,024 iterations gives each
    worker 16, never more than the iterations between two checks of the limits; each
    worker must still see a stop flag set before its share starts, or the chunks run on
    forever (oos at workers=64 never answered a stop). The flag already set: no worker
    runs an iteration."""
    from crystalpick.search.engines.base import MCTS_CHUNK
    from crystalpick.search.mccfr import MCCFR
    from crystalpick.search.regret_workers import RootParallel, worker_seeds
    _, tree, _ = open3
    most = SCHEMAS["mccfr"].find("workers")[0].maximum
    workers = RootParallel([MCCFR(tree.start.search_kernel().clone(), 0, seed=seed)
                            for seed in worker_seeds(1, most)])
    assert workers.run(MCTS_CHUNK) == MCTS_CHUNK
    stop = StopFlag()
    workers.set_stop(stop)
    stop.set()
    assert workers.run(MCTS_CHUNK) == 0
