"""Each game's search knowledge (engine/<game>/evaluation.pyx, playout.pyx): bounded,
side-to-move relative evaluations, paired with their own kernel only, and Mattock's sampler
drawing exactly the legal turns, uniformly, through the kernel's own counter and decoder."""
import random
from collections import Counter

import pytest

from crystalpick.engine import get_game
from crystalpick.engine.evaluation import Evaluator, PlayoutPolicy
from crystalpick.engine.mattock.evaluation import MattockEvaluator
from crystalpick.engine.mattock.notation import decode_move
from crystalpick.engine.mattock.playout import MattockPlayout
from crystalpick.engine.game import sample_chance


def random_positions(count, seed):
    game, rng, out = get_game("mattock"), random.Random(seed), []
    while len(out) < count:
        state = game.new_initial_state()
        while not state.is_terminal():
            out.append(state.clone())
            state.play(rng.choice(state.legal_moves()))
        out.append(state)
    return out


POSITIONS = random_positions(300, seed=9)


def test_bounded():
    hook = MattockEvaluator()
    for state in POSITIONS:
        if not state.is_terminal():
            assert -1000 <= hook.score(state) <= 1000


def test_turn_decoder_lists_exactly_the_generated_turns_of_each_cell():
    """turn_at(c, i) over i < the cell's count is a bijection onto the generator's turns
    mining c, and the counted cells are the mine cells."""
    for state in POSITIONS[::5]:
        generated = state.legal_moves()
        by_cell = state.kernel.turns_by_cell()
        assert list(by_cell) == state.mine_cells()
        decoded = [move for turns in by_cell.values() for move in turns]
        assert sorted(decoded) == sorted(generated)
        assert len(set(decoded)) == len(decoded)
        assert all(decode_move(move)[0] == cell for cell, turns in by_cell.items()
                   for move in turns)


def test_scores_after_a_move_equal_those_of_the_same_position_built_afresh():
    """The kernel derives the mover's groups after a move from those before it and keeps
    labels across make/unmake by position id; a fresh kernel of the same position labels
    from nothing. Every sampled child, and the parent again after undo, must score alike."""
    game, hook, rng, checked = get_game("mattock"), MattockEvaluator(), random.Random(5), 0
    for state in POSITIONS[::2]:
        if state.is_terminal():
            continue
        state = state.clone()
        before = hook.score(state)
        moves = state.legal_moves()
        for move in rng.sample(moves, min(6, len(moves))):
            state.play(move)
            if not state.is_terminal():
                assert hook.score(state) == hook.score(game.parse_position(state.position()))
                checked += 1
            state.undo()
            assert hook.score(state) == before
    assert checked > 500


def test_start_favours_neither_side_beyond_the_tempo_term():
    """The start maps onto itself with colours swapped (rules section 2)."""
    start = get_game("mattock").new_initial_state()
    assert MattockEvaluator().score(start) == 10


def test_scores_are_relative_to_the_side_to_move():
    """Same board, other side to move: the terms flip sign, the tempo bonus stays."""
    game, hook, checked = get_game("mattock"), MattockEvaluator(), 0
    for state in POSITIONS[::7]:
        board, side = state.position().rsplit(" ", 1)
        other = game.parse_position(f"{board} {'o' if side == 'x' else 'x'}")
        if state.is_terminal() or other.is_terminal():
            continue
        a, b = hook.score(state), hook.score(other)
        if max(abs(a), abs(b)) < 1000:
            assert a + b == pytest.approx(20)
            checked += 1
    assert checked > 10


def test_score_for_either_player_is_the_score_or_its_negation():
    hook = MattockEvaluator()
    for state in POSITIONS[::7]:
        if state.is_terminal():
            continue
        player = state.current_player()
        assert hook.score_for(state, player) == hook.score(state)
        assert hook.score_for(state, 1 - player) == -hook.score(state)


@pytest.mark.parametrize("index", [5, 40, 120, 250])
def test_sampler_draws_legal_turns_uniformly(index):
    state = POSITIONS[index]
    if state.is_terminal():
        assert MattockPlayout().sample(state, 1) == -2
        return
    legal = state.legal_moves()
    draws = Counter(MattockPlayout().sample(state, seed) for seed in range(40 * len(legal)))
    assert set(draws) <= set(legal)
    # chi-square against uniform, 40 expected per turn; generous bound so it fails only on bias
    chi2 = sum((draws[m] - 40) ** 2 / 40 for m in legal)
    assert chi2 < len(legal) + 6 * (2 * len(legal)) ** 0.5


