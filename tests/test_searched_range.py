"""The range mccfr shows when it searches the whole game from the deal (search/assumed.py
``bayes_range``, issue 43 items 3 and 5): not drawn but the one its own average strategy
implies, by Bayes from the deal. Checked against the exact tree: the solver's reach of each
information set's nodes under that same strategy, normalised by the other player's hand."""
from __future__ import annotations

import numpy as np
import pytest

from crystalpick.engine.cardbattle import CardBattle
from crystalpick.search import Limits, make_engine
from crystalpick.search.assumed import searched_strategy
from crystalpick.search.ranges import range_of
from crystalpick.solvers.exact.levels import edge_weights, forward_reach, levels
from crystalpick.solvers.exact.tree import build_tree

from test_ranges import replay, solver_range, uncertain_sets

pytestmark = pytest.mark.slow      # a tree of the configuration (about 15 s)

EVERY = 10**6                      # hands shown: all


def table_strategy(tree, search) -> np.ndarray:
    """The search's average strategy at every information set of ``tree``, one probability
    per slot (uniform where no iteration met the set, as the range reads it)."""
    sigma = np.zeros(len(tree.edge_child))
    for info in tree.infosets:
        found = search.average_strategy(info.key, info.player)
        for k, move in enumerate(info.moves):
            sigma[info.first_slot + k] = (found[move] if found is not None
                                          else 1.0 / len(info.moves))
    return sigma


def test_mccfr_from_the_deal_shows_the_range_its_own_strategy_implies():
    game = CardBattle().small_configuration("reshuffle-2")
    tree = build_tree(game.setup_state())
    engine = make_engine("mccfr", seed=3)
    first = replay(tree, tree.infosets[0].history)
    engine.analyse(first, Limits(simulations=3000), None, first.current_player(), 1)
    search = engine.last_search
    reach = forward_reach(tree, levels(tree), edge_weights(tree, table_strategy(tree, search)))
    sets = uncertain_sets(game, tree, reach)
    assert len(sets) >= 3
    moved = 0.0
    for infoset in sets:
        info = tree.infosets[infoset]
        state = replay(tree, info.history)
        shown = engine.assumed_range(state, info.player, EVERY)
        assert shown.samples is None and "Bayes" in shown.method
        expected = solver_range(game, tree, reach, infoset)
        found = {key: share for key, _, share in shown.hands}
        assert shown.distinct == len(found) == sum(p > 0 for p in expected.values())
        for key, probability in expected.items():
            assert found.get(key, 0.0) == pytest.approx(probability, abs=1e-9), key

        def uniform(world):
            moves = world.legal_moves()
            return {move: 1.0 / len(moves) for move in moves}
        flat = range_of(state, info.player, uniform).probabilities
        moved = max(moved, max(abs(flat[key] - found.get(key, 0.0)) for key in flat))
    assert moved > 0.01            # the range reads the strategy, not uniform play


def test_from_a_dealt_start_mccfr_searches_from_the_deal_and_shows_its_range():
    """A state from a dealt position (new_initial_state, as ``--seed N --moves`` and a
    match's games): mccfr searches from the deal put back (Ranges.with_open_start), as the
    exploitability bench measures it, so its range is shown: the walk from the deal under
    its strategy, which keeps every hand the view allows (not the true one alone)."""
    game = CardBattle(seed=2).small_configuration("hidden-3")
    state = game.new_initial_state()
    state.play(state.legal_moves()[0])
    while state.current_player() < 0:
        state.play(state.legal_moves()[0])
    viewer = state.current_player()
    engine = make_engine("mccfr", seed=3)
    analysis = engine.analyse(state, Limits(simulations=500), None, viewer, 1)
    deal = len(game.with_open_start(state).played_moves()) - len(state.played_moves())
    assert deal > 0 and engine.last_search.history_plies == len(state.played_moves()) + deal
    assert analysis.strategy.searched_from == \
        f"the history ({len(state.played_moves()) + deal} plies)"
    shown = engine.assumed_range(state, viewer, EVERY)
    expected = range_of(state, viewer, searched_strategy(engine.last_search)).probabilities
    assert {key: share for key, _, share in shown.hands} == \
        {key: share for key, share in expected.items() if share > 0}
    assert shown.distinct == game.private_state_count(state, 1 - viewer) > 1
