"""External-sampling MCCFR (search/oos.pyx with ``external``, the ``mccfr`` engine): its
spec, that its strategy approaches the equilibrium as the budget grows (measured exactly on
a small card battle configuration, solvers/exact), that the exploitability bench's one search
per tree answers as a fresh engine at each decision does, and that a game too large for one
iteration still stops at its limit with a legal answer."""
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
from crystalpick.search.specs import parse_spec
from crystalpick.search.stop import StopFlag

from test_oos import decisions_of


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
    assert "uniform start" in result.info["note"]


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
    assert "note" not in result.info


def test_root_parallel_workers_share_the_budget_and_add_their_sums(open3):
    """Two workers from different seeds: the iterations asked are split between them, and
    what is read is the sum of their average-strategy weights (a sequence-form mixture)."""
    from crystalpick.search.oos import OOS
    from crystalpick.search.regret_workers import RootParallel, worker_seeds
    _, tree, _ = open3
    seeds = worker_seeds(5, 2)
    assert len(set(seeds)) == 2
    workers = [OOS(tree.start.search_kernel().clone(), 0, targeting=0.0, seed=seed,
                   external=True, linear=True) for seed in seeds]
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
