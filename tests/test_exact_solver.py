"""The exact solvers (solvers/exact/): the LP on matrix games with closed-form values, backward
induction and CFR+ against hand-computed values, best responses of known policies, and the
exploitability formula."""
from __future__ import annotations

import functools
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from crystalpick.engine.cardbattle import CardBattle
from crystalpick.engine.cardbattle.smallgames import (FOLDER, random_game_events, small_game,
                                                      small_games)
from crystalpick.engine.game import CHANCE, TERMINAL
from crystalpick.search.engines import ENGINES, SIMS
from crystalpick.solvers.exact.cfr import CFRPlus, solve_cfr
from crystalpick.solvers.exact.induction import NotExact, solve_by_induction
from crystalpick.solvers.exact.levels import levels
from crystalpick.solvers.exact.matrix import solve_matrix_game
from crystalpick.solvers.exact.policy import (GreedyPolicy, RandomPolicy, make_policy,
                                             policy_strategy)
from crystalpick.solvers.exact.sequence import solve_sequence_form
from crystalpick.solvers.exact.response import (best_response, exploitability,
                                               exploitability_from, observation_projection,
                                               tabular)
from crystalpick.solvers.exact.tree import build_tree
from crystalpick.search.options import EngineSchema, Option

from pennies_game import Pennies

pytestmark = pytest.mark.slow      # over a second a test: `pytest -m "not slow"` skips it

# -- the LP -------------------------------------------------------------------------------


def test_rock_paper_scissors_is_worth_zero_played_uniformly():
    result = solve_matrix_game([[0, -1, 1], [1, 0, -1], [-1, 1, 0]])
    assert result.value == pytest.approx(0.0, abs=1e-12)
    assert result.row == pytest.approx([1 / 3] * 3)
    assert result.column == pytest.approx([1 / 3] * 3)


def test_matching_pennies():
    result = solve_matrix_game([[1, -1], [-1, 1]])
    assert result.value == pytest.approx(0.0, abs=1e-12)
    assert result.row == pytest.approx([0.5, 0.5])


def test_a_saddle_point_is_played_purely():
    result = solve_matrix_game([[3, 1], [4, 2]])
    assert result.value == pytest.approx(2.0)
    assert result.row == pytest.approx([0, 1])
    assert result.column == pytest.approx([0, 1])


def test_a_mixed_two_by_two_matches_its_closed_form():
    a, b, c, d = 2.0, -1.0, -1.0, 1.0         # no saddle: value (ad - bc) / (a + d - b - c)
    result = solve_matrix_game([[a, b], [c, d]])
    assert result.value == pytest.approx((a * d - b * c) / (a + d - b - c))
    assert result.row[0] == pytest.approx((d - c) / (a + d - b - c))


@pytest.mark.parametrize("seed", range(20))
def test_random_games_satisfy_their_own_duality(seed):
    rng = np.random.default_rng(seed)
    payoff = rng.integers(-5, 6, size=rng.integers(1, 8, size=2)).astype(float)
    result = solve_matrix_game(payoff)
    for strategy in (result.row, result.column):
        assert strategy.min() >= 0 and strategy.sum() == pytest.approx(1.0)
    # the row strategy guarantees the value against every column, and the column one
    # concedes no more than it against every row
    assert (result.row @ payoff).min() >= result.value - 1e-9
    assert (payoff @ result.column).max() <= result.value + 1e-9


def test_a_bad_matrix_is_refused():
    with pytest.raises(ValueError, match="non-empty 2-d"):
        solve_matrix_game([])


# -- the exploitability formula and best responses on a game with closed forms -------------


def test_the_exploitability_formula():
    assert exploitability_from(0.7, 0.5) == pytest.approx(0.1)
    assert exploitability_from(0.6, 0.4) == pytest.approx(0.0)     # value 0.6, at equilibrium


