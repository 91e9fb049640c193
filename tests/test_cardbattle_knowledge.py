"""Determinizations from a player's whole record (engine/cardbattle/knowledge.py): every
world drawn is one the player's information state allows (a history giving them the very same
record), and from the history they differ from those of the bare view, which forgets what
earlier rounds showed."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from crystalpick.engine.cardbattle import CardBattle
from crystalpick.engine.cardbattle.knowledge import other_hand
from crystalpick.engine.cardbattle.moves import M_DRAW, M_PASS, M_PLAY, encode, kind_of
from crystalpick.engine.cardbattle.position import BOOST, CHOOSE, TIEBREAK
from crystalpick.engine.game import CHANCE, sample_chance

RULE_SETS = [None, {"no-creature": "forfeit"}, {"tie-card": "zero", "tie-boosts": "yes"},
             {"refill": "one"}, {"hand": "3", "refill": "none"},
             {"deck1": "arsenal", "deck2": "titas"}]


def decisions(rules, seed: int, count: int):
    """``count`` states at a decision along random games from the deal (each with its
    history), and the player whose record is read: the mover."""
    rng = random.Random(seed)
    game = CardBattle(rules, seed=seed)
    found = []
    while len(found) < count:
        state = game.new_initial_state()
        plies = rng.randrange(1, 200)
        for _ in range(plies):
            if state.is_terminal():
                break
            state.play(sample_chance(state, rng.random()) if state.is_chance_node()
                       else rng.choice(state.legal_moves()))
        if not state.is_terminal() and state.current_player() != CHANCE:
            found.append(state)
        game.seed += 1
    return found


def seen(state) -> list:
    """The position before each ply since ``state`` was made, and the one now."""
    return [state.origin] + [pos for _, pos in state.recorded_plies()]


def world_state(state, known, brought: dict, player: int):
    """The history that gives the world ``brought`` (the card each draw of ``known`` brought):
    the real moves with the other player's draws into hand replaced, their secret choice
    still unrevealed made from the world's hand, and their hidden boost decisions (a pass,
    §5) made wherever the world's hand asks for one."""
    game, q = state.game, 1 - player
    start = state.origin.copy()
    held = [brought[i] for i, draw in enumerate(known.draws) if draw.ply == -1]
    if held:
        seat = start.seats[q]
        pool = seat.hand + seat.deck
        seat.hand, seat.deck = sorted(held), sorted(c for c in pool if c not in held)
    by_ply = {draw.ply: brought[i] for i, draw in enumerate(known.draws) if draw.ply >= 0}
    moves = state.played_moves()
    real = seen(state)
    world = game._state(start)

    def asked_to_boost():
        pos = world.to_position()
        return pos.phase == BOOST and pos.actor == q and world.current_player() == q

    for ply, move in enumerate(moves):
        pos = real[ply]
        real_boost = pos.phase == BOOST and pos.actor == q
        while asked_to_boost() and not real_boost:
            world.play(encode(M_PASS))
        if real_boost and kind_of(move) == M_PASS and not asked_to_boost():
            continue
        if ply in by_ply:
            world.play(encode(M_DRAW, by_ply[ply]))
        elif (pos.actor == q and kind_of(move) == M_PLAY and real[-1].phase == CHOOSE
              and real[-1].round == pos.round):
            hand = world.to_position().seats[q].hand
            world.play(encode(M_PLAY, next(c for c in hand if game.cardset.card(c).is_creature)))
        else:
            world.play(move)
    while asked_to_boost() and not (real[-1].phase == BOOST and real[-1].actor == q):
        world.play(encode(M_PASS))
    return world


@pytest.mark.parametrize("rules", RULE_SETS)
def test_no_world_drawn_from_the_history_contradicts_the_information_state(rules):
    """Each world is a history after which the player's information state is the real
    one, and its other hand (a secret choice taken back) is the hand drawn."""
    rng = random.Random(1)
    for state in decisions(rules, 7, 15):
        player = state.current_player()
        known = other_hand(seen(state), state.played_moves(), state.game.cardset, player)
        assert known is not None
        record = state.information_state_string(player)
        for _ in range(3):
            world = next(filter(None, (known.world(rng) for _ in range(32))))
            hand, brought = world
            replayed = world_state(state, known, brought, player)
            assert replayed.information_state_string(player) == record
            pos = replayed.to_position()
            seat = pos.seats[1 - player]
            secret = {seat.chosen} if pos.phase == CHOOSE and seat.chosen else set()
            assert set(seat.hand) | secret == hand


