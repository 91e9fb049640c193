"""Every fact of section 9 of the rules page, and the other rules, on both implementations.

Positions are written in the notation with only the facts each test is about; expected
numbers are worked out by hand from the rules page and the default tileset's printed values
(checked as preconditions, so a changed tileset fails loudly instead of silently).
"""
from __future__ import annotations

import random
import re

import pytest

from crystalpick.engine.game import CHANCE, IllegalMoveError
from crystalpick.engine.maatatahay import Maatatahay
from crystalpick.engine.maatatahay.board import NAMES
from crystalpick.engine.maatatahay.moves import decode_place, decode_two, move_payload

from test_maatatahay_support import IMPLS, TILESET, build, cell_info, play, state

STRENGTH = {t.id: t.strength for t in TILESET.tiles}


@pytest.fixture(params=IMPLS)
def impl(request):
    return request.param


def test_default_tileset_values_the_tests_rely_on():
    assert [STRENGTH[t] for t in ("W1", "W4", "W5", "B4", "B8", "B12")] == [1, 2, 2, 2, 3, 4]
    assert TILESET.tiles[TILESET.index["B4"]].arrows_at(0)[0] == 1        # B4 points N
    assert TILESET.frame_energy[NAMES.index("c1")] == 1
    assert TILESET.frame_energy[NAMES.index("a2")] == 0


# -- combat examples (section 9) -------------------------------------------------------------

def corner(enemy_on_b1: str, impl: str):
    """B8 (strength 3) in corner a1 with an enemy on b1; Wazu closes a2 with W5 (2)."""
    text = build({"a1": "B8^s", "b1": f"{enemy_on_b1}^"}, pending="place:W5,B12")
    return play(state(impl, text), "a2^")


def test_corner_warrior_of_3_against_2_and_2_dies(impl):
    st = corner("W4", impl)
    assert not cell_info(st, "a1")["alive"]
    assert cell_info(st, "a2")["spirit"] == 1            # its Spirit moves to the new warrior
    assert st.to_position().deaths(0) == 1


def test_corner_warrior_of_3_against_1_and_2_survives(impl):
    st = corner("W1", impl)
    assert cell_info(st, "a1")["alive"]
    assert cell_info(st, "a1")["spirit"] == 1
    assert st.to_position().deaths(0) == 0


def test_dead_warrior_energy_returns_to_supply(impl):
    # B1 (1 + 2 Energy) against W4 (2) and W5 (2): 3 < 4.
    before = state(impl, build({"a1": "B1^2e", "b1": "W4^"}, pending="place:W5,B12"))
    supply = before.to_position().supply_energy
    after = play(before, "a2^")
    assert not cell_info(after, "a1")["alive"]
    assert cell_info(after, "a1")["energy"] == 0
    assert after.to_position().supply_energy == supply + 2


def test_friendly_fire_kills_an_edge_warrior(impl):
    text = build({"b1": "B4^", "a1": "W1^", "c1": "W4^", "e4": "B11^"},
                 pending="place:B12,W12")
    st = play(state(impl, text), "b2^")
    assert not cell_info(st, "b1")["alive"]
    assert cell_info(st, "b2")["alive"]


# -- support (section 9) ---------------------------------------------------------------------

def test_support_flows_from_a_friendly_arrow_to_the_new_warrior(impl):
    text = build({"b1": "B4^", "e1": "W11^"}, pending="place:B12,W12")
    st = play(state(impl, text), "b2^")
    assert cell_info(st, "b2")["energy"] == 1


def test_support_does_not_flow_to_a_warrior_already_there(impl):
    text = build({"b2": "B12^", "e1": "W11^"}, pending="place:B4,W12")
    st = play(state(impl, text), "b1^")
    assert cell_info(st, "b2")["energy"] == 0
    assert cell_info(st, "b1")["energy"] == 0


def test_enemy_arrows_give_nothing(impl):
    text = build({"b1": "W4^", "e1": "B11^"}, pending="place:B12,W12")
    st = play(state(impl, text), "b2^")
    assert cell_info(st, "b2")["energy"] == 0


