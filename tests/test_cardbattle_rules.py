"""The card battle rules, fact by fact from the rules page (§ cited), and every rule option in
a position where its values play differently. Runs on every implementation of the game."""
from __future__ import annotations

import random

import pytest

from crystalpick.engine import CHANCE, TERMINAL, GameError, sample_chance
from crystalpick.engine.cardbattle import CardBattle
from crystalpick.engine.cardbattle.moves import M_CALL, PASS, encode, kind_of, payload_of
from crystalpick.engine.cardbattle.options import Options
from crystalpick.engine.cardbattle.position import (BOOST, CHOOSE, REFILL, SEEK, TIEBREAK,
                                                    Position, Seat)
from crystalpick.engine.cardbattle.steps import advance
from crystalpick.engine.cardbattle.rules import (boost_bonus, next_booster, payout,
                                                 playable_boosts, top_players)

from cardbattle_helpers import CARDS, boost_of, creature_of, creatures, state

IMPLS = CardBattle.implementations
DEFAULTS = Options.from_rules({o.name: o.default for o in CardBattle.rule_options})
DEF = 3                          # the attribute the Robô equipment below boosts (defesa)
PORTAL = 170


def play(state, *texts):
    for text in texts:
        state.play(state.parse_move(text))
    return state


# -- §4.4 boosts -----------------------------------------------------------------------------

def test_boost_legality_follows_the_families():
    """§9: a Robô equipment on a Guerreiro creature is refused, on a Robô+Guerreiro creature
    it is legal; Portal do Destino is legal on any creature."""
    robot_gear = CARDS.card(boost_of("Robô", DEF))
    warrior = CARDS.card(creature_of("Guerreiro"))
    both = CARDS.card(creature_of("Robô", "Guerreiro"))
    assert boost_bonus(robot_gear, warrior, DEF) == 0
    assert boost_bonus(robot_gear, both, DEF) == robot_gear.values[DEF] > 0
    for creature in (warrior, both, CARDS.card(creature_of("Dragão"))):
        assert boost_bonus(CARDS.card(PORTAL), creature, DEF) == 2


def test_a_card_without_a_bonus_in_the_called_attribute_cannot_boost():
    robot_gear = CARDS.card(boost_of("Robô", DEF))
    other = next(a for a in range(len(CARDS.attributes)) if robot_gear.values[a] == 0)
    assert boost_bonus(robot_gear, CARDS.card(creature_of("Robô", "Guerreiro")), other) == 0


def boost_position(values, hands, caller=0, **seat_flags):
    """Seats that have revealed creatures worth ``values`` in DEF, holding ``hands``."""
    picked = {}
    for wanted in values:
        picked[wanted] = next(n for n, c in CARDS.cards.items() if c.is_creature
                              and c.values[DEF] == wanted and n not in picked.values())
    seats = [Seat(hand=list(hand), deck=[PORTAL - 1], table=[picked[v]], chosen=picked[v],
                  value=v, **seat_flags) for v, hand in zip(values, hands)]
    return Position(seats=seats, phase=BOOST, caller=caller, attribute=DEF)


def test_only_a_lower_player_boosts_and_at_most_once():
    """§9: a player whose value is higher may not boost; each boosts at most once a round."""
    pos = boost_position([4, 7], [[PORTAL], [PORTAL]])
    assert next_booster(pos, CARDS, DEFAULTS) == 0
    pos.seats[0].boosted = True
    assert next_booster(pos, CARDS, DEFAULTS) == -1        # still lower, but has boosted
    pos = boost_position([7, 4], [[PORTAL], []])
    assert next_booster(pos, CARDS, DEFAULTS) == -1        # the lower one holds no boost


