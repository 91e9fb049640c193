"""Online Outcome Sampling (search/oos.pyx, search/engines/oos.py): its spec, that its
strategy approaches the equilibrium as the budget grows (measured exactly on the
matching-pennies card game, solvers/exact), that it stops when told, repeats itself for a
seed and recommends a distribution over the legal moves only."""
from __future__ import annotations

import pytest

from crystalpick.search import Limits, analyse, make_engine
from crystalpick.solvers.exact.levels import levels
from crystalpick.solvers.exact.policy import make_policy, policy_strategy
from crystalpick.solvers.exact.response import exploitability
from crystalpick.solvers.exact.tree import build_tree
from crystalpick.search.options import OptionError
from crystalpick.search.specs import parse_spec
from crystalpick.search.stop import StopFlag

from test_ismcts import PENNIES_POSITION, pennies_game


@pytest.fixture(scope="module")
def pennies(tmp_path_factory):
    return pennies_game(tmp_path_factory.mktemp("pennies"))


def test_a_good_spec_parses_to_typed_values():
    spec = parse_spec("oos:sims=500,targeting=0.5,epsilon=0.3,seed=7")
    assert spec.options == {"targeting": 0.5, "epsilon": 0.3, "seed": 7}
    assert spec.limits == {"simulations": 500}


@pytest.mark.parametrize("text,fragment", [
    ("oos:targeting=1.5", "targeting=1.5: expected a finite number in 0..1"),
    ("oos:epsilon=0", "epsilon=0: expected a finite number > 0 and <= 1"),
    ("oos:max_nodes=10", "max_nodes=10: expected an integer in 1024.."),
    ("oos:gamma=0.1", "oos has no option 'gamma'"),
    ("oos:baselines=maybe", "baselines=maybe: expected true or false"),
    ("oos:tremble=0.7", "tremble=0.7: expected a finite number in 0..0.5"),
])
def test_a_bad_spec_is_refused_naming_the_bad_part(text, fragment):
    with pytest.raises(OptionError) as caught:
        parse_spec(text)
    assert fragment in str(caught.value)
    assert "\n" not in str(caught.value)


def pennies_exploitability(game, sims: int, baselines: bool = True,
                           tremble: float = 0.0) -> float:
    """The exact exploitability of oos at ``sims`` iterations per decision (seed 2) on the
    pennies game's tree, every information set asked with its history."""
    tree = build_tree(game.parse_position(PENNIES_POSITION), recall=True)
    spec = f"oos:sims={sims},baselines={str(baselines).lower()},tremble={tremble}"
    strategy = policy_strategy(tree, game, make_policy(spec, seed=2))
    return exploitability(tree, (strategy, strategy), levels(tree)).exploitability


@pytest.mark.parametrize("baselines,tremble", [(True, 0.0), (False, 0.0), (False, 0.05)])
def test_the_strategy_approaches_the_equilibrium_as_the_budget_grows(pennies, baselines,
                                                                     tremble):
    """P1 holds 4 and 1, P2 5 and 2 and must win both rounds: the equilibrium plays each
    card half the time. A few iterations leave the average strategy lopsided; many bring
    it close, with VR-MCCFR's baselines or plain outcome sampling (the result is a function
    of the seed: no chance in the assertion). A small tremble keeps it converging."""
    small = pennies_exploitability(pennies, 30, baselines, tremble)
    large = pennies_exploitability(pennies, 30000, baselines, tremble)
    assert large < 0.03 and large < small / 3


def test_the_second_chooser_searches_from_the_history(pennies):
    """After P1's secret choice P2 decides with the history behind it, and cannot tell which
    card P1 chose: its strategy is the equilibrium's whichever it was."""
    for secret in ("play:1", "play:2"):
        result = analyse(pennies.state(PENNIES_POSITION, secret),
                         make_engine("oos", seed=4), Limits(simulations=20000))
        assert result.info["from"] == "the history (1 plies)"
        assert result.mixed and all(abs(line.probability - 0.5) < 0.05
                                    for line in result.lines)


def test_a_position_without_history_is_searched_from_the_view(pennies):
    result = analyse(pennies.parse_position(PENNIES_POSITION), make_engine("oos", seed=1),
                     Limits(simulations=2000))
    assert result.info["from"] == "the position alone"
    assert result.lines


def test_probabilities_cover_the_legal_moves_and_sum_to_one(pennies):
    state = pennies.state(PENNIES_POSITION, "play:1")
    result = analyse(state, make_engine("oos", seed=5), Limits(simulations=3000))
    assert sorted(line.move for line in result.lines) == sorted(state.legal_moves())
    assert sum(line.probability for line in result.lines) == pytest.approx(1.0)
    assert result.play_move in state.legal_moves()


def test_a_seed_repeats_the_search(pennies):
    state = pennies.state(PENNIES_POSITION)

    def run(seed):
        result = analyse(state, make_engine("oos", seed=seed), Limits(simulations=5000))
        return [(line.move, line.probability, line.visits) for line in result.lines]
    assert run(11) == run(11)
    assert run(11) != run(12)


