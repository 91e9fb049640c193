"""The analysis API's request: every check of `crystalpick analyse` made once, and what the
edge prints read from typed fields (a mixed strategy's :class:`MixedStrategy`), never from
engine-specific keys."""
from __future__ import annotations

import pytest

import crystalpick.search.analysis as analysis
from crystalpick.engine import GameError, get_game
from crystalpick.search.engines import ENGINES
from crystalpick.search.result import MixedStrategy

from crystalpick.cli.output import analysis_document, analysis_text


def counted(monkeypatch, owner, name):
    calls = []
    original = getattr(owner, name)

    def counting(*args, **kwargs):
        calls.append(args)
        return original(*args, **kwargs)
    monkeypatch.setattr(owner, name, counting)
    return calls


@pytest.mark.parametrize("game, engine", [("mattock", "alphabeta:depth=2"),
                                          ("cardbattle", "ismcts:sims=200,seed=1")])
def test_a_request_makes_each_check_once(monkeypatch, game, engine):
    state = get_game(game, seed=3).new_initial_state()
    name = engine.partition(":")[0]
    views = counted(monkeypatch, analysis, "whose_view")      # via searchable_view
    refusals = counted(monkeypatch, ENGINES[name], "refuse")
    request = analysis.request_analysis(state, engine, {})
    result = request.run()
    assert result.best_move is not None
    assert (len(views), len(refusals)) == (1, 1)


def test_the_public_call_still_checks():
    """analyse() itself, for a library user, refuses what the request would."""
    state = get_game("cardbattle", seed=3).new_initial_state()
    with pytest.raises(GameError, match="alphabeta"):
        analysis.analyse(state, "alphabeta", analysis.Limits(depth=1))


def test_a_mixed_strategy_is_printed_from_its_typed_fields():
    state = get_game("cardbattle", seed=3).new_initial_state()
    result = analysis.request_analysis(state, "ismcts:sims=300,seed=2,redraw=0.5", {}).run()
    strategy = result.strategy
    assert isinstance(strategy, MixedStrategy) and result.mixed
    document = analysis_document(result, {}, final=True)["result"]
    assert (document["selection"], document["play"], document["knowledge"],
            document["plies_seen"], document["real_simulations"]) == (
        strategy.selection, strategy.play, strategy.knowledge, strategy.plies_seen,
        strategy.real_simulations)
    assert strategy.real_simulations is not None and "note" not in document
    text = analysis_text(result, state.to_move_name(), interrupted=False)
    assert f"({strategy.selection}, {strategy.real_simulations:,} with the real hand)" in text


def test_a_pure_strategy_search_has_no_mixed_fields():
    state = get_game("mattock").new_initial_state()
    result = analysis.request_analysis(state, "alphabeta:depth=1", {}).run()
    assert result.strategy is None and not result.mixed
    assert "mixed" not in analysis_document(result, {}, final=True)["result"]