@pytest.mark.parametrize("impl", IMPLS)
def test_a_boost_answered_by_a_boost(impl):
    """§4.4: after a boost, the player now lower may answer; then nobody may boost again."""
    gear = boost_of("Robô", DEF)
    start = boost_position([5, 6], [[PORTAL], [gear]])
    answering = next(n for n, c in CARDS.cards.items() if c.is_creature and "Robô" in c.families
                     and c.values[DEF] == 6)
    seats = start.seats
    seats[1].table, seats[1].chosen = [answering], answering
    s = state(None, seats, impl, phase=BOOST, actor=0, caller=0, attribute=DEF)
    assert s.current_player() == 0
    assert s.legal_moves() == [encode(5, PORTAL), PASS]
    play(s, f"boost:{PORTAL}")                               # 5 + 2 = 7 > 6
    assert s.current_player() == 1 and s.legal_moves()[0] == encode(5, gear)
    play(s, f"boost:{gear}")                                 # 6 + bonus > 7: P1 has boosted
    assert s.to_position().seats[1].won == 1 and s.to_position().phase == REFILL


def test_three_players_5_5_7_the_third_wins_without_a_tie_break():
    """§9 and §4.5: a tie exists only at the top."""
    pos = boost_position([5, 5, 7], [[], [], []])
    assert top_players(pos) == [2]
    pos.seats[2].value = 5
    assert top_players(pos) == [0, 1, 2]


def test_boost_order_option_with_three_players():
    """§4.4 boost-order: the lowest decides first, or the first lower player from the caller
    (the values differ only with three or more players: with two, one player is lower)."""
    pos = boost_position([3, 5, 9], [[PORTAL]] * 3, caller=1)
    caller_order = Options.from_rules({**{o.name: o.default for o in CardBattle.rule_options},
                                       "boost-order": "caller-order"})
    assert next_booster(pos, CARDS, DEFAULTS) == 0
    assert next_booster(pos, CARDS, caller_order) == 1
    pos = boost_position([4, 4, 9], [[PORTAL]] * 3, caller=1)
    assert next_booster(pos, CARDS, DEFAULTS) == 1          # equal lowest: from the caller


# -- §4.6 tie-breaks -------------------------------------------------------------------------

def tied(impl, rules, p1_deck, p2_deck, hands=((), ())):
    """Both players tied at DEF with the decks given, tie-break draws to come."""
    a, b = [n for n, c in CARDS.cards.items() if c.is_creature and c.values[DEF] == 6][:2]
    seats = [Seat(hand=list(hands[0]), deck=sorted(p1_deck), table=[a], chosen=a, value=6),
             Seat(hand=list(hands[1]), deck=sorted(p2_deck), table=[b], chosen=b, value=6)]
    return state(rules, seats, impl, phase=BOOST, actor=0, caller=0, attribute=DEF)


@pytest.mark.parametrize("impl", IMPLS)
def test_a_tie_break_equipment_is_discarded_and_drawn_again(impl):
    """§9 (tie-card=creature); with tie-card=zero the equipment counts 0."""
    gear, strong, weak = boost_of("Robô", DEF), creatures(1)[0], creatures(2)[1]
    s = tied(impl, None, [gear, strong], [weak])
    assert s.current_player() == CHANCE and s.to_position().phase == TIEBREAK
    play(s, f"draw:{gear}")
    pos = s.to_position()
    assert gear in pos.seats[0].discard and pos.seats[0].tie_card == 0
    assert s.current_player() == CHANCE and s.legal_moves() == [encode(7, strong)]
    z = tied(impl, {"tie-card": "zero"}, [gear, strong], [weak])
    play(z, f"draw:{gear}")
    pos = z.to_position()
    assert pos.seats[0].tie_card == gear and pos.seats[0].value == 0
    assert z.legal_moves() == [encode(7, weak)]              # now P2 draws


@pytest.mark.parametrize("impl", IMPLS)
def test_a_tied_player_who_cannot_draw_drops_out(impl):
    """§4.6/§4.9: no creature in deck or discard: the other tied player wins the round."""
    gear = boost_of("Robô", DEF)
    s = tied(impl, None, [gear], creatures(3)[2:])
    pos = s.to_position()
    assert pos.seats[1].won == 1 and pos.seats[0].won == 0 and pos.caller == 1


@pytest.mark.parametrize("impl", IMPLS)
def test_tie_boosts_option(impl):
    """§4.6 tie-boosts: after the tie-break cards, the lower player may boost only with yes."""
    low, high = (next(n for n, c in CARDS.cards.items() if c.is_creature and c.values[DEF] == v)
                 for v in (3, 8))
    for rules, boosts in ((None, False), ({"tie-boosts": "yes"}, True)):
        s = tied(impl, rules, [low], [high], hands=([PORTAL], []))
        play(s, f"draw:{low}", f"draw:{high}")
        assert (s.current_player() == 0 and s.to_position().phase == BOOST) == boosts