def pure(tree, move):
    sigma = np.array([1.0 if tree.infosets[i].moves[k] == move else 0.0
                      for i in range(len(tree.infosets))
                      for k in range(len(tree.infosets[i].moves))])
    return tabular(tree, sigma)


def test_best_responses_to_known_policies():
    tree = build_tree(Pennies(hidden_coin=True).new_initial_state())
    # always 0: each seat's best reply wins every game
    assert best_response(tree, 0, pure(tree, 0)).value == pytest.approx(1.0)
    assert best_response(tree, 1, pure(tree, 0)).value == pytest.approx(1.0)
    # uniform: P1 replying wins 1/2; P2 replying picks 1: 2/3 * 1/2 + 1/3 * 3/4 = 7/12
    uniform = policy_strategy(tree, Pennies(hidden_coin=True), RandomPolicy())
    result = exploitability(tree, (uniform, uniform))
    assert result.first.value == pytest.approx(0.5)
    assert result.second.value == pytest.approx(7 / 12)
    assert result.exploitability == pytest.approx((0.5 + 7 / 12 - 1) / 2)


@pytest.mark.parametrize("hidden, value", [(False, 4 / 9), (True, 1 / 2)])
def test_cfr_reaches_the_closed_form_values(hidden, value):
    tree = build_tree(Pennies(hidden_coin=hidden).new_initial_state())
    result = solve_cfr(tree, 1e-4)
    assert result.measured.exploitability <= 1e-4
    assert result.measured.lower - 1e-4 <= value <= result.measured.upper + 1e-4


def test_induction_is_exact_with_a_public_coin_and_refuses_a_hidden_one():
    assert solve_by_induction(build_tree(Pennies().new_initial_state(), recall=False)
                              ).value == pytest.approx(4 / 9)
    with pytest.raises(NotExact, match="something else is hidden"):
        solve_by_induction(build_tree(Pennies(hidden_coin=True).new_initial_state(),
                                      recall=False))


def test_cfr_exploitability_goes_down_to_the_bound():
    tree = build_tree(Pennies(hidden_coin=True).new_initial_state())
    solver = CFRPlus(tree)
    measured = []
    for count in (10, 100, 1000):
        solver.iterate(count - solver.iterations)
        measured.append(solver.measure().exploitability)
    assert measured[0] > 1e-2
    assert measured[2] < measured[1] < measured[0]
    assert measured[2] <= 1e-3


# -- card battle positions -------------------------------------------------------------------


def one_round(hand: str = "3"):
    """Both decks of three creatures (smallgames/decks), every card in hand, one crystal
    wins: the caller calls where their best creature beats every creature of the other
    (P1's best defesa 7 beats P2's 6, P2's best ataque 7 beats P1's 6), plays it and wins, so
    the game is the coin toss: worth exactly 1/2."""
    config = small_game("open-3")
    return CardBattle({**config.rules, "target": "1", "hand": hand},
                      tileset=str(FOLDER.joinpath("cards.toml")))


def test_a_one_round_open_game_is_worth_the_coin_toss():
    game = one_round()
    exact = solve_by_induction(build_tree(game.setup_state(), recall=False))
    assert exact.value == pytest.approx(0.5)
    result = solve_cfr(build_tree(game.setup_state()), 1e-4)
    assert result.measured.lower - 1e-4 <= 0.5 <= result.measured.upper + 1e-4


def test_induction_and_cfr_agree_on_an_open_configuration():
    game = CardBattle().small_configuration("open-3")
    exact = solve_by_induction(build_tree(game.setup_state(), recall=False)).value
    result = solve_cfr(build_tree(game.setup_state()), 1e-3)
    assert result.measured.lower - 1e-9 <= exact <= result.measured.upper + 1e-9


def test_induction_refuses_hidden_hands():
    game = one_round(hand="2")
    with pytest.raises(NotExact, match="something else is hidden"):
        solve_by_induction(build_tree(game.setup_state(), recall=False))