def test_frame_arrow_gives_one_energy(impl):
    text = build({"e5": "W11^", "a1": "B11^"}, pending="place:B12,W12",
                 temples="e4,a5,b5,c5,d5")
    st = play(state(impl, text), "c1^")
    assert cell_info(st, "c1")["energy"] == 1


def test_support_is_capped_by_the_supply(impl):
    text = build({"b1": "B4^", "e1": "W11^"}, pending="place:B12,W12", bag="3s45e")
    assert state(impl, text).to_position().supply_energy == 0
    st = play(state(impl, text), "b2^")
    assert cell_info(st, "b2")["energy"] == 0


# -- temples (section 9) ---------------------------------------------------------------------

FRIEND_CELLS = ("c4", "c2", "b3", "d3")
FAR_CELLS = ("a1", "b1", "d1", "e1")
TEMPLES = "c1,a3,c3,e3,c5"


def temple_position(friends: int, store: str = "4s4e/-", options: str = "",
                    enemies: int = 0, bag: str = "3s3e") -> str:
    """Balan to place B12 with ``friends`` Balan and ``enemies`` Wazu warriors beside c3."""
    balan = iter(["B1", "B2", "B3", "B5"])
    wazu = iter(["W1", "W2", "W3", "W5"])
    board = {cell: f"{next(balan)}^" for cell in FRIEND_CELLS[:friends]}
    board.update({cell: f"{next(wazu)}^" for cell in FRIEND_CELLS[friends:friends + enemies]})
    fillers = [next(wazu) for _ in range(friends - enemies)] + [
        next(balan) for _ in range(enemies - friends)]
    board.update({cell: f"{tile}^" for cell, tile in zip(FAR_CELLS, fillers)})
    return build(board, temples=TEMPLES, store=store, bag=bag, pending="place:B12,W12",
                 options=options)


def temple_payments(st, cell: str) -> set[tuple[int, int]]:
    found = set()
    for move in st.legal_moves():
        c, _, spirit, energy = decode_place(move_payload(move))
        if NAMES[c] == cell:
            found.add((spirit, energy))
    return found


@pytest.mark.parametrize("friends,cost", [(0, 4), (1, 3), (2, 2), (3, 1), (4, 1)])
def test_temple_cost_by_adjacent_friendly_warriors(impl, friends, cost):
    st = state(impl, temple_position(friends))
    assert temple_payments(st, "c3") == {(s, cost - s) for s in range(1, cost + 1)}


def test_enemies_do_not_discount_a_temple_by_default(impl):
    st = state(impl, temple_position(0, enemies=2))
    assert {s + e for s, e in temple_payments(st, "c3")} == {4}


def test_any_discount_counts_every_adjacent_tile(impl):
    st = state(impl, temple_position(0, enemies=2, options="temple-discount=any"))
    assert {s + e for s, e in temple_payments(st, "c3")} == {2}


def test_no_spirit_no_temple(impl):
    st = state(impl, temple_position(4, store="4e/-"))
    assert temple_payments(st, "c3") == set()
    assert temple_payments(st, "c1") == set()


def test_payment_needs_enough_crystals(impl):
    st = state(impl, temple_position(0, store="s2e/-"))
    assert temple_payments(st, "c3") == set()          # 3 crystals cannot pay 4


def test_relic_draws_two_crystals_with_hypergeometric_odds(impl):
    st = play(state(impl, temple_position(0)), "c3^$s3e")     # bag 3s3e + s3e = 4s6e
    assert st.current_player() == CHANCE
    outcomes = {decode_two(move_payload(m)): p for m, p in st.chance_outcomes()}
    assert outcomes == pytest.approx({(0, 2): 15 / 45, (1, 1): 24 / 45, (2, 0): 6 / 45})
    assert all(s + e == 2 for s, e in outcomes)
    pos = st.to_position()
    assert pos.relics == [0]
    for move, _ in st.chance_outcomes():
        st.play(move)
        after = st.to_position()
        gained = (after.storage_spirit[0] + after.storage_energy[0]
                  - pos.storage_spirit[0] - pos.storage_energy[0])
        loaded = sum(after.warrior_spirit) + sum(after.warrior_energy) - sum(
            pos.warrior_spirit) - sum(pos.warrior_energy)
        assert gained + loaded == 2
        st.undo()


