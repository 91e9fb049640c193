"""mccfr from the player's view (``root=view``) and cut at a ``horizon`` of decisions, a
playout by the game's playout policy standing for the rest: it starts at every information
set of a small game (also where the other player's secret choice is taken back), the
horizon only cuts (beyond the game's length it changes nothing), the position is restored,
and on a full card battle, where no whole-game iteration ends, it learns a strategy."""
from __future__ import annotations

import pytest

from crystalpick.engine import get_game
from crystalpick.engine.cardbattle import CardBattle
from crystalpick.search import Limits, analyse, make_engine
from crystalpick.solvers.exact.tree import build_tree
from crystalpick.search.mccfr import MCCFR
from crystalpick.search.options import OptionError

from test_mccfr import decisions_of


def replayed(tree, info):
    state = tree.start.clone()
    for move in info.history:
        state.play(move)
    return state


def view_search(state, player, seed=1, **options):
    kernel = state.knowing_kernel(player, seed).kernel
    return MCCFR(kernel, player, seed=seed, linear=True, **options), kernel


@pytest.mark.slow
def test_a_view_search_starts_at_every_information_set_of_a_small_game():
    """hidden-3 has decisions where the other player already chose in secret: the view's
    redraw takes that choice back and the search walks to the player's decision through a
    decision of several moves (once a garbage move: the probe listed one of them into room
    for one)."""
    tree = build_tree(CardBattle().small_configuration("hidden-3").setup_state(), recall=True)
    secret = 0
    for info in tree.infosets[::80]:         # every one: 140 s; these cover both kinds
        state = replayed(tree, info)
        search, _ = view_search(state, info.player)
        assert search.run(4) == 4
        assert sorted(move for move, *_ in search.root_slots()) == sorted(info.moves)
        secret += "chosen=-" not in state.position().split("|")[2 - info.player]
    assert secret > 5


def test_a_horizon_beyond_the_game_changes_nothing_and_a_short_one_cuts():
    game = CardBattle().small_configuration("open-3")
    state = game.new_initial_state()
    while state.current_player() != 0:
        state.play(state.legal_moves()[0])
    whole, _ = view_search(state, 0, seed=3)
    beyond, _ = view_search(state, 0, seed=3, horizon=64, policy=game.playout_policy())
    cut, _ = view_search(state, 0, seed=3, horizon=1, policy=game.playout_policy())
    for search in (whole, beyond, cut):
        search.run(300)
    assert beyond.root_slots() == whole.root_slots() and beyond.made == whole.made
    assert cut.made < whole.made and cut.max_depth < whole.max_depth


def test_playouts_restore_the_position():
    state = decisions_of(get_game("cardbattle", seed=5), 0, 3)[2]
    search, kernel = view_search(state, 0, horizon=2, policy=state.game.playout_policy())
    before = (kernel.key, kernel.to_position())
    search.run(50)
    assert (kernel.key, kernel.to_position()) == before


def test_a_full_game_learns_a_strategy_within_a_node_limit():
    """Whole-game mccfr finishes no iteration here (test_mccfr); cut at 4 decisions it
    finishes many and its strategy is no longer CFR's uniform start."""
    state = decisions_of(get_game("cardbattle", seed=5), 0, 3)[2]
    result = analyse(state, make_engine("mccfr", root="view", horizon=4, seed=1),
                     Limits(nodes=300_000), point_of_view=0)
    assert result.simulations > 10 and result.strategy.note is None
    assert sorted(line.move for line in result.lines) == sorted(state.legal_moves())
    assert sum(line.probability for line in result.lines) == pytest.approx(1)
    assert len({round(line.probability, 9) for line in result.lines}) > 1


def test_workers_with_inferred_redraws_each_get_their_own_policy():
    """Two threads, each its own playout policy (its redraws keep a pool of hands): both
    search, and the answer is one legal mixed strategy."""
    state = decisions_of(get_game("cardbattle", seed=5), 0, 6)[5]
    engine = make_engine("mccfr", root="view", horizon=1, infer=True, workers=2, seed=1)
    result = analyse(state, engine, Limits(simulations=2_000), point_of_view=0)
    assert result.simulations == 2_000
    assert sorted(line.move for line in result.lines) == sorted(state.legal_moves())
    assert sum(line.probability for line in result.lines) == pytest.approx(1)
    assert sorted(worker.simulations for worker in engine.last_search.searches) == [1000, 1000]


@pytest.mark.parametrize("options,fragment", [
    ({"horizon": 4}, "horizon=4 needs root=view"),
    ({"horizon": -1, "root": "view"}, "horizon=-1: expected an integer in 0..64"),
    ({"infer": True}, "infer=true needs root=view"),
])
def test_a_bad_horizon_is_refused_naming_it(options, fragment):
    with pytest.raises(OptionError) as caught:
        make_engine("mccfr", **options)
    assert fragment in str(caught.value)


@pytest.mark.slow
def test_the_horizon_counts_from_the_players_own_decision():
    """Where the other player already chose in secret, the redraw takes that choice back
    and the search starts at it: a horizon of 1 must still walk the player's decision
    (counted from there), or the answer would be CFR's uniform start."""
    game = CardBattle().small_configuration("hidden-3")
    tree = build_tree(game.setup_state(), recall=True)
    for info in tree.infosets:
        state = replayed(tree, info)
        if "chosen=-" not in state.position().split("|")[2 - info.player]:
            break
    search, _ = view_search(state, info.player, horizon=1, policy=game.playout_policy())
    search.run(200)
    assert search.reached == 100             # the player updated every other iteration
    assert sum(average for _, average, *_ in search.root_slots()) > 0


@pytest.mark.parametrize("name", ("ties-3", "boost-3"))
def test_the_other_player_chooses_the_continuation_that_is_best_for_them(name):
    """With two continuations, the playout policy's own (epsilon 0) and uniform play for the
    other player, they mostly choose the policy's, which plays better than uniform on these
    configurations: were the choice made against them (a sign wrong), they would mostly
    choose uniform play. (Not everywhere: on hidden-3 greedy is predictable enough that
    uniform play is often their better continuation, which is why they choose.)"""
    shares = []
    for seed in (1, 2, 3, 4):
        game = CardBattle(seed=seed).small_configuration(name)
        state = decisions_of(game, 0, 2, seed)[1]
        search, _ = view_search(state, 0, seed=seed, horizon=1, epsilon=0.0,
                                policy=game.playout_policy(), continuations=2)
        search.run(2000)
        shares.append(search.continuation_shares()[0])
    assert sum(shares) / len(shares) > 0.6, shares


def test_continuations_restore_the_position_and_need_a_horizon_with_playouts():
    state = decisions_of(get_game("cardbattle", seed=5), 0, 3)[2]
    policy = state.game.playout_policy()
    search, kernel = view_search(state, 0, horizon=2, policy=policy, continuations=3)
    before = (kernel.key, kernel.to_position())
    search.run(50)
    assert (kernel.key, kernel.to_position()) == before
    for options in (dict(continuations=2), dict(horizon=1, policy=policy, continuations=9)):
        with pytest.raises(ValueError, match="continuations"):
            view_search(state, 0, **options)
    with pytest.raises(OptionError, match="continuations=3 needs a horizon"):
        make_engine("mccfr", root="view", continuations=3)
