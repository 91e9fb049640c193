"""Information Set MCTS on the card battle game: determinizations consistent with the
observer's view (fast and reference alike), analysis that never reads hidden cards, a mixed
strategy that converges to a closed-form equilibrium, legal play in matches, refusals."""
from __future__ import annotations

import random

import pytest

from crystalpick.engine import GameError, get_game, sample_chance
from crystalpick.engine.cardbattle.moves import kind_of, M_PLAY
from crystalpick.engine.cardbattle.position import CHOOSE
from crystalpick.engine.kernel import PUBLIC_VIEW
from crystalpick.search import Limits, analyse, make_engine
from crystalpick.apps.match.players import make_player
from crystalpick.apps.match.games import play_game
from crystalpick.apps.match.settings import MatchSettings
from crystalpick.apps.match.termination import EngineStartError
from crystalpick.search.specs import parse_spec

DECKS = {"deck1": "titas", "deck2": "arsenal"}


def random_states(count: int, seed: int, impl: str = "fast"):
    """Decision states of random games (random moves, chance by its probabilities)."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        game = get_game("cardbattle", DECKS, impl=impl, seed=rng.randrange(2**31))
        state = game.new_initial_state()
        for _ in range(rng.randrange(1, 120)):
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.play(sample_chance(state, rng.random()))
            else:
                state.play(rng.choice(state.legal_moves()))
        if not state.is_terminal() and not state.is_chance_node():
            out.append(state)
    return out


def seat(observation, player):
    return next(s for s in observation["seats"] if s["player"] == player)


def rewound(state, player) -> bool:
    """The other player chose in secret and ``player`` waits on it."""
    pos = state.to_position()
    return pos.phase == CHOOSE and any(s.chosen for p, s in enumerate(pos.seats) if p != player)


@pytest.mark.slow
@pytest.mark.parametrize("impl", ["fast", "reference"])
def test_determinizations_only_give_the_opponent_cards_they_can_hold(impl):
    for number, state in enumerate(random_states(150, 11, impl)):
        for player in (0, 1):
            seen = state.observation(player)
            sample = state.determinization(player, number * 7 + player)
            other = 1 - player
            truth, drawn = state.to_position().seats, sample.to_position().seats
            unseen = seat(seen, ("P1", "P2")[other])["unseen"]
            assert set(drawn[other].hand) | set(drawn[other].deck) <= set(unseen)
            assert drawn[player] == truth[player]
            assert drawn[other].discard == truth[other].discard
            if not rewound(state, player):
                assert sample.observation(player) == seen
                continue
            # the secret choice went back into the hand: any choice from there is the view
            assert len(drawn[other].hand) == len(truth[other].hand) + 1
            for move in sample.legal_moves():
                assert kind_of(move) == M_PLAY
                sample.play(move)
                assert sample.observation(player) == seen
                sample.undo()


def test_a_public_determinization_redraws_every_hand_as_everyone_sees_it():
    """determinize(PUBLIC_VIEW), ISMCTS's ``redraw``: each seat's hand is drawn again from
    its own hand and deck, the public view stays, and kernel and reference agree."""
    redrawn = 0
    for number, state in enumerate(random_states(120, 14)):
        reference = get_game("cardbattle", DECKS, impl="reference").parse_position(
            state.position())
        sample = state.determinization(PUBLIC_VIEW, number)
        assert sample.position() == reference.determinization(PUBLIC_VIEW, number).position()
        truth, drawn = state.to_position().seats, sample.to_position().seats
        for before, after in zip(truth, drawn):
            assert sorted(before.hand + before.deck + ([before.chosen] if before.chosen
                                                       else [])) == \
                sorted(after.hand + after.deck + ([after.chosen] if after.chosen else []))
            assert after.discard == before.discard
            redrawn += after.hand != before.hand
        if not (rewound(state, 0) or rewound(state, 1)):
            assert sample.observation(PUBLIC_VIEW) == state.observation(PUBLIC_VIEW)
    assert redrawn > 60         # both seats' hands change, not only the other's


def test_the_kernel_and_the_reference_draw_the_same_determinization():
    for number, state in enumerate(random_states(120, 12)):
        reference = get_game("cardbattle", DECKS, impl="reference").parse_position(
            state.position())
        for player in (0, 1):
            assert state.determinization(player, number).position() == \
                reference.determinization(player, number).position()


def test_the_observation_key_is_the_observation():
    states = random_states(80, 13)
    for number, state in enumerate(states):
        kernel = state.search_kernel()
        for player in (0, 1):
            key = kernel.observation_key_of(player)
            if not rewound(state, player):
                sample = state.determinization(player, number)
                assert sample.search_kernel().observation_key_of(player) == key
            assert key != kernel.observation_key_of(1 - player)
    keys = {}
    for state in states:
        for player in (0, 1):
            text = state.observation_string(player)
            key = state.search_kernel().observation_key_of(player)
            assert keys.setdefault(key, text) == text


def test_games_without_hidden_information_refuse_to_sample():
    state = get_game("mattock").new_initial_state()
    with pytest.raises(GameError, match="no hidden information"):
        state.determinization(0, 1)
    with pytest.raises(GameError, match="ismcts cannot play mattock: .* use mcts or alphabeta"):
        analyse(state, "ismcts", Limits(simulations=10))
    with pytest.raises(EngineStartError, match="hides nothing"):
        make_player(parse_spec("ismcts"), 1, get_game("mattock"))


@pytest.mark.parametrize("engine", ["alphabeta", "mcts"])
def test_perfect_information_searchers_still_refuse_and_name_ismcts(engine):
    state = get_game("cardbattle", seed=1).new_initial_state()
    with pytest.raises(GameError, match=f"{engine} cannot play cardbattle: .*use ismcts"):
        analyse(state, engine, Limits(depth=1, simulations=10))


def summary(result):
    return [(line.move_str, line.probability, line.visits, line.score) for line in
            result.lines], result.score, result.play_move


@pytest.mark.parametrize("redraw", [0.0, 1.0])
def test_analysis_of_a_view_never_depends_on_the_hidden_cards(redraw):
    checked = 0
    for number, state in enumerate(random_states(12, 14)):
        mover = state.current_player()
        if rewound(state, mover):
            continue
        others = (state.determinization(mover, 1000 * number + k) for k in range(50))
        other = next((o for o in others if o.position() != state.position()), None)
        if other is None:          # nothing else is consistent with the view
            continue
        view = state.game.parse_position(state.observation_string(mover))
        assert view.observer == mover
        alone = state.game.parse_position(state.position())   # without its history
        results = [summary(analyse(s, make_engine("ismcts", seed=number, redraw=redraw),
                                   Limits(simulations=300)))
                   for s in (alone, other, view)]
        assert results[0] == results[1] == results[2]
        checked += 1
    assert checked >= 8


def test_root_parallel_workers_sum_the_trees_their_seeds_grow():
    """workers=2 is the two one-tree searches with the first two seeds its search draws,
    arm by arm (each tree is reproducible at a simulation limit)."""
    state = random_states(1, 16)[0]
    limits = Limits(simulations=400)
    merged = analyse(state, make_engine("ismcts", seed=5, workers=2), limits)
    single = make_engine("ismcts", seed=5)
    rng = random.Random("5:0")
    seeds = [rng.getrandbits(63) for _ in range(2)]
    # the worlds both trees draw from: the state's history read once, from the first seed
    knowing = state.knowing_kernel(state.current_player(), seeds[0])
    options = single.game_options(state.game)     # the game's defaults at this size
    policy = state.game.playout_policy()
    if options["infer"]:
        policy.infer(state.search_kernel(), state.current_player())
    trees = [single.search(state, knowing, policy, options, limits, None,
                           state.current_player(), seed, 0.0, None) for seed in seeds]
    assert merged.simulations == 800 and merged.workers == 2
    visits = {}
    for tree in trees:
        for move, count, *_ in tree["arms"]:
            visits[move] = visits.get(move, 0) + count
    assert sum(visits.values()) > 400
    assert {line.move: line.visits for line in merged.lines} == visits
    assert summary(analyse(state, make_engine("ismcts", seed=5), limits)) != summary(merged)


def test_a_view_is_analysed_from_its_viewer_only():
    state = random_states(1, 15)[0]
    mover = state.current_player()
    view = state.game.parse_position(state.observation_string(mover))
    with pytest.raises(GameError, match="view"):
        analyse(view, "ismcts", Limits(simulations=10), point_of_view=1 - mover)


# -- the mixed strategy of a one-round matching-pennies position --------------------------------
# P1 has won 1 crystal of 2 and holds creatures 4 and 1; P2 holds 5 and 2 and must win both of
# the last two rounds (no refill). P1 wins if it plays its 4 against the 2 or its 1 against
# the 5 (it then wins the other round): matching pennies, whose only equilibrium is 1/2 each,
# worth 1/2 to both. A searcher whose second chooser saw the first's choice would value it 0
# for P1; one that mixes wrongly is exploited below 1/2.

PENNIES = """name = "matching pennies"
reconstruction = false
attributes = ["a", "b"]
""" + "".join(f"""
[[card]]
number = {number}
name = "{name}"
kind = "creature"
families = ["X"]
mythic = false
values = {{ a = {value}, b = {value} }}
""" for number, name, value in ((1, "Four", 4), (2, "One", 1), (3, "Five", 5), (4, "Two", 2)))
PENNIES_POSITION = (
    "cardbattle phase=choose actor=P1 caller=P1 attr=a round=1 ply=20 tiebreak=0 result=- | "
    "P1 won=1 tokens=0 hand=1.2 deck=- discard=- table=- chosen=- tie=- value=0 left=0 "
    "flags=ck | P2 won=0 tokens=0 hand=3.4 deck=- discard=- table=- chosen=- tie=- value=0 "
    "left=0 flags=ck")


def pennies_game(folder):
    """The matching-pennies position's game, its card set and decks written into ``folder``
    (bench/experiments/ismcts_pennies.py uses it too)."""
    (folder / "cards.toml").write_text(PENNIES)
    (folder / "p1.toml").write_text("cards = [1, 2]\n")
    (folder / "p2.toml").write_text("cards = [3, 4]\n")
    return get_game("cardbattle", {"deck1": str(folder / "p1.toml"),
                                   "deck2": str(folder / "p2.toml"), "deck-minimum": "2",
                                   "target": "2", "refill": "none"},
                    tileset=str(folder / "cards.toml"))


@pytest.fixture(scope="module")
def pennies(tmp_path_factory):
    return pennies_game(tmp_path_factory.mktemp("pennies"))


@pytest.mark.parametrize("moves", ["", "play:1"])       # P1 to choose; P2 after P1's secret
def test_the_mixed_strategy_converges_to_the_equilibrium(pennies, moves):
    state = pennies.state(PENNIES_POSITION, moves)
    result = analyse(state, make_engine("ismcts", seed=3),
                     Limits(simulations=40000))
    assert result.mixed and len(result.lines) == 2
    for line in result.lines:
        assert abs(line.probability - 0.5) < 0.03
    assert abs(result.win_probability - 0.5) < 0.03


def test_redraw_learns_against_every_hand_and_reaches_the_root_with_the_real_one():
    """redraw=1 on hidden-3 after the deal: the first player holds 2 of its 3 cards, so about
    a third of the simulations draw the real hand and reach the root; the root's win rate
    is theirs alone."""
    from crystalpick.search.ismcts import ISMCTS
    state = get_game("cardbattle").small_configuration("hidden-3").setup_state()
    rng = random.Random(5)
    while state.is_chance_node():
        state.play(sample_chance(state, rng.random()))
    mover = state.current_player()
    kernel = state.game.parse_position(state.position()).search_kernel()
    tree = ISMCTS(kernel, state.game.playout_policy(), mover, seed=7, redraw=1.0)
    tree.run(6000)
    assert tree.simulations == 6000
    assert abs(tree.real_simulations / tree.simulations - 1 / 3) < 0.03
    # every real simulation but the one that added the root node chose there
    assert sum(visits for _, visits, _, _ in tree.root_arms()) == tree.real_simulations - 1
    plain = ISMCTS(kernel, state.game.playout_policy(), mover, seed=7)
    plain.run(600)
    assert plain.real_simulations == plain.simulations == 600


def test_the_move_played_is_drawn_from_the_mixed_strategy(pennies):
    state = pennies.state(PENNIES_POSITION)
    played = [analyse(state, make_engine("ismcts", seed=seed), Limits(simulations=2000))
              .play_move for seed in range(60)]
    assert set(played) == set(state.legal_moves())
    assert 15 <= played.count(played[0]) <= 45
    again = analyse(state, make_engine("ismcts", seed=0), Limits(simulations=2000))
    assert again.play_move == played[0]


def test_ismcts_plays_legal_moves_in_a_match():
    settings = MatchSettings(game="cardbattle", engines=["ismcts:sims=300", "greedy"], seed=5)
    for swapped in (False, True):
        outcome = play_game(settings, 0, swapped)
        assert outcome.termination.name == "NORMAL" and outcome.plies > 0


# -- the greedy playouts, and the move played where nothing is secret ----------------------------

def test_the_kernels_greedy_playout_move_is_the_greedy_policy():
    """playout.pyx is CardBattle.greedy_move in C (the reference): the same move at every decision
    of games between every pair of sample decks, half of their moves random."""
    from crystalpick.engine.cardbattle.playout import CardBattlePlayout
    policy, rng, compared = CardBattlePlayout(), random.Random(5), 0
    decks = ["titas", "arsenal", "alianca", "mista"]
    for number in range(60):
        first, second = rng.sample(decks, 2)
        game = get_game("cardbattle", {"deck1": first, "deck2": second},
                        seed=rng.randrange(2**31))
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.play(sample_chance(state, rng.random()))
                continue
            greedy = state.game.greedy_move(state)
            assert policy.playout(state, number) == greedy, state.position()
            compared += 1
            state.play(rng.choice(state.legal_moves()) if rng.random() < 0.5 else greedy)
    assert compared > 2000


# P1 (1 crystal of 2) chose its 4 against P2's 5 and may boost: Big (+2) wins the game, Small
# (+1) only ties (and P2's Nine, in its discard pile, wins the tie-break against P1's One),
# passing loses the round. Nothing about the boost is secret: P2 sees it.
BOOST_CARDS = PENNIES + """
[[card]]
number = 7
name = "Nine"
kind = "creature"
families = ["X"]
mythic = false
values = { a = 9, b = 9 }
""" + "".join(f"""
[[card]]
number = {number}
name = "{name}"
kind = "equipment"
families = ["X"]
bonus = {{ a = {bonus} }}
""" for number, name, bonus in ((5, "Big", 2), (6, "Small", 1)))
BOOST_POSITION = (
    "cardbattle phase=boost actor=P1 caller=P1 attr=a round=1 ply=22 tiebreak=0 result=- | "
    "P1 won=1 tokens=0 hand=5.6 deck=- discard=2 table=1 chosen=1 tie=- value=4 left=0 "
    "flags=ck | P2 won=0 tokens=0 hand=4 deck=- discard=7 table=3 chosen=3 tie=- value=5 "
    "left=0 flags=ck")


@pytest.fixture(scope="module")
def boost_game(tmp_path_factory):
    folder = tmp_path_factory.mktemp("boost")
    (folder / "cards.toml").write_text(BOOST_CARDS)
    (folder / "p1.toml").write_text("cards = [1, 2, 5, 6]\n")
    (folder / "p2.toml").write_text("cards = [3, 4, 7]\n")
    return get_game("cardbattle", {"deck1": str(folder / "p1.toml"),
                                   "deck2": str(folder / "p2.toml"), "deck-minimum": "2",
                                   "target": "2", "refill": "none"},
                    tileset=str(folder / "cards.toml"))


def test_the_searcher_plays_the_winning_boost_pure(boost_game):
    """play=auto (the default) plays pure where the move is not secret, by win rate: after
    400 simulations the average strategy still mixes, and at some seeds it gives another
    option the largest share, so neither drawing from it nor taking its largest share would
    do. (At 300, one seed in 40 had visited the winning boost 6 times: too few to rank.)"""
    state = boost_game.state(BOOST_POSITION)
    big = state.parse_move("boost:5")
    largest_shares = set()
    for seed in range(20):
        result = analyse(state, make_engine("ismcts", seed=seed), Limits(simulations=400))
        assert result.play_move == big
        assert next(line for line in result.lines if line.move == big).win_probability == 1.0
        largest_shares.add(result.lines[0].move)
    assert largest_shares != {big}


@pytest.mark.parametrize("moves", ["", "play:1"])     # P1 to choose; P2 after P1's secret
def test_only_the_simultaneous_choice_counts_as_secret(pennies, boost_game, moves):
    from crystalpick.search.ismcts import ISMCTS
    for game, position, expected in ((pennies, PENNIES_POSITION, True),
                                     (boost_game, BOOST_POSITION, False)):
        state = game.state(position, moves if game is pennies else "")
        kernel = game.parse_position(state.position()).search_kernel()
        tree = ISMCTS(kernel, game.playout_policy(), state.current_player())
        assert tree.root_is_secret() == expected


@pytest.mark.parametrize("moves,secret", [("keep", False), ("keep keep toss:P2", False),
                                          ("keep keep toss:P2 call:forca", True)])
def test_mulligans_and_calls_are_public_and_the_creature_choice_secret(moves, secret):
    from crystalpick.search.ismcts import ISMCTS
    game = get_game("cardbattle", DECKS, seed=7)
    state = game.state(None, moves)
    tree = ISMCTS(game.parse_position(state.position()).search_kernel(),
                  game.playout_policy(), state.current_player())
    assert tree.root_is_secret() == secret


def test_the_card_games_tuned_defaults_hold_at_full_size_only():
    """ismcts with no options plays a full-size card game with its measured strength
    settings (CardBattle.ismcts_defaults) and a configuration small enough to solve exactly
    with the generic ones, which approach the equilibrium there; an option given wins."""
    from dataclasses import asdict

    from crystalpick.engine import ISMCTSDefaults
    from crystalpick.engine.cardbattle import CardBattle
    from crystalpick.engine.cardbattle.smallgames import small_game

    tuned, generic = asdict(CardBattle.ismcts_defaults), asdict(ISMCTSDefaults())
    assert tuned != generic
    engine = make_engine("ismcts")
    full = get_game("cardbattle")
    small = small_game("hidden-3")
    small = get_game("cardbattle", small.rules, tileset=small.tileset)
    assert {key: engine.game_options(full)[key] for key in tuned} == tuned
    assert {key: engine.game_options(small)[key] for key in generic} == generic
    assert make_engine("ismcts", playout="random").game_options(full)["playout"] == "random"