def test_relic_draws_fewer_when_the_bag_is_short(impl):
    st = state(impl, temple_position(3, store="s/-", bag="-"))
    st = play(st, "c3^$s")                            # cost 1; the bag holds just that Spirit
    pos = st.to_position()
    assert pos.bag_spirit + pos.bag_energy == 0
    assert pos.storage_spirit[0] + pos.warrior_spirit[NAMES.index("c3")] == 1


# -- setup, rounds and scoring (section 9) ---------------------------------------------------

@pytest.mark.parametrize("seed", range(12))
def test_after_setup(impl, seed):
    pos = Maatatahay(impl=impl, seed=seed).new_initial_state().to_position()
    assert sum(pos.cell_spirit) + sum(pos.cell_energy) == 20
    assert all(pos.cell_spirit[c] + pos.cell_energy[c] == 1 for c in range(25)
               if c not in pos.temples)
    assert pos.bag_spirit + pos.bag_energy == 6
    assert pos.supply_energy == 30
    assert [pos.storage_spirit[p] + pos.storage_energy[p] for p in (0, 1)] == [2, 2]
    assert len(pos.pairs) == 3 and len(pos.deck) == 18


def round_starters(st, rng, policy) -> list[int]:
    """The active player of each round, playing the game out with ``policy``."""
    starters = {}
    while not st.is_terminal():
        pos = st.to_position()
        if pos.phase in (0, 1):                                    # pair or order choice
            unplaced = len(pos.deck) + 2 * len(pos.pairs) + 2 * (pos.chosen is not None)
            starters.setdefault((24 - unplaced) // 2, pos.active)
        st.play(policy(st, rng))
    assert sorted(starters) == list(range(len(starters)))
    return [starters[r] for r in sorted(starters)]


def temple_first(st, rng):
    """Take temples when possible and keep crystals for them, so games last all 12 rounds."""
    moves = st.legal_moves()
    temples = [m for m in moves if "$" in st.move_to_str(m)]
    if st.move_to_str(moves[0]).startswith("load:"):
        return min(moves, key=lambda m: sum(decode_two(move_payload(m))))
    return rng.choice(temples or moves)


def test_active_player_alternates_and_a_full_game_has_six_each(impl):
    full_games = 0
    for seed in range(8):
        st = Maatatahay(impl=impl, seed=seed).new_initial_state()
        starters = round_starters(st, random.Random(seed), temple_first)
        assert all(a != b for a, b in zip(starters, starters[1:]))
        if len(starters) == 12:
            full_games += 1
            assert starters.count(0) == starters.count(1) == 6
    assert full_games > 0


def terminal_with_relics(owners: str, options: str = "") -> str:
    """All five temples taken (by dead tiles, so no gems count) and nothing else on the board."""
    cells = ("a1", "b2", "c3", "d4", "e5")
    tiles = {"B": iter(["B1", "B2", "B3", "B4", "B5"]), "W": iter(["W1", "W2", "W3", "W4",
                                                                     "W5"])}
    board = {cell: f"{next(tiles[o])}x" for cell, o in zip(cells, owners)}
    surplus = owners.count("B") - owners.count("W")
    for cell in ("a5", "b5", "c5", "d5", "e4")[: abs(surplus)]:
        board[cell] = f"{next(tiles['W' if surplus > 0 else 'B'])}x"
    return build(board, temples="a1,b2,c3,d4,e5", relics=owners, pending="over",
                 options=options)


def test_relic_scoring_order(impl):
    st = state(impl, terminal_with_relics("BWWBB", "relic-scoring=order"))
    assert st.scores() == [10, 5]
    assert st.returns() == (1.0, -1.0)


def test_relic_scoring_progressive(impl):
    st = state(impl, terminal_with_relics("BWWBB"))
    assert st.scores() == [6, 3]


def test_tie_goes_to_the_latest_relic(impl):
    st = state(impl, terminal_with_relics("BWWB", "relic-scoring=order"))
    assert st.scores() == [5, 5]
    assert st.winner() == 0
    st = state(impl, terminal_with_relics("WBBW", "relic-scoring=order"))
    assert st.winner() == 1


# -- section 3: choosing ---------------------------------------------------------------------

def test_weaker_tile_chooses_the_order(impl):
    text = build({}, pairs="B1+W12,B12+W1,B4+W4", active="W")
    for pair, chooser in (("B1+W12", 0), ("B12+W1", 1), ("B4+W4", 1)):
        st = play(state(impl, text), pair)
        assert st.current_player() == chooser
        assert sorted(st.move_to_str(m) for m in st.legal_moves()) == ["first:B", "first:W"]


def test_chosen_first_player_places_first(impl):
    st = play(state(impl, build({}, pairs="B1+W12,B12+W1")), "B1+W12", "first:W")
    assert st.current_player() == 1
    assert st.position().endswith("pending=place:W12,B1")


def test_symmetric_arrow_patterns_are_one_move(impl):
    counts = {}
    for tile in ("B11", "B9", "B4"):
        st = state(impl, build({}, pending=f"place:{tile},W12", temples="a5,b5,c5,d5,e5"))
        counts[tile] = len(st.legal_moves())
    assert counts == {"B11": 20, "B9": 40, "B4": 80}


def test_storage_excess_must_be_loaded(impl):
    text = build({"e5": "W11^", "e1": "B11^"}, store="3s3e/-", pending="place:B12,W12",
                 temples="e4,a5,b5,c5,d5")
    st = play(state(impl, text), "a1^")
    loads = [decode_two(move_payload(m)) for m in st.legal_moves()]
    assert all(3 - s + 3 - e <= 4 for s, e in loads)
    assert (0, 0) not in loads and (2, 0) in loads and (0, 2) in loads and (3, 3) in loads
    assert len(loads) == 16 - 3


def test_storage_excess_may_go_back_to_the_bag_under_discard(impl):
    text = build({"e5": "W11^", "e1": "B11^"}, store="3s3e/-", pending="place:B12,W12",
                 temples="e4,a5,b5,c5,d5", options="storage-excess=discard")
    st = play(state(impl, text), "a1^")
    loads = [decode_two(move_payload(m)) for m in st.legal_moves()]
    assert len(loads) == 16 and (0, 0) in loads          # any load: the excess goes back next
    before = st.to_position()
    play(st, "load:-")
    assert sorted(st.move_to_str(m) for m in st.legal_moves()) == [
        "return:2e", "return:2s", "return:se"]
    assert state(impl, st.position()).position() == st.position()     # pending=return
    play(st, "return:se")
    pos = st.to_position()
    assert (pos.storage_spirit[0], pos.storage_energy[0]) == (2, 2)
    assert (pos.bag_spirit, pos.bag_energy) == (before.bag_spirit + 1, before.bag_energy + 1)
    assert cell_info(st, "a1")["spirit"] == cell_info(st, "a1")["energy"] - before.warrior_energy[0] == 0


def test_storage_excess_load_refuses_to_keep_more_than_four(impl):
    text = build({"e5": "W11^", "e1": "B11^"}, store="3s3e/-", pending="place:B12,W12",
                 temples="e4,a5,b5,c5,d5")
    st = play(state(impl, text), "a1^")
    with pytest.raises(IllegalMoveError):
        st.parse_move("load:-")
    with pytest.raises(IllegalMoveError):
        st.parse_move("return:se")


# -- abilities, fight order, Spirit ----------------------------------------------------------

def test_elder_bonus_is_live(impl):
    # B7 (Elder, 2) on b1; friends beside it raise it, and the bonus is recomputed each time.
    text = build({"b1": "B7^", "a1": "B4^", "e3": "W11^", "e4": "W12^"},
                 pending="place:B12,W1")
    st = state(impl, text)
    assert "3=2+0+1E" in st.render()
    play(st, "c1^")
    assert "4=2+0+2E" in st.render()


def test_convert_bonus_counts_diagonal_enemies(impl):
    text = build({"b2": "B10^", "a1": "W4^", "c3": "W5^", "a3": "B4^"},
                 pending="place:B12,W12")
    assert "5=3+0+2C" in state(impl, text).render()


def three_fights(impl, options: str = ""):
    """Wazu closes corner a1 with W5 (2) between Balan's B1 (1) on a2 and B4 (2) on b1: a1,
    a2 (also closed by W12 on a3 and B8 on b2) and b1 (also closed by B12 on c1) all fight.
    Balan is the active player."""
    board = {"a2": "B1^", "a3": "W12^", "b2": "B8^", "b1": "B4^", "c1": "B12^",
             "e4": "W9^", "e3": "W10^", "e2": "W11^"}
    text = build(board, pending="place:W5,B2", options=options)
    return play(state(impl, text), "a1^")


def alive(st, *cells: str) -> dict[str, bool]:
    return {c: cell_info(st, c)["alive"] for c in cells}


def test_several_fights_are_ordered_by_the_active_player_by_default(impl):
    # Balan is active (it chose the pair); Wazu just placed W5.
    st = three_fights(impl)
    assert st.to_position().active == 0
    assert st.current_player() == 0
    assert sorted(st.move_to_str(m) for m in st.legal_moves()) == [
        "fight:a1", "fight:a2", "fight:b1"]


def test_fight_order_placer_gives_the_choice_to_the_player_who_placed(impl):
    st = three_fights(impl, "fight-order=placer")
    assert st.current_player() == 1


@pytest.mark.parametrize("option,chooser,w5_survives", [
    ("", 0, False), ("fight-order=placer", 1, True)])
def test_fight_order_option_decides_a_death(impl, option, chooser, w5_survives):
    """Whoever orders the fights picks the order best for them (fewest own deaths, most
    enemy deaths); the two options give the choice to different players, and W5 on a1 lives
    or dies accordingly."""
    st = three_fights(impl, option)
    assert st.current_player() == chooser

    def margin(first: str) -> int:
        after = play(three_fights(impl, option), first)
        while after.current_player() == chooser and not after.is_terminal():
            after.play(after.legal_moves()[0])
        pos = after.to_position()
        return pos.deaths(1 - chooser) - pos.deaths(chooser)

    best = max(("fight:a1", "fight:a2", "fight:b1"), key=margin)
    after = play(three_fights(impl, option), best)
    while after.current_player() == chooser:
        after.play(after.legal_moves()[0])
    assert cell_info(after, "a1")["alive"] == w5_survives


def test_fight_order_changes_the_outcome(impl):
    # a2 first: B1 (1) < W5 (2) + W12 (4) dies; then W5 (2) holds against B4 (2) alone.
    st = play(three_fights(impl), "fight:a2", "fight:a1")
    assert alive(st, "a1", "a2", "b1") == {"a1": True, "a2": False, "b1": True}
    # a1 first: W5 (2) < B1 (1) + B4 (2) dies; then B1 (1) < W12 (4) dies too.
    st = play(three_fights(impl), "fight:a1", "fight:a2")
    assert alive(st, "a1", "a2", "b1") == {"a1": False, "a2": False, "b1": True}


def test_spirit_of_the_dead_is_removed_when_the_placed_warrior_dies(impl):
    # Balan places B1 (1) into a corner between W4 (2) and W5 (2) with Spirit loaded: it dies
    # and its Spirit leaves the game.
    text = build({"a2": "W4^", "b1": "W5^", "e5": "B11^", "e2": "B10^"}, store="s/-",
                 pending="place:B1,W12", temples="e4,a5,b5,c5,d5")
    removed = state(impl, text).to_position().removed_spirit
    st = play(state(impl, text), "a1^", "load:s")
    pos = st.to_position()
    assert not pos.alive[0]
    assert pos.removed_spirit == removed + 1


@pytest.mark.parametrize("option,on_w5,removed", [
    ("", 1, 0), ("dead-spirit=remove", 0, 1)])
def test_dead_spirit_moves_to_the_placed_warrior_or_leaves_the_game(impl, option, on_w5,
                                                                    removed):
    # Wazu's W5 (2) closes a1 beside B1 (1, carrying a Spirit) on a2, which W12 (4) on a3
    # and B8 on b2 also close: B1 fights 1 against 2 + 4 and dies. Its Spirit moves onto W5
    # (transfer) or leaves the game (remove); its Energy returns to the supply either way.
    board = {"a2": "B1^se", "a3": "W12^", "b2": "B8^", "e4": "W9^", "e3": "W10^",
             "b1": "W11^", "c4": "B11^", "e1": "B10^"}
    text = build(board, pending="place:W5,B2", options=option)
    st = state(impl, text)
    before = st.to_position()
    play(st, "a1^")
    if st.current_player() == 0 and not st.is_chance_node():     # the active player orders
        play(st, "fight:a2")
    pos = st.to_position()
    assert not cell_info(st, "a2")["alive"]
    assert cell_info(st, "a1")["alive"]
    assert cell_info(st, "a1")["spirit"] == on_w5
    assert pos.removed_spirit - before.removed_spirit == removed
    gift = cell_info(st, "a1")["energy"]                  # support W5 took from the supply
    assert pos.supply_energy == before.supply_energy - gift + 1


# -- end of the game (section 7) -------------------------------------------------------------

def deaths_position(balan_dead: int, wazu_dead: int, options: str = "") -> str:
    board = {}
    cells = iter(["a1", "b1", "c1", "d1", "e1", "a2", "b2", "c2", "d2", "e2", "a3", "b3"])
    for i in range(1, balan_dead + 1):
        board[next(cells)] = f"B{i}x"
    for i in range(1, wazu_dead + 1):
        board[next(cells)] = f"W{i}x"
    spare_b = [f"B{i}" for i in range(balan_dead + 1, 13)]
    spare_w = [f"W{i}" for i in range(wazu_dead + 1, 13)]
    extra = abs(balan_dead - wazu_dead)
    for _ in range(extra):
        tile = spare_w.pop() if balan_dead > wazu_dead else spare_b.pop()
        board[next(cells)] = f"{tile}^"
    return build(board, pending=f"place:{spare_b[0]},{spare_w[0]}", options=options)


@pytest.mark.parametrize("rule,balan_dead,wazu_dead,over", [
    ("either", 6, 0, True), ("either", 5, 5, False), ("either", 3, 3, False),
    ("total", 3, 3, True), ("total", 3, 2, False), ("total", 6, 0, True)])
def test_death_limit(impl, rule, balan_dead, wazu_dead, over):
    """Six dead in all end the game under the default ``total`` but not under ``either``."""
    text = deaths_position(balan_dead, wazu_dead, options=f"death-limit={rule}"
                           if rule != "total" else "")
    st = state(impl, text)
    while st.current_player() != CHANCE and not st.is_terminal():
        moves = [m for m in st.legal_moves() if "$" not in st.move_to_str(m)]
        st.play(moves[-1])
    assert st.is_terminal() == over


def play_round(st, temple_player: int | None = None):
    """Play to the end of the round: first outcomes at chance nodes, the first temple entry
    for ``temple_player``, otherwise the first move that is not a temple entry."""
    while not st.is_terminal() and st.to_position().phase not in (0, 6):   # pair, refill
        moves = st.legal_moves()
        temples = [m for m in moves if "$" in st.move_to_str(m)]
        if st.current_player() == temple_player and temples:
            st.play(temples[0])
        else:
            st.play(([m for m in moves if m not in temples] or moves)[0])
    return st


def full_board(tiles: int) -> dict[str, str]:
    """``tiles`` living warriors (alternating tribes) on the cells outside a5-e5."""
    cells = [n for n in NAMES if n not in ("a5", "b5", "c5", "d5", "e5")]
    names = [f"{t}{i}" for i in range(1, 10) for t in "BW"][:tiles]
    return {cell: f"{tile}^" for cell, tile in zip(cells, names)}


def test_game_ends_when_at_most_one_free_cell_remains(impl):
    # 18 warriors leave 2 free cells; Balan takes a temple, Wazu fills one cell: 1 is left.
    text = build(full_board(18), store="4s/-", pending="place:B10,W10")
    st = play_round(state(impl, text), temple_player=0)
    assert st.to_position().relics == [0]
    assert st.is_terminal()


def test_game_goes_on_with_two_free_cells(impl):
    text = build(full_board(16), pending="place:B10,W10", pairs="B11+W11")
    st = play_round(state(impl, text))
    assert not st.is_terminal()


# -- the setup as chance nodes (section 2) ---------------------------------------------------

def outcomes(st) -> dict[str, float]:
    return {st.move_to_str(m): p for m, p in st.chance_outcomes()}


def test_setup_layout_is_uniform_among_the_tilesets_layouts(impl):
    st = Maatatahay(impl=impl).setup_state()
    assert st.current_player() == CHANCE
    assert outcomes(st) == {f"layout:{name}": pytest.approx(1 / 4) for name in
                            ("diagonal", "partial-diagonal", "even", "chaos")}


def test_named_layout_skips_the_layout_draw(impl):
    st = Maatatahay({"layout": "diagonal"}, impl=impl).setup_state()
    assert st.to_position().temples == (0, 6, 12, 18, 24)
    assert outcomes(st) == {"crystal:b1s": 0.5, "crystal:b1e": 0.5}      # a1 is a temple


def test_setup_crystals_follow_the_bag(impl):
    st = Maatatahay({"layout": "diagonal"}, impl=impl).setup_state()
    play(st, "crystal:b1s", "crystal:c1s")
    assert outcomes(st) == {"crystal:d1s": pytest.approx(11 / 24),
                            "crystal:d1e": pytest.approx(13 / 24)}


def test_setup_ends_with_three_pairs_and_a_coin_toss(impl):
    st = Maatatahay({"layout": "diagonal"}, impl=impl).setup_state()
    rng = random.Random(4)
    while st.to_position().phase != 10:                             # until "reveal"
        st.play(rng.choice(st.legal_moves()))
    assert len(st.legal_moves()) == 144                             # 12 x 12 tiles
    play(st, "deal:B1+W2", "deal:B3+W4")
    assert len(st.legal_moves()) == 100
    play(st, "deal:B5+W6")
    assert outcomes(st) == {"toss:B": 0.5, "toss:W": 0.5}
    play(st, "toss:W")
    pos = st.to_position()
    assert (pos.phase, pos.active, pos.pairs) == (0, 1, [(0, 13), (2, 15), (4, 17)])
    assert sum(pos.cell_spirit) + sum(pos.cell_energy) == 20


def test_new_game_is_the_setup_played_with_the_seed(impl):
    first = Maatatahay(impl=impl, seed=21).new_initial_state().position()
    assert Maatatahay(impl=impl, seed=21).new_initial_state().position() == first
    assert Maatatahay(impl=impl, seed=22).new_initial_state().position() != first
    game = Maatatahay(impl=impl)
    game.new_initial_state()
    assert isinstance(game.seed, int)


# -- refused placements say why --------------------------------------------------------------

@pytest.mark.parametrize("move,reason", [
    ("b1^", "b1 already holds a tile"),
    ("a1v", "same arrows as facing ^"),                     # B9: arrows N and S
    ("a1^$s", "a1 is not a temple"),
    ("c3^$s", "costs 2 crystals"),                          # two friends beside c3
    ("c3^$2s", "pay with $se"),
])
def test_refused_placements_name_the_rule(impl, move, reason):
    text = build({"b1": "B1^", "c4": "B2^", "c2": "B3^", "e1": "W1^", "e2": "W2^",
                  "e4": "W3^"}, temples=TEMPLES, store="se/-", pending="place:B9,W12")
    st = state(impl, text)
    with pytest.raises(IllegalMoveError, match=re.escape(reason)):
        st.parse_move(move)


def test_temple_without_spirit_cannot_be_entered(impl):
    st = state(impl, temple_position(2, store="4e/-"))
    with pytest.raises(IllegalMoveError, match="cannot be entered now"):
        st.parse_move("c3^$2e")