# -- §4.2 a hand without a creature ----------------------------------------------------------

@pytest.mark.parametrize("impl", IMPLS)
def test_no_creature_option(impl):
    gear, (c1, c2, c3) = boost_of("Robô", DEF), creatures(3)

    def seats():
        return [Seat(hand=[gear], deck=[c1, PORTAL]), Seat(hand=[c2], deck=[c3])]
    draw = state(None, seats(), impl, phase=SEEK, caller=0, attribute=DEF)
    assert draw.current_player() == CHANCE                     # P1 draws until a creature
    play(draw, f"draw:{PORTAL}")
    assert draw.current_player() == CHANCE and draw.legal_moves() == [encode(7, c1)]
    play(draw, f"draw:{c1}")
    assert draw.current_player() == 0 and draw.legal_moves() == [encode(4, c1)]
    forfeit = state({"no-creature": "forfeit"}, seats(), impl, phase=SEEK, caller=0,
                    attribute=DEF)
    pos = forfeit.to_position()
    assert pos.phase == CHOOSE and forfeit.current_player() == 1
    assert not pos.seats[0].contending
    play(forfeit, f"play:{c2}")                                # alone: P2 wins the round
    assert forfeit.to_position().seats[1].won == 1


# -- rounds, payout, the end -----------------------------------------------------------------

def random_game(rules, impl, seed):
    s = CardBattle(rules, impl=impl, seed=seed).new_initial_state()
    rng = random.Random(seed)
    while not s.is_terminal():
        s.play(sample_chance(s, rng.random()) if s.is_chance_node()
               else rng.choice(s.legal_moves()))
        yield s


@pytest.mark.parametrize("impl", IMPLS)
def test_the_round_winner_calls_next_and_may_call_the_same_attribute(impl):
    """§4.7 and §9."""
    checked = 0
    last_call = None
    for s in random_game(None, impl, 4):
        pos = s.to_position()
        if pos.phase == 4 and last_call is not None:        # CALL
            assert s.current_player() == pos.caller
            assert encode(M_CALL, last_call) in s.legal_moves()
            checked += 1
        if pos.attribute >= 0:
            last_call = pos.attribute
    assert checked > 3


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("target", ["3", "8"])
def test_the_game_ends_at_exactly_target_crystals(impl, target):
    for seed in range(3):
        for s in random_game({"target": target}, impl, seed):
            pass
        won = sorted(seat.won for seat in s.to_position().seats)
        assert won[-1] == int(target) and won[0] < int(target)
        assert s.current_player() == TERMINAL and s.winner() is not None


def test_stake_moves_crystals_from_the_losers():
    """§6 crystals=stake: each other player still in pays one; at none a player is out."""
    stake = Options.from_rules({**{o.name: o.default for o in CardBattle.rule_options},
                                "crystals": "stake"})
    pos = Position(seats=[Seat(tokens=8), Seat(tokens=1), Seat(tokens=8)])
    payout(pos, 0, stake)
    assert [s.tokens for s in pos.seats] == [10, 0, 7] and pos.seats[1].out
    bank = Position(seats=[Seat(), Seat()])
    payout(bank, 1, DEFAULTS)
    assert [s.tokens for s in bank.seats] == [0, 0] and bank.seats[1].won == 1


@pytest.mark.parametrize("impl", IMPLS)
def test_refill_option(impl):
    """§4.8 refill: after a round, five draws back up to 5, one draws 1, none draws none."""
    counts = {}
    for refill in ("five", "one", "none"):
        s = CardBattle({"refill": refill}, impl=impl, seed=2).new_initial_state()
        rng = random.Random(2)
        while s.to_position().round == 0:
            s.play(sample_chance(s, rng.random()) if s.is_chance_node()
                   else rng.choice(s.legal_moves()))
        draws = 0
        while s.to_position().phase == REFILL:
            s.play(s.legal_moves()[0])
            draws += 1
        counts[refill] = draws
    assert counts["none"] == 0 and counts["one"] == 2 and counts["five"] >= 2