def test_sampler_is_absent_by_default():
    assert PlayoutPolicy().sample(get_game("mattock").new_initial_state(), 1) == -3


def test_each_game_hands_out_its_own_knowledge():
    mattock = get_game("mattock")
    assert type(mattock.evaluator()) is MattockEvaluator
    assert type(mattock.playout_policy()) is MattockPlayout
    assert type(get_game("maatatahay").playout_policy()) is PlayoutPolicy


@pytest.mark.parametrize("reader", [MattockEvaluator, MattockPlayout])
def test_a_reader_refuses_another_games_kernel(reader):
    from crystalpick.search.alphabeta import AlphaBeta
    from crystalpick.search.mcts import MCTS
    foreign = get_game("maatatahay").new_initial_state().search_kernel().clone()
    with pytest.raises(TypeError, match="reads Kernel kernels"):
        reader().check(foreign)
    if reader is MattockEvaluator:
        with pytest.raises(TypeError):
            AlphaBeta(foreign, reader())
        own = get_game("mattock").new_initial_state().search_kernel().clone()
        searcher = AlphaBeta(own, reader())
        with pytest.raises(TypeError):
            searcher.set_kernel(foreign)
    else:
        with pytest.raises(TypeError):
            MCTS(foreign, Evaluator(), reader())
        own = get_game("mattock").new_initial_state().search_kernel().clone()
        tree = MCTS(own, Evaluator(), reader())
        with pytest.raises(TypeError):
            tree.reuse(foreign)


def test_the_default_knowledge_reads_any_kernel():
    kernel = get_game("maatatahay").new_initial_state().search_kernel()
    Evaluator().check(kernel)
    PlayoutPolicy().check(kernel)


# -- Maatatahay ---------------------------------------------------------------------------------

from crystalpick.engine.maatatahay import Maatatahay                                    # noqa: E402
from crystalpick.engine.maatatahay.board import NAMES, SIDE                             # noqa: E402
from crystalpick.engine.maatatahay.notation import format_position                      # noqa: E402
from crystalpick.engine.maatatahay.evaluation import MaatatahayEvaluator                      # noqa: E402
from test_maatatahay_support import TILESET, build                          # noqa: E402

MAAT = Maatatahay()
TERMS = ("points", "safety", "stored", "relics", "remaining", "tempo")
W = MaatatahayEvaluator().weights                                 # the documented weights
LATE = {"points": "points_late", "safety": "safety_late", "stored": "stored_late",
        "relics": "relic_late", "remaining": "remaining_late", "tempo": "tempo_late"}
NO_LATE = {late: 0 for late in LATE.values()}


def maatatahay_positions(count, seed, rules=None):
    """Decision nodes of seeded random games (chance by its probabilities)."""
    rng, out, game_seed = random.Random(seed), [], seed
    while len(out) < count:
        state = Maatatahay(rules, seed=game_seed).new_initial_state()
        game_seed += 1
        while not state.is_terminal():
            if state.current_player() < 0:
                state.play(sample_chance(state, rng.random()))
                continue
            out.append(state.clone())
            state.play(rng.choice(state.legal_moves()))
    return out


MAAT_POSITIONS = maatatahay_positions(400, seed=4)