def test_card_battle_observations_do_not_have_perfect_recall_alone():
    """Why information sets are keyed by the information state, not the observation: some
    observation strings of one player are met after different own move sequences (an
    earlier call is forgotten)."""
    report = build_tree(CardBattle().small_configuration("open-3").setup_state()).recall_report()
    assert not report["perfect_recall_from_observations"]
    assert build_tree(Pennies(hidden_coin=True).new_initial_state()).recall_report()[
        "perfect_recall_from_observations"]


@functools.cache
def small_tree(name: str):
    """A small configuration's tree (perfect recall), built once for this module's tests."""
    return build_tree(CardBattle().small_configuration(name).setup_state())


@pytest.fixture(scope="module", autouse=True)
def forget_small_trees():
    yield
    small_tree.cache_clear()


@pytest.mark.parametrize("config", small_games().values(), ids=lambda c: c.name)
def test_information_states_alone_have_perfect_recall(config):
    """§5 by construction: on every small configuration each information state is met
    after one own move sequence only (the tree refuses one met after two), while the
    observations alone are not enough there."""
    tree = small_tree(config.name)
    report = tree.recall_report()
    assert report["perfect_recall_from_information_states"]
    assert report["information_state_groups"] == len(tree.infosets)
    assert report["information_state_groups"] > report["observation_groups"]