@pytest.mark.parametrize("impl", IMPLS)
def test_deck_out_option(impl):
    """§4.9: a draw from an empty deck reshuffles the discard pile, or loses the game."""
    c1, c2, c3 = creatures(3)
    seats = [Seat(hand=[c1], deck=[], discard=[c2, c3]), Seat(hand=[c3], deck=[c1, c2])]
    for rules, over in ((None, False), ({"deck-out": "lose"}, True)):
        s = state(rules, [Seat(**vars(x)) for x in seats], impl, phase=REFILL, caller=1)
        pos = s.to_position()
        if over:
            assert s.is_terminal() and s.winner() == 1
        else:
            assert s.is_chance_node() and s.legal_moves() == [encode(7, c2), encode(7, c3)]
            assert pos.seats[0].discard == []


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("seed", [73, 128])
def test_a_long_game_is_not_cut_short(impl, seed):
    """§6: only max-rounds draws a game. With target 15 and arsenal on both sides these random
    games last more than 250 plies without a void round and are won at 15 crystals (an
    extra 250-ply cap once drew them at 12-14)."""
    for s in random_game({"target": "15", "deck1": "arsenal", "deck2": "arsenal"}, impl, seed):
        pass
    pos = s.to_position()
    assert pos.ply > 250 and pos.round < 100
    assert max(seat.won for seat in pos.seats) == 15 and s.winner() is not None


@pytest.mark.parametrize("impl", IMPLS)
def test_stake_players_bring_eight_crystals_whatever_the_target(impl):
    """§1, §6 crystals=stake: each player stakes their own 8 tokens; the target is a count of
    wins, not of tokens. With target 15 a stake game ends when a player has none left."""
    for target in ("3", "15"):
        s = CardBattle({"crystals": "stake", "target": target}, impl=impl).setup_state()
        assert [seat.tokens for seat in s.to_position().seats] == [8, 8]
    for s in random_game({"crystals": "stake", "target": "15"}, impl, 2):
        pass
    seats = s.to_position().seats
    loser = 1 - s.winner()
    assert seats[loser].out and seats[loser].tokens == 0 and seats[s.winner()].tokens == 16


def test_a_deck_beyond_the_kernel_plays_in_the_reference_and_is_refused_by_the_kernel():
    """§2 has no upper deck size. The kernel holds 64 cards a player (an engineering limit):
    a 61-card deck plays in both, a 65-card one in the reference, and the kernel refuses it
    in one line naming the implementation that plays it."""
    big = {"deck1": ".".join(map(str, range(1, 62))), "deck2": ".".join(map(str, range(60, 125)))}
    with pytest.raises(GameError, match="P2 owns 65 cards; .* at most 64 .*--impl reference"):
        CardBattle(big, impl="fast", seed=1).new_initial_state()
    for s in random_game(big, "reference", 1):
        pass
    assert s.is_terminal()
    for s in random_game({**big, "deck2": ".".join(map(str, range(64, 125)))}, "fast", 1):
        pass
    assert s.is_terminal()


@pytest.mark.parametrize("impl", IMPLS)
def test_max_rounds_option_draws_the_game(impl):
    for s in random_game({"max-rounds": "10", "target": "15"}, impl, 1):
        pass
    pos = s.to_position()
    assert pos.round == 10 and s.winner() is None and s.returns() == (0.0, 0.0)


@pytest.mark.parametrize("impl", IMPLS)
def test_hand_option_sets_the_deal(impl):
    for hand in ("2", "5"):
        s = CardBattle({"hand": hand}, impl=impl, seed=1).new_initial_state()
        assert [len(seat.hand) for seat in s.to_position().seats] == [int(hand)] * 2


def test_deck_minimum_option(tmp_path):
    deck = tmp_path / "ten.toml"
    deck.write_text("cards = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n", encoding="utf-8")
    with pytest.raises(Exception, match="ten.toml.*10 cards; a deck holds at least 15"):
        CardBattle({"deck1": str(deck)})
    assert CardBattle({"deck1": str(deck), "deck-minimum": "10"}).decks[0].cards[-1] == 10


# -- §5 information --------------------------------------------------------------------------