def mirrored(state):
    """The same position with the tribes swapped: the board reflected left-right, Balan tile n
    <-> Wazu tile n (the default tileset's mirror), every per-player fact exchanged."""
    pos = state.to_position().copy()
    tiles = TILESET.tiles
    twin = {t: TILESET.index[("W" if tile.id[0] == "B" else "B") + tile.id[1:]]
            for t, tile in enumerate(tiles)}

    def cell(c):
        return (c // SIDE) * SIDE + (SIDE - 1 - c % SIDE)

    def per_cell(values):
        return [values[cell(c)] for c in range(len(values))]

    pos.tile = [twin[t] if t >= 0 else t for t in per_cell(pos.tile)]
    pos.rotation = [(4 - r) % 4 for r in per_cell(pos.rotation)]
    for name in ("alive", "warrior_spirit", "warrior_energy", "cell_spirit", "cell_energy"):
        setattr(pos, name, per_cell(getattr(pos, name)))
    pos.temples = tuple(sorted(cell(c) for c in pos.temples))
    pos.storage_spirit = pos.storage_spirit[::-1]
    pos.storage_energy = pos.storage_energy[::-1]
    pos.relics = [1 - owner for owner in pos.relics]
    pos.deck = sorted(twin[t] for t in pos.deck)
    pos.pairs = [(twin[w], twin[b]) for b, w in pos.pairs]
    pos.active = 1 - pos.active
    if pos.chosen is not None:
        pos.chosen = (twin[pos.chosen[1]], twin[pos.chosen[0]])
    pos.queue = [twin[t] for t in pos.queue]
    pos.placed = cell(pos.placed) if pos.placed >= 0 else pos.placed
    pos.fighters = sorted(cell(c) for c in pos.fighters)
    return MAAT.parse_position(format_position(pos))


def test_default_tileset_mirrors_the_tribes():
    """What ``mirrored`` relies on (and the docs promise): Wazu n is Balan n reflected."""
    reflect = [0, 7, 6, 5, 4, 3, 2, 1]           # direction d -> its left-right mirror
    for tile in TILESET.tiles:
        if tile.id[0] != "B":
            continue
        other = TILESET.tiles[TILESET.index["W" + tile.id[1:]]]
        assert (other.strength, other.gems, other.ability) == (tile.strength, tile.gems,
                                                                tile.ability)
        arrows = tile.arrows_at(0)
        assert list(other.arrows_at(0)) == [arrows[reflect[d]] for d in range(8)]


def test_maatatahay_evaluation_is_bounded_and_its_terms_sum_for_the_mover():
    hook, early = MaatatahayEvaluator(), MaatatahayEvaluator(**NO_LATE)
    checked = 0
    for state in MAAT_POSITIONS:
        player = state.current_player()
        score = hook.score(state)
        assert -1000 <= score <= 1000
        terms = hook.terms(state)
        mine = sum(terms[name][player] for name in TERMS)
        theirs = sum(terms[name][1 - player] for name in TERMS)
        assert score == pytest.approx(max(-1000, min(1000, mine - theirs)))
        # the terms the kernel counts directly
        points, pos, terms = state.kernel.scores(), state.to_position(), early.terms(state)
        assert terms["points"] == (W["points"] * points[0], W["points"] * points[1])
        assert terms["stored"] == tuple(W["stored_spirit"] * pos.storage_spirit[p]
                                        + W["stored_energy"] * pos.storage_energy[p]
                                        for p in (0, 1))
        assert all(terms["safety"][p] <= 0 <= terms["relics"][p] for p in (0, 1))
        checked += mine != theirs
    assert checked > 100


@pytest.mark.parametrize("limit", ["total", "either"])
def test_maatatahay_terms_fade_towards_the_death_limit(limit):
    """Each term is scaled by 1 - its late weight x progress, progress being the share of the
    death limit used up: the deaths in total, or the larger tribe's, out of 6."""
    lates = {late: 0.1 * (k + 1) for k, late in enumerate(LATE.values())}
    hook, early = MaatatahayEvaluator(**lates), MaatatahayEvaluator(**NO_LATE)
    faded = 0
    for state in maatatahay_positions(150, seed=6, rules={"death-limit": limit}):
        deaths = state.kernel.deaths()
        progress = (sum(deaths) if limit == "total" else max(deaths)) / 6
        terms, plain = hook.terms(state), early.terms(state)
        for name, late in LATE.items():
            assert terms[name] == pytest.approx(
                tuple(v * (1 - lates[late] * progress) for v in plain[name]))
        faded += progress > 0 and terms != plain
    assert faded > 20


def test_maatatahay_evaluation_is_relative_to_the_side_to_move():
    """From the other player's point of view the same position scores the negation."""
    hook = MaatatahayEvaluator()
    for state in MAAT_POSITIONS[::5]:
        player = state.current_player()
        assert hook.score_for(state, player) == hook.score(state)
        assert hook.score_for(state, 1 - player) == pytest.approx(-hook.score(state))


def test_maatatahay_evaluation_scores_chance_nodes_for_either_player():
    """Alpha-beta scores a draw beyond its horizon by the evaluation, not as even."""
    hook, rng, scored = MaatatahayEvaluator(), random.Random(9), 0
    for state in MAAT_POSITIONS[::10]:
        state = state.clone()
        while not state.is_terminal() and not state.is_chance_node():
            state.play(rng.choice(state.legal_moves()))
        if state.is_terminal():
            continue
        first, second = hook.score_for(state, 0), hook.score_for(state, 1)
        assert first == pytest.approx(-second)
        assert abs(first) <= 1000
        scored += first != 0
    assert scored > 10


def test_maatatahay_evaluation_is_symmetric_between_the_tribes():
    """Swapping the tribes (and reflecting the board) changes nothing for the side to move,
    and the other tribe's view is the negation."""
    hook, checked = MaatatahayEvaluator(), 0
    for state in MAAT_POSITIONS[::4]:
        twin = mirrored(state)
        assert twin.current_player() == 1 - state.current_player()
        assert hook.score(twin) == pytest.approx(hook.score(state))
        assert hook.score_for(twin, 0) == pytest.approx(hook.score_for(state, 1))
        terms, twin_terms = hook.terms(state), hook.terms(twin)
        for name in TERMS:
            assert twin_terms[name] == pytest.approx(terms[name][::-1])
        checked += hook.score(state) != 0
    assert checked > 50


def test_maatatahay_bound_holds_with_heavy_weights():
    hook = MaatatahayEvaluator(points=400, safety=400)
    scores = [hook.score(state) for state in MAAT_POSITIONS[::3]]
    assert min(scores) >= -1000 and max(scores) <= 1000
    assert max(abs(s) for s in scores) == 1000


def test_maatatahay_unknown_weight_is_refused():
    with pytest.raises(TypeError, match="unknown weight 'safty'"):
        MaatatahayEvaluator(safty=1)


def maat(board, **fields):
    return MAAT.parse_position(build(board, **fields))


# B1: strength 1, 2 gems. W4/W5: strength 2. Wazu places W5 next: a2 is B1's last open side.
THREAT = {"a1": "B1^", "b1": "W4^"}
CALM = {"a1": "B1^", "c3": "W4^"}


def test_warrior_about_to_be_surrounded_scores_worse_for_its_owner():
    hook = MaatatahayEvaluator()
    threatened = maat(THREAT, pending="place:W5,B2")
    calm = maat(CALM, pending="place:W5,B2")
    assert threatened.current_player() == calm.current_player() == 1
    assert hook.terms(threatened)["safety"][0] < hook.terms(calm)["safety"][0]
    assert hook.terms(threatened)["points"] == hook.terms(calm)["points"]
    assert hook.score_for(threatened, 0) < hook.score_for(calm, 0)
    assert hook.score(threatened) > hook.score(calm)                # Wazu, to move, likes it
    # and the search agrees: closing a2 kills B1 (1 < 2 + 2)
    threatened.play(threatened.parse_move("a2^"))
    assert not threatened.to_position().alive[NAMES.index("a1")]


def test_the_threat_is_worse_when_the_enemy_places_next():
    hook = MaatatahayEvaluator()
    enemy_next = maat(THREAT, pending="place:W5,B2")
    owner_next = maat(THREAT, pending="place:B2,W5")
    assert hook.terms(enemy_next)["safety"][0] < hook.terms(owner_next)["safety"][0] < 0


def test_a_warrior_strong_enough_for_any_closer_is_safe():
    """Strength against the enemies beside it and what the enemy can still bring: B11 (4) with
    3 Energy holds a1 against W4 (2) plus the strongest Wazu tile left (4) with support."""
    hook = MaatatahayEvaluator()
    weak = maat({"a1": "B11^", "b1": "W4^"}, pending="place:W5,B2")
    strong = maat({"a1": "B11^3e", "b1": "W4^"}, pending="place:W5,B2")
    assert hook.terms(weak)["safety"][0] < 0
    assert hook.terms(strong)["safety"][0] == 0


def test_a_pending_fight_that_will_be_lost_costs_the_warrior():
    """Before the load decides it, B1 placed in a corner between W4 and W5 is as good as dead
    (a fight step follows the load; the load cannot save it without Energy in storage)."""
    hook = MaatatahayEvaluator()
    text = build({"a2": "W4^", "b1": "W5^", "e5": "B11^", "e2": "B10^"}, store="s/-",
                 pending="place:B1,W12", temples="e4,a5,b5,c5,d5")
    state = MAAT.parse_position(text)
    before = hook.terms(state)["safety"][0]
    state.play(state.parse_move("a1^"))               # Balan now chooses the load
    assert state.current_player() == 0
    after = hook.terms(state)["safety"][0]
    stake = 2 + 1                                     # B1's gems and the death
    assert after == pytest.approx(before - W["safety"] * stake)


def test_relic_prospects_follow_the_means_to_pay():
    """A temple costs 4 crystals with a Spirit among them, less next to friendly warriors."""
    hook = MaatatahayEvaluator()

    def relics(store, board=None):
        board = board or {"e1": "B12^", "a3": "W12^"}
        return hook.terms(maat(board, store=store, pending="place:B2,W5",
                               temples="a1,b2,c3,d4,e5"))["relics"][0]

    relic = W["relic"]
    assert relics("s3e/-") == relic * 1                  # affordable: the first relic, 1 point
    assert relics("4e/-") == pytest.approx(relic * 0.25)  # no Spirit to enter with
    assert relics("se/-") == pytest.approx(relic * 0.5)   # half the cost in hand
    # two friends beside c3 bring its cost down to 2: the same crystals now suffice
    assert relics("se/-", {"b3": "B12^", "d3": "B11^", "a3": "W12^", "e1": "W11^"}) == relic
    assert relics("-/-") == 0


def test_relic_prospects_use_the_relic_scoring_option():
    hook = MaatatahayEvaluator()
    board = {"a5": "B12^", "b5": "W12^", "e1": "B11^", "a1": "W11^"}
    progressive = maat(board, store="s3e/s3e", relics="BW", pending="place:B2,W5")
    order = maat(board, store="s3e/s3e", relics="BW", pending="place:B2,W5",
                 options="relic-scoring=order")
    relic = W["relic"]
    assert hook.terms(progressive)["relics"] == (relic * 2, relic * 2)   # each one's 2nd relic
    assert hook.terms(order)["relics"] == (relic * 3, relic * 3)         # the game's 3rd


def test_remaining_tiles_count_the_gems_still_to_place():
    """Balan has placed both 2-gem tiles B1, B2; Wazu its 0-gem W11, W12: Wazu's later
    placements can still bring in more gems."""
    hook = MaatatahayEvaluator()
    state = maat({"a1": "B1^", "b2": "B2^", "d3": "W11^", "e1": "W12^"}, pending="pair",
                 pairs="B3+W3,B4+W4,B5+W5")
    remaining = hook.terms(state)["remaining"]
    gems_left = [sum(t.gems for t in TILESET.tiles if t.id[0] == tribe
                     and t.id not in ("B1", "B2", "W11", "W12")) for tribe in "BW"]
    free = 25 - 5 - 4 - 1                             # no tile, no temple; the game ends at 1
    share = min(1.0, free / 2 / 10)
    assert remaining == pytest.approx(tuple(W["remaining"] * g * share for g in gems_left))
    assert remaining[1] > remaining[0]


def test_remaining_tiles_follow_the_loaded_tileset(tmp_path):
    """Gems are component data: a tileset with richer Balan tiles raises Balan's prospects."""
    import json
    from test_maatatahay_tileset import broken
    data = broken(lambda d: d["tiles"][2].update(gems=5))          # B3: 1 -> 5 gems
    path = tmp_path / "rich.json"
    path.write_text(json.dumps(data))
    text = build({"e1": "B12^", "a3": "W12^"}, pending="place:B2,W5")
    plain = MaatatahayEvaluator().terms(MAAT.parse_position(text))["remaining"]
    rich = MaatatahayEvaluator().terms(
        Maatatahay(tileset=str(path)).parse_position(text))["remaining"]
    assert rich[1] == plain[1] and rich[0] > plain[0]


def test_tempo_the_player_still_to_place_collects_the_richest_cell():
    hook = MaatatahayEvaluator()
    board = {"c3": "3s", "d3": "e", "a1": "B12^", "a3": "W12^"}
    both = maat(board, pending="place:B2,W5")
    # Balan first, Wazu the next best
    assert hook.terms(both)["tempo"] == (W["cell_spirit"] * 3, W["cell_energy"] * 1)
    state = maat(board, pending="place:B2,W5")
    state.play(state.parse_move("e1^"))                  # Balan took an empty cell
    assert state.current_player() == 1
    assert hook.terms(state)["tempo"] == (0, W["cell_spirit"] * 3)