def test_the_analysis_from_a_history_depends_only_on_the_information_state():
    """Two histories that give the player the same record (the real one and a world drawn
    from it) give the same analysis from the same seed: what the other player really holds
    is never read."""
    from crystalpick.search import Limits, analyse
    from crystalpick.search.engines import make_engine
    rng = random.Random(2)
    for number, state in enumerate(decisions(None, 12, 6)):
        player = state.current_player()
        known = other_hand(seen(state), state.played_moves(), state.game.cardset, player)
        _, brought = next(filter(None, (known.world(rng) for _ in range(32))))
        world = world_state(state, known, brought, player)
        results = [analyse(s, make_engine("ismcts", seed=number), Limits(simulations=200))
                   for s in (state, world)]
        assert [(line.move_str, line.probability, line.visits) for line in results[0].lines] \
            == [(line.move_str, line.probability, line.visits) for line in results[1].lines]
        assert results[0].strategy.knowledge == results[1].strategy.knowledge == "history"


def reshuffled_since(state, q: int):
    """The cards of ``q``'s last reshuffle (the discard pile that became their deck) and the
    draws into their hand since, read from the history; None without a reshuffle."""
    moves = state.played_moves()
    seen_ = seen(state)
    last = None
    for core in range(1, len(seen_)):
        before, after = seen_[core - 1].seats[q], seen_[core].seats[q]
        if len(after.deck) > len(before.deck) and after.hand:     # not a mulligan
            last = core
    if last is None:
        return None
    draws = sum(1 for ply in range(last, len(moves)) if seen_[ply].actor == q
                and kind_of(moves[ply]) == M_DRAW and seen_[ply].phase != TIEBREAK)
    return set(seen_[last].seats[q].deck), draws


def test_cards_back_in_the_deck_by_a_reshuffle_stay_out_of_the_hand_drawn_from_the_history():
    """After the other player's reshuffle, the cards that were revealed and discarded went
    back into their deck: only the draws since can have brought them into the hand. The
    bare view forgets it and puts more of them there; the history never does."""
    checked = 0
    for state in decisions(None, 3, 400):
        player = state.current_player()
        q = 1 - player
        found = reshuffled_since(state, q)
        hand_size = len(state.to_position().seats[q].hand)
        if found is None or found[1] >= hand_size - 1:
            continue
        back, draws = found
        knowing = state.knowing_kernel(player, 11)
        seen = sum(kind == "move" for kind, _ in state.information_state(player))
        assert knowing.knowledge == "history" and knowing.plies == seen
        from_history = [set(knowing.kernel.determinized(player, seed).to_position()
                            .seats[q].hand) for seed in range(200)]
        from_view = [set(state.determinization(player, seed).to_position().seats[q].hand)
                     for seed in range(200)]
        assert all(len(hand & back) <= draws for hand in from_history)
        assert any(len(hand & back) > draws for hand in from_view)
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def test_a_bare_view_and_a_state_without_moves_know_the_view_only():
    state = CardBattle(seed=5).new_initial_state()
    assert state.knowing_kernel(0, 1).knowledge == "view"
    view = state.game.parse_position(state.observation_string(0))
    knowing = view.knowing_kernel(0, 1)
    assert knowing.knowledge == "view" and knowing.plies == 0


# -- on the command line: analyse says what it knew ------------------------------------------

MOVES = "keep keep toss:P1 call:forca"
SCHEMA = json.loads((Path(__file__).parent.parent / "docs" / "analysis.schema.json").read_text())


def analyse(*args):
    from click.testing import CliRunner

    from crystalpick.cli.main import cli
    return CliRunner().invoke(cli, ["analyse", "cardbattle", *args], catch_exceptions=False)


def written_record(path, game, plies: int, seed: int):
    """A record file of ``plies`` random plies of ``game`` from its start."""
    from crystalpick.apps.match.records import Ply, format_record, new_record
    rng = random.Random(seed)
    state = game.new_initial_state()
    record = new_record(game, state, "random", "random", seed)
    for _ in range(plies):
        chance = state.is_chance_node()
        move = (sample_chance(state, rng.random()) if chance
                else rng.choice(state.legal_moves()))
        record.plies.append(Ply(state.move_to_str(move), chance))
        state.play(move)
    path.write_text(format_record(record), encoding="utf-8")
    return state


def test_analysis_from_the_history_says_so_in_json_and_text():
    import jsonschema
    document = json.loads(analyse("--seed", "3", "--moves", MOVES, "--sims", "100",
                                  "--json").output)
    jsonschema.validate(document, SCHEMA)
    assert document["point_of_view"] == "P1" and document["input"]["seat"] == "P1"
    assert (document["result"]["knowledge"], document["result"]["plies_seen"]) == ("history", 4)
    text = analyse("--seed", "3", "--moves", MOVES, "--sims", "100").output
    assert "from the history of P1 (4 plies seen)" in text


def test_a_bare_view_is_analysed_from_the_view_only_and_says_so():
    view = CardBattle(seed=3).state(None, MOVES).observation_string(0)
    document = json.loads(analyse(view, "--sims", "100", "--json").output)
    assert (document["result"]["knowledge"], document["result"]["plies_seen"]) == ("view", 0)
    assert "from P1's view only (earlier rounds unknown)" in analyse(view, "--sims", "100").output