@pytest.mark.parametrize("impl", IMPLS)
def test_the_second_chooser_cannot_see_the_first_choice(impl):
    """The simultaneous choice as hidden sequential moves: P2's observation before and after
    P1's secret choice is the same but for whose turn it is and the ply; P1's card shows as
    unknown until every player has chosen."""
    for s in random_game(None, impl, 3):
        if s.to_position().phase == CHOOSE and s.current_player() == 0:
            break
    before = s.observation(1)
    move = s.legal_moves()[-1]
    s.play(move)
    after = s.observation(1)
    assert s.current_player() == 1
    assert after["seats"][0]["chosen"] == "hidden"
    assert payload_of(move) not in after["seats"][0]["table"]
    assert f"chosen={payload_of(move)}" not in s.observation_string(1)
    assert after["seats"][0]["unseen"] == sorted(before["seats"][0]["unseen"])
    assert after["seats"][1] == before["seats"][1]
    assert f"chosen={payload_of(move)}" in s.observation_string(0)
    s.play(s.legal_moves()[0])                               # P2 chooses: reveal
    seen = s.observation(1)["seats"][0]
    assert payload_of(move) in seen["table"] + seen["discard"]
    assert kind_of(move) == 4


@pytest.mark.parametrize("impl", IMPLS)
def test_an_observation_does_not_depend_on_what_the_player_cannot_see(impl):
    """Swapping cards between the opponent's hand and deck (unknown to the observer) leaves
    the observer's view unchanged and changes the opponent's."""
    s = CardBattle(impl=impl, seed=8).new_initial_state()
    pos = s.to_position().copy()
    them = pos.seats[1]
    them.hand[0], them.deck[0] = them.deck[0], them.hand[0]
    them.hand.sort()
    them.deck.sort()
    other = CardBattle(impl=impl)._state(pos)
    assert other.observation_string(0) == s.observation_string(0)
    assert other.observation_string(1) != s.observation_string(1)
    assert "hand=?5" in s.observation_string(0)


def without_playable_boosts(state, game):
    """The same moment had the booster held no playable boost card: their playable cards
    swapped with unplayable ones of their deck (the others cannot see the swap), then the
    rules' automatic steps. None when the deck has too few unplayable cards."""
    pos = state.to_position().copy()
    seat = pos.seats[pos.actor]
    playable = playable_boosts(pos, game.cardset, pos.actor)
    spare = [n for n in seat.deck
             if boost_bonus(game.cardset.card(n), game.cardset.card(seat.chosen),
                            pos.attribute) == 0 and not game.cardset.card(n).neutral]
    if len(spare) < len(playable):
        return None
    seat.hand = sorted(set(seat.hand) - set(playable) | set(spare[:len(playable)]))
    seat.deck = sorted(set(seat.deck) - set(spare[:len(playable)]) | set(playable))
    advance(pos, game.cardset, game.options)
    return game._state(pos)


@pytest.mark.parametrize("impl", IMPLS)
def test_a_pass_looks_the_same_as_having_no_boost_card(impl):
    """§5: at every boost decision of random games (tie-boosts on, so passes also last into
    tie-breaks), the other player's observation (string, data and, in the kernel, key) after
    a pass equals the one where the booster held no playable card and was never asked."""
    checked = 0
    for seed in range(12):
        rules = {"deck1": "arsenal", "deck2": "arsenal", "tie-boosts": "yes", "target": "4"}
        game = CardBattle(rules, impl=impl)
        for s in random_game(rules, impl, seed):
            if s.to_position().phase != BOOST:
                continue
            booster = s.current_player()
            unable = without_playable_boosts(s, game)
            if unable is None:
                continue
            passed = s.clone()
            passed.play(PASS)
            other = 1 - booster
            assert passed.observation_string(other) == unable.observation_string(other)
            assert passed.observation(other) == unable.observation(other)
            if impl == "fast":
                assert passed.kernel.observation_key_of(other) == \
                    unable.kernel.observation_key_of(other)
            assert passed.observation_string(booster) != unable.observation_string(booster)
            assert s.move_to_str_seen_by(PASS, other) is None       # play shows no pass
            assert s.move_to_str_seen_by(PASS, booster) == "pass"
            checked += 1
    assert checked > 30