def test_the_stop_flag_ends_the_search(pennies):
    """The flag set at the first progress report: the search returns what it has instead of
    running its (practically endless) budget."""
    stop = StopFlag()
    result = analyse(pennies.state(PENNIES_POSITION), make_engine("oos", seed=1),
                     Limits(simulations=10**12), progress=lambda _: stop.set(), stop=stop)
    assert 0 < result.simulations < 10**6
    assert result.lines


def test_a_decision_no_iteration_reached_is_uniform_and_still_answered():
    """Deep in a full card battle few targeted samples get through to the player's
    information set (found in a match: 273 of 300 rejected, no move returned and the match
    died); CFR's starting strategy, uniform over the legal moves, is the answer then."""
    import random

    from crystalpick.engine import get_game, sample_chance
    state, rng, decisions = get_game("cardbattle").new_initial_state(), random.Random(1), 0
    while decisions < 10:
        if state.is_chance_node():
            state.play(sample_chance(state, rng.random()))
            continue
        state.play(rng.choice(state.legal_moves()))
        decisions += 1
    while state.is_chance_node():
        state.play(sample_chance(state, rng.random()))
    result = analyse(state, make_engine("oos", seed=3), Limits(simulations=1))
    assert result.info["through_information_set"] == 0
    legal = state.legal_moves()
    assert sorted(line.move for line in result.lines) == sorted(legal)
    assert all(line.probability == pytest.approx(1 / len(legal)) for line in result.lines)
    assert result.move_to_play in legal


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


def searched(engine, states, sims: int = 300):
    return [analyse(state, engine, Limits(simulations=sims), point_of_view=0)
            for state in states]


def test_reuse_keeps_the_table_across_the_decisions_of_one_game():
    """The second decision of the game goes on with the first's table: it starts with every
    information set the first search made, and the table only grows; without reuse each
    decision starts empty."""
    from crystalpick.engine import get_game
    states = decisions_of(get_game("cardbattle", seed=5), 0, 3)
    first, second, third = searched(make_engine("oos", seed=2), states)
    assert first.tree_kept == 0
    assert second.tree_kept == first.tree_nodes and second.tree_nodes > first.tree_nodes
    assert third.tree_kept == second.tree_nodes and third.tree_nodes > second.tree_nodes
    alone = searched(make_engine("oos", seed=2, reuse=False), states)
    assert [result.tree_kept for result in alone] == [0, 0, 0]
    assert alone[1].tree_nodes < second.tree_nodes


def test_a_new_game_or_another_game_starts_afresh():
    """The engine persists across a match's games: a new deal's decision, another rule set's
    or the other player's does not extend the information state searched, so the table is
    not kept (a different deal whose start looks the same would be sound to continue)."""
    from crystalpick.engine import get_game
    engine = make_engine("oos", seed=2)
    game = get_game("cardbattle", seed=5)
    searched(engine, decisions_of(game, 0, 2))
    assert searched(engine, decisions_of(get_game("cardbattle", seed=6), 0, 1))[0].tree_kept == 0
    other_rules = get_game("cardbattle", {"target": "3"}, seed=6)
    assert searched(engine, decisions_of(other_rules, 0, 1))[0].tree_kept == 0
    assert searched(engine, decisions_of(other_rules, 0, 2)[1:])[0].tree_kept > 0
    later = decisions_of(game, 0, 3)
    searched(engine, later[2:])
    assert searched(engine, later[:1])[0].tree_kept == 0     # an earlier decision: afresh


def test_a_game_searched_with_reuse_repeats_for_a_seed():
    from crystalpick.engine import get_game
    states = decisions_of(get_game("cardbattle", seed=5), 0, 3)

    def run(seed):
        return [[(line.move, line.probability, line.visits) for line in result.lines]
                for result in searched(make_engine("oos", seed=seed), states)]
    assert run(4) == run(4)
    assert run(4) != run(5)


def test_the_stop_flag_ends_a_continued_search():
    from crystalpick.engine import get_game
    states = decisions_of(get_game("cardbattle", seed=5), 0, 2)
    engine = make_engine("oos", seed=1)
    searched(engine, states[:1])
    stop = StopFlag()
    result = analyse(states[1], engine, Limits(simulations=10**12), point_of_view=0,
                     progress=lambda _: stop.set(), stop=stop)
    assert result.tree_kept > 0 and 0 < result.simulations < 10**6
    assert result.lines


def test_root_view_searches_from_the_position_and_reaches_the_decision():
    """Deep in a game few targeted iterations from the deal reach the decision; from the
    view every iteration does (what the player cannot see redrawn each time, from what
    the player's record allows: the output says so); a bare view has no record."""
    from crystalpick.engine import get_game
    state = decisions_of(get_game("cardbattle", seed=5), 0, 12)[-1]
    result = analyse(state, make_engine("oos", seed=2, root="view"), Limits(simulations=300),
                     point_of_view=0)
    plies = len(state.played_moves())
    assert result.info["from"] == f"the position, redrawn from the record ({plies} plies)"
    assert (result.info["knowledge"], result.info["plies_seen"]) == ("history", plies)
    assert result.info["through_information_set"] == 300
    bare = state.game.parse_position(state.position())
    result = analyse(bare, make_engine("oos", seed=2, root="view"), Limits(simulations=10),
                     point_of_view=0)
    assert result.info["from"] == "the position alone"
    assert result.info["knowledge"] == "view"
