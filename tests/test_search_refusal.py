"""Searchers refuse games they cannot handle (hidden information, simultaneous moves, chance
for df-pn) instead of playing them as something they are not, by what each engine declares
it requires; random and the game's own greedy still play."""
from __future__ import annotations

import random

import pytest

from crystalpick.engine import GAMES, GameError, get_game
from crystalpick.search import Limits, analyse
from crystalpick.search.engines import ENGINES, AlphaBetaEngine, default_engine
from crystalpick.apps.match.players import (OwnGreedyPlayer, RandomPlayer, SearchPlayer,
                                              make_player)
from crystalpick.apps.match.games import play_game
from crystalpick.apps.match.settings import MatchSettings
from crystalpick.apps.match.termination import EngineStartError
from crystalpick.search.requirements import NO_CHANCE
from crystalpick.search.specs import parse_spec

IMPERFECT = sorted(name for name, cls in GAMES.items()
                   if not cls.capabilities.perfect_information)


@pytest.mark.parametrize("name", IMPERFECT)
@pytest.mark.parametrize("engine", ["alphabeta", "mcts"])
def test_searchers_refuse_imperfect_information(name, engine):
    state = get_game(name, seed=1).new_initial_state()
    with pytest.raises(GameError, match=f"{engine} cannot play {name}: .*perfect-information"):
        analyse(state, engine, Limits(depth=1, simulations=10))
    with pytest.raises(EngineStartError, match="perfect-information"):
        make_player(parse_spec(engine), 1, get_game(name))


@pytest.mark.parametrize("name", IMPERFECT)
def test_random_and_greedy_play_a_match_game(name):
    settings = MatchSettings(game=name, engines=["greedy", "random"], seed=5)
    outcome = play_game(settings, 0, False)
    assert outcome.plies > 0 and outcome.score in (0.0, 0.5, 1.0)
    assert outcome.termination.name == "NORMAL"


def test_greedy_is_still_alphabeta_for_perfect_information_games():
    player = make_player(parse_spec("greedy"), 1, get_game("mattock"))
    assert isinstance(player, SearchPlayer) and player.engine.name == "alphabeta"
    assert player.limits(None, 0.0, None).depth == 1


@pytest.mark.parametrize("name", IMPERFECT)
def test_greedy_is_the_games_own_where_alphabeta_cannot_play(name):
    assert isinstance(make_player(parse_spec("greedy"), 1, get_game(name)), OwnGreedyPlayer)


@pytest.mark.parametrize("text, seed", [("random", 7), ("random:seed=3", 3)])
def test_the_seed_goes_to_random_by_its_schema_unless_the_spec_sets_one(text, seed):
    player = make_player(parse_spec(text), 7, get_game("mattock"))
    assert isinstance(player, RandomPlayer)
    assert player.rng.random() == random.Random(seed).random()


@pytest.mark.parametrize("text, seeded", [("mcts", True), ("ismcts", True), ("random", True),
                                          ("alphabeta", False), ("greedy", False),
                                          ("dfpn", False), ("cmd:some engine", False)])
def test_the_seed_goes_to_whatever_has_a_seed_option(text, seeded):
    options = parse_spec(text).seeded(11)
    assert options == dict(parse_spec(text).options, **({"seed": 11} if seeded else {}))
    if seeded:
        assert parse_spec(f"{text}:seed=4").seeded(11)["seed"] == 4


def test_a_declared_requirement_refuses_whatever_the_engine_is_called():
    """The refusal comes from ``requires``, not from the engine's name."""
    class NoChanceAlphaBeta(AlphaBetaEngine):
        name = "renamed"
        requires = (NO_CHANCE,)
    NoChanceAlphaBeta.refuse(get_game("mattock"))
    with pytest.raises(GameError, match="renamed cannot prove maatatahay: .* has chance"):
        NoChanceAlphaBeta.refuse(get_game("maatatahay"))
    assert not NoChanceAlphaBeta.accepts(get_game("maatatahay"))


def test_dfpn_declares_the_solvers_requirements():
    with pytest.raises(GameError, match="dfpn cannot prove maatatahay"):
        analyse(get_game("maatatahay").new_initial_state(), "dfpn", Limits(nodes=10))
    assert NO_CHANCE in ENGINES["dfpn"].requires


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_default_engine_accepts_the_game(name):
    engine = ENGINES[default_engine(get_game(name, seed=1))]
    assert engine.accepts(get_game(name, seed=1))
    assert engine.name == ("ismcts" if GAMES[name].capabilities.hidden_information
                           else "alphabeta")


@pytest.mark.parametrize("name", IMPERFECT)
def test_the_solved_position_generator_refuses_too(name, capsys):
    from crystalpick.solvers.solved import exact_value, main
    with pytest.raises(SystemExit) as exit_info:
        main([name])
    assert exit_info.value.code == 2 and "cannot play" in capsys.readouterr().err
    with pytest.raises(GameError, match="cannot play"):
        exact_value(get_game(name, seed=1).new_initial_state(), 1000)