def test_a_record_is_analysed_with_its_history(tmp_path):
    import jsonschema
    path = tmp_path / "game.pgn"
    state = written_record(path, CardBattle(seed=8), 30, 8)
    while state.current_player() == CHANCE or state.is_terminal():
        state.undo()
    ply = len(state.played_moves())
    document = json.loads(analyse("--record", str(path), "--ply", str(ply), "--sims", "100",
                                  "--json").output)
    jsonschema.validate(document, SCHEMA)
    assert document["input"]["record_ply"] == ply
    seen = sum(kind == "move" for kind, _ in state.information_state(state.current_player()))
    assert (document["result"]["knowledge"], document["result"]["plies_seen"]) == ("history", seen)
    assert document["point_of_view"] == state.to_move_name()


@pytest.mark.parametrize("case, fragment", [
    ("another game", "record 1 is a mattock game, not cardbattle"),
    ("illegal record", "record ply 3 'play:999'"),
    ("illegal moves", "move 5: illegal move 'play:999'"),
    ("past the end", "ply 300 is outside the record (0-6)"),     # the record, not 256, says
])
def test_bad_history_is_one_line_and_exit_2(tmp_path, case, fragment):
    from crystalpick.engine import get_game
    path = tmp_path / "game.pgn"
    if case == "another game":
        written_record(path, get_game("mattock"), 4, 1)
        args = ["--record", str(path)]
    elif case == "illegal record":
        written_record(path, CardBattle(seed=2), 6, 2)
        lines = path.read_text(encoding="utf-8").splitlines()
        at = next(i for i, line in enumerate(lines) if line.startswith("3. "))
        lines[at] = "3. play:999"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        args = ["--record", str(path)]
    elif case == "past the end":
        written_record(path, CardBattle(seed=2), 6, 2)
        args = ["--record", str(path), "--ply", "300"]
    else:
        args = ["--seed", "3", "--moves", MOVES + " play:999"]
    result = analyse(*args, "--sims", "50")
    assert result.exit_code == 2 and fragment in result.output, result.output
    assert len(result.output.strip().splitlines()) == 1


def test_annotate_searches_a_decision_with_the_records_history(tmp_path):
    """Each position of a card battle record is searched after the record's moves up to it,
    so the mover's search reads their whole record; a perfect-information game's alone."""
    from crystalpick.engine import get_game
    from crystalpick.apps.annotate import Plan
    from crystalpick.apps.match.records import parse_records
    for game, hidden in ((CardBattle(seed=8), True), (get_game("mattock"), False)):
        path = tmp_path / f"{game.name}.pgn"
        written_record(path, game, 12, 8)
        record = parse_records(path.read_text(encoding="utf-8"))[0]
        position, moves = Plan.of(record, 1).searched(10)
        searched = record.game().state(position, moves)
        assert len(moves) == (10 if hidden else 0)
        assert searched.position() == record.replay(10).position()
        if hidden:
            assert (searched.information_state_string(0)
                    == record.replay(10).information_state_string(0))


@pytest.mark.parametrize("name", ["cardbattle", "maatatahay", "mattock"])
def test_every_game_gives_a_knowing_kernel_of_its_position(name):
    """The contract: a fresh kernel of the state's position (not its own), resting on the
    view without moves; after moves on the history where the game hides something."""
    from crystalpick.engine import get_game
    from crystalpick.engine.registry import GAMES
    assert name in GAMES
    state = get_game(name, seed=1).new_initial_state()
    rng = random.Random(1)
    for moves in range(3):
        player = max(state.current_player(), 0)
        knowing = state.knowing_kernel(player, 5)
        assert knowing.kernel is not state.search_kernel()
        assert knowing.kernel.key == state.search_kernel().key
        hidden = state.game.capabilities.hidden_information
        assert knowing.knowledge == ("history" if moves and hidden else "view")
        state.play(sample_chance(state, rng.random()) if state.is_chance_node()
                   else rng.choice(state.legal_moves()))


@pytest.mark.parametrize("seed", [12, 31, 47])
def test_the_inferences_read_only_the_players_record(seed):
    """ISMCTS's inferences about the other hand (the playout policy's ``infer``) from two
    histories that give the player the same record are the same: a pass of theirs, which
    the player cannot tell from holding no usable boost (rules §5), infers nothing (it once
    ruled out their boost cards, reading a decision the player never saw)."""
    rng = random.Random(seed)
    for state in decisions(None, seed, 40):
        player = state.current_player()
        known = other_hand(seen(state), state.played_moves(), state.game.cardset, player)
        _, brought = next(filter(None, (known.world(rng) for _ in range(32))))
        world = world_state(state, known, brought, player)
        assert world.information_state_string(player) == state.information_state_string(player)
        inferred = [s.game.playout_policy().infer(s.search_kernel(), player)
                    for s in (state, world)]
        assert inferred[0] == inferred[1], state.information_state_string(player)