@pytest.mark.parametrize("name", ["open-3", "boost-3"])
def test_information_set_keys_merge_what_the_tree_merges(name):
    """The order of draws between two decisions means nothing (uniform shuffles), so the
    tree merges histories that differ only in it (same position, same own pasts) while
    the ordered information state tells them apart: the information set key must merge
    exactly those. Keyed by the ordered state, the tree has as many information sets as
    keyed by the set key, and its representatives' set keys are all different (no more is
    merged); along random games every decision's set key is that of the tree node reached
    (every order is merged), while more ordered keys than set keys are met there."""
    import random
    root = CardBattle().small_configuration(name).setup_state()
    reference = build_tree(root, ordered=True)
    tree = build_tree(root)
    assert len(tree.infosets) == len(reference.infosets)
    representatives = set()
    for info in reference.infosets:
        state = root.clone()
        for move in info.history:
            state.play(move)
        representatives.add((info.player, state.information_set_key(info.player)))
    assert len(representatives) == len(reference.infosets)
    rng, ordered, merged = random.Random(1), set(), set()
    for _ in range(1000):
        state, node = root.clone(), tree.root
        while state.current_player() != TERMINAL:
            player = state.current_player()
            if player == CHANCE:
                outcomes = state.chance_outcomes()
                move = rng.choices([m for m, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                assert state.information_set_key(player) == \
                    tree.infosets[tree.infoset[node]].key
                ordered.add((player, state.information_state_key(player)))
                merged.add((player, state.information_set_key(player)))
                move = rng.choice(state.legal_moves())
            node = next(tree.edge_child[edge] for edge in tree.children(node)
                        if tree.edge_move[edge] == move)
            state.play(move)
    assert len(ordered) > len(merged)


def test_the_projection_onto_observations():
    """Where observations have perfect recall (the pennies) projecting changes nothing; on
    open-3, where they do not, the projected equilibrium is one strategy per observation
    and still near-equilibrium (docs/cardbattle.md: what an observation-only policy can
    hold), while projecting a skewed strategy blends its information sets."""
    tree = build_tree(Pennies(hidden_coin=True).new_initial_state())
    sigma = solve_cfr(tree, 1e-3).average
    assert np.allclose(observation_projection(tree, sigma), sigma)
    tree = build_tree(CardBattle().small_configuration("open-3").setup_state())
    result = solve_cfr(tree, 1e-3)
    projected = observation_projection(tree, result.average)
    by_observation = {}
    for info in tree.infosets:
        probabilities = projected[info.first_slot:info.first_slot + len(info.moves)]
        assert np.allclose(by_observation.setdefault((info.player, info.observation),
                                                     probabilities), probabilities)
    assert not np.allclose(projected, result.average)      # some observations were blended
    strategy = tabular(tree, projected)
    assert exploitability(tree, (strategy, strategy)).exploitability < 0.01


def test_greedy_in_a_hidden_one_round_game_is_exploited_by_no_more_than_random():
    game = one_round(hand="2")
    tree = build_tree(game.setup_state())
    greedy = policy_strategy(tree, game, GreedyPolicy())
    uniform = policy_strategy(tree, game, make_policy("random"))
    greedy_result = exploitability(tree, (greedy, greedy))
    random_result = exploitability(tree, (uniform, uniform))
    solved = solve_cfr(tree, 1e-3)
    for result in (greedy_result, random_result):
        # no policy concedes less than the equilibrium in either seat
        assert result.first.value >= solved.measured.lower - 1e-3
        assert 1 - result.second.value <= solved.measured.upper + 1e-3
        assert 0 <= result.exploitability <= 0.5
    assert random_result.exploitability > greedy_result.exploitability
    assert len(greedy.answers) < len(tree.infosets)     # asked once per observation


REACHED = {"open-3": {"reshuffle"}, "hidden-3": {"reshuffle"}, "boost-3": {"reshuffle"},
           "ties-3": {"tie-break", "reshuffle"}, "reshuffle-2": {"tie-break", "reshuffle"}}


@pytest.mark.parametrize("name", REACHED)
def test_which_small_configurations_reach_tie_breaks_and_reshuffles(name):
    """ties-3 and reshuffle-2 exist to put §4.6's tie-break and §4.9's reshuffle into the
    solved games: random games meet both there, while the other configurations' cards never
    tie (smallgames/cards.toml) and their refills reshuffle."""
    import random
    game, rng = CardBattle().small_configuration(name), random.Random(1)
    met = set()
    for _ in range(200):
        met |= random_game_events(game, rng)
    assert met == REACHED[name]


def test_every_small_configuration_loads():
    for config in small_games().values():
        state = CardBattle().small_configuration(config.name).setup_state()
        assert state.is_chance_node()


# -- engines as policies ------------------------------------------------------------------


class StubEngine:
    """Answers every position with a fixed mixed strategy (``mixed``) or a fixed move."""

    name = "stub"
    schema = EngineSchema("stub", "a fixed answer", limits=(SIMS,),
                          options=(Option("mixed", "bool", True, "answer a mixed strategy"),
                                   Option("seed", "int", None, "seed", unset="random")))

    def __init__(self, **options):
        self.options = self.schema.settings(options)


def stub_analyse(state, engine, limits, progress=None, *, point_of_view=None, **_):
    if engine.options["mixed"]:
        lines = [SimpleNamespace(move=1, probability=0.75), SimpleNamespace(move=0,
                                                                            probability=0.25)]
        return SimpleNamespace(lines=lines, best_move=1)
    return SimpleNamespace(lines=[SimpleNamespace(move=1)], best_move=1)


@pytest.fixture
def stub_engine(monkeypatch):
    import crystalpick.search.analysis as analysis
    import crystalpick.search.specs as specs
    monkeypatch.setitem(ENGINES, "stub", StubEngine)
    monkeypatch.setitem(specs.SCHEMAS, "stub", StubEngine.schema)
    monkeypatch.setattr(analysis, "analyse", stub_analyse)


@pytest.mark.parametrize("spec, expected", [
    # P(0) = 1/4 in every state: BR_1 = 2/3 * 3/4 + 1/3 * 3/8 = 5/8, BR_2 = 3/4
    ("stub:sims=10", (5 / 8 + 3 / 4 - 1) / 2),
    # always 1: BR_1 = 2/3 * 1 + 1/3 * 1/2 = 5/6 (a draw on tails), BR_2 = 1
    ("stub:sims=10,mixed=false", (5 / 6 + 1 - 1) / 2)])
def test_an_engine_is_a_mixed_or_a_pure_policy(stub_engine, spec, expected):
    game = Pennies(hidden_coin=True)
    tree = build_tree(game.new_initial_state())
    policy = make_policy(spec, seed=5)
    assert policy.options["seed"] == 5             # an engine that takes a seed gets one
    strategy = policy_strategy(tree, game, policy)
    assert exploitability(tree, (strategy, strategy)).exploitability == pytest.approx(expected)


def test_an_unknown_engine_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown engine 'nosuch'"):
        make_policy("nosuch:sims=10")


# -- a card battle position that is matching pennies ------------------------------------------
# P1 has won 1 crystal of 2 and holds creatures of 4 and 1; P2 holds 5 and 2 and must win both
# last rounds (no refill). P1 wins if it plays its 4 against the 2 or its 1 against the 5 (it
# then wins the other round): matching pennies, worth exactly 1/2, each card played 1/2.

PENNIES_FOLDER = Path(__file__).parent / "data" / "pennies"
PENNIES_POSITION = (
    "cardbattle phase=choose actor=P1 caller=P1 attr=a round=1 ply=20 tiebreak=0 result=- | "
    "P1 won=1 tokens=0 hand=1.2 deck=- discard=- table=- chosen=- tie=- value=0 left=0 "
    "flags=ck | P2 won=0 tokens=0 hand=3.4 deck=- discard=- table=- chosen=- tie=- value=0 "
    "left=0 flags=ck")


def pennies_position():
    game = CardBattle({"deck1": str(PENNIES_FOLDER / "p1.toml"),
                       "deck2": str(PENNIES_FOLDER / "p2.toml"), "deck-minimum": "2",
                       "target": "2", "refill": "none"},
                      tileset=str(PENNIES_FOLDER / "cards.toml"))
    return game, game.parse_position(PENNIES_POSITION)


def test_a_matching_pennies_position_is_worth_one_half_by_induction_and_cfr():
    game, state = pennies_position()
    exact = solve_by_induction(build_tree(state, recall=False))
    assert exact.value == pytest.approx(0.5)
    assert exact.mixed_games == 1
    tree = build_tree(state)
    result = solve_cfr(tree, 1e-4)
    assert result.measured.lower - 1e-4 <= 0.5 <= result.measured.upper + 1e-4
    first = tree.infosets[tree.infoset[tree.root]]
    share = result.average[first.first_slot:first.first_slot + 2]
    assert share == pytest.approx([0.5, 0.5], abs=1e-2)


def test_pure_play_at_the_pennies_position_is_exploited_by_one_half():
    """Greedy plays the likeliest winner purely: a best response then always wins, in both
    seats, where the equilibrium gives each 1/2, so it is exploited by exactly 1/2."""
    game, state = pennies_position()
    tree = build_tree(state)
    greedy = policy_strategy(tree, game, GreedyPolicy())
    result = exploitability(tree, (greedy, greedy))
    assert result.first.value == pytest.approx(1.0)
    assert result.second.value == pytest.approx(1.0)
    assert result.exploitability == pytest.approx(0.5)


# -- the sequence-form LP --------------------------------------------------------------------

def lp_and_cfr(tree, target=1e-6):
    exact = solve_sequence_form(tree)
    strategy = tabular(tree, exact.strategy)
    assert exploitability(tree, (strategy, strategy)).exploitability <= 1e-9
    assert exact.first_value == pytest.approx(exact.second_value, abs=1e-9)
    bracket = solve_cfr(tree, target, max_iterations=1 << 16).measured
    assert bracket.exploitability <= target
    assert bracket.lower - target <= exact.value <= bracket.upper + target
    return exact


@pytest.mark.parametrize("hidden, value", [(False, 4 / 9), (True, 1 / 2)])
def test_the_sequence_form_gives_the_closed_form_values(hidden, value):
    tree = build_tree(Pennies(hidden_coin=hidden).new_initial_state())
    exact = solve_sequence_form(tree)
    strategy = tabular(tree, exact.strategy)
    assert exact.value == pytest.approx(value, abs=1e-9)
    assert exploitability(tree, (strategy, strategy)).exploitability <= 1e-9


def test_the_sequence_form_and_cfr_agree_on_small_card_games():
    """The pennies position (a mixed equilibrium: each card 1/2) and a one-round game with
    hidden hands, to 1e-6; the open configuration against backward induction, exactly."""
    _, state = pennies_position()
    tree = build_tree(state)
    exact = lp_and_cfr(tree)
    first = tree.infosets[tree.infoset[tree.root]]
    assert exact.value == pytest.approx(0.5, abs=1e-9)
    assert exact.strategy[first.first_slot:first.first_slot + 2] == pytest.approx([0.5, 0.5])
    lp_and_cfr(build_tree(one_round(hand="2").setup_state()))
    open_game = CardBattle().small_configuration("open-3").setup_state()
    assert solve_sequence_form(build_tree(open_game)).value == pytest.approx(
        solve_by_induction(build_tree(open_game, recall=False)).value, abs=1e-9)


@pytest.mark.parametrize("name", sorted(small_games()))
def test_the_sequence_form_is_exact_on_every_small_configuration(name):
    """The LP's two sides (each player's maximin, solved apart) give one value, its strategy
    concedes nothing to best responses computed independently of it (to 1e-9), and CFR+'s
    bracket holds the value: to 1e-6 on open-3 (seconds), to 1e-4 elsewhere. CFR+ to 1e-6
    on every configuration is 16,000 to 65,000 iterations, minutes each: the bench's job
    (bench/experiments/cardbattle_exact_agreement.py, the table in
    docs/research/cardbattle-lp-vs-cfr.md), not CI's."""
    tree = small_tree(name)
    layers = levels(tree)
    exact = solve_sequence_form(tree)
    assert exact.first_value == pytest.approx(exact.second_value, abs=1e-9)
    strategy = tabular(tree, exact.strategy)
    measured = exploitability(tree, (strategy, strategy), layers)
    assert abs(measured.exploitability) <= 1e-9
    assert measured.first.value == pytest.approx(exact.value, abs=1e-9)
    bracket = solve_cfr(tree, 1e-6 if name == "open-3" else 1e-4).measured
    assert bracket.lower - 1e-9 <= exact.value <= bracket.upper + 1e-9
    assert bracket.upper - bracket.lower <= (2e-6 if name == "open-3" else 2e-4)


@pytest.mark.parametrize("name", sorted(small_games()))
def test_cfr_updates_in_c_equal_the_numpy_reference(name):
    """One update from the same regrets and sums, both players, along the reference's first
    iterations on every small configuration (chance, hidden hands, boosts, ties,
    reshuffles): the C sweeps and the level-by-level numpy reference add the same terms, so
    they agree to rounding. (Whole runs are not compared: a regret that is 1e-17 in one and
    0 in the other makes that set's next strategy pure in one and uniform in the other.)"""
    tree = small_tree(name)
    fast, reference = CFRPlus(tree), CFRPlus(tree)
    for _ in range(3):
        for player in (0, 1):
            fast.regret[:], fast.total[:] = reference.regret, reference.total
            fast.iterations = reference.iterations
            fast.update(player)
            reference.reference_update(player)
            assert np.abs(fast.regret - reference.regret).max() <= 1e-12
            assert np.abs(fast.total - reference.total).max() <= 1e-12
        reference.iterations += 1
    assert reference.regret.any() and reference.total.any()


def test_the_sequence_form_needs_perfect_recall():
    with pytest.raises(ValueError, match="perfect recall"):
        solve_sequence_form(build_tree(Pennies().new_initial_state(), recall=False))
