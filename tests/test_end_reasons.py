"""Each game says why a game ended in its own terms (``State.end_reason()``), checked on
random games to the end against what the final position shows: the fast kernels decide
that the game is over, the reason must name a condition that holds there."""
from __future__ import annotations

import random

import pytest
from click.testing import CliRunner

from crystalpick.cli.main import cli
from crystalpick.engine import get_game, sample_chance
from crystalpick.engine.maatatahay.rules import free_cells

SEEDS = range(6)


def final_states(name: str, rules: dict | None = None, impls=("fast", "reference")):
    for seed in SEEDS:
        for impl in impls if seed < 2 else impls[:1]:
            state = get_game(name, rules, impl=impl, seed=seed).new_initial_state()
            rng = random.Random(seed)
            while not state.is_terminal():
                state.play(sample_chance(state, rng.random()) if state.is_chance_node()
                           else rng.choice(state.legal_moves()))
            yield state


def test_mattock_names_the_player_who_cannot_mine():
    for state in final_states("mattock"):
        loser = state.returns().index(-1.0)
        assert state.end_reason() == f"{state.game.player_names[loser]} cannot mine"


@pytest.mark.parametrize("limit", ["total", "either"])
def test_maatatahay_names_every_end_condition_that_holds(limit):
    for state in final_states("maatatahay", {"death-limit": limit}):
        pos = state.to_position()
        reason = state.end_reason()
        parts = reason.split(" and ")
        dead = [pos.deaths(0), pos.deaths(1)]
        expected = []
        if limit == "total" and sum(dead) >= 6:
            expected.append(f"{sum(dead)} warriors dead in total")
        if limit == "either":
            expected += [f"{name} lost {dead[p]} warriors"
                         for p, name in enumerate(state.game.player_names) if dead[p] >= 6]
        if free_cells(pos) <= 1:
            expected.append("board full")
        if not pos.deck and not pos.pairs:
            expected.append("all warriors played")
        assert parts == expected, (reason, pos)


@pytest.mark.parametrize("rules, kind", [({}, "target"), ({"max-rounds": "10"}, "limit"),
                                         ({"deck-out": "lose"}, "deck")])
def test_cardbattle_names_the_crystals_the_limit_or_the_empty_deck(rules, kind):
    seen = set()
    for state in final_states("cardbattle", rules):
        pos, names = state.to_position(), state.game.player_names
        winner = state.winner()
        reason = state.end_reason()
        if winner is None:
            assert reason == f"{pos.round} rounds played (the max-rounds limit)"
            seen.add("limit")
        elif pos.seats[winner].won >= 8:
            assert reason == f"{names[winner]} reached 8 crystals"
            seen.add("target")
        else:
            assert reason == f"{names[1 - winner]} had to draw from an empty deck"
            assert not pos.seats[1 - winner].deck
            seen.add("deck")
    assert kind in seen


@pytest.mark.parametrize("game, fragment", [("mattock", "cannot mine"),
                                            ("maatatahay", "board full"),
                                            ("cardbattle", "crystals")])
def test_play_says_why_the_game_ended_in_the_games_terms(game, fragment):
    result = CliRunner().invoke(cli, ["play", game, "--engine", "random", "--human", "none", "--seed", "3"])
    assert result.exit_code == 0, result.output
    last = [line for line in result.output.splitlines() if line.startswith("game over after")]
    assert len(last) == 1 and fragment in last[0], result.output[-1500:]
    assert '[Reason "' in result.output       # the record printed at the end says it too
