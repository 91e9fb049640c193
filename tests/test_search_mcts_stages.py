"""MCTS over turns in stages (``decompose``, issue 32): a node chooses a stage (Mattock's dig)
by the statistics its moves share, then a move of it; the answer is still a whole move."""
import pytest

from crystalpick.engine import get_game
from crystalpick.engine.game import GameError
from crystalpick.engine.testing.chance_nim import ChanceNim
from crystalpick.search import Limits, MCTSEngine, analyse
from crystalpick.search.mcts import MCTS
from crystalpick.search.options import OptionError
from crystalpick.search.score import LOSS, WIN, Proven
from crystalpick.search.solve import Solver
from crystalpick.search.stop import StopFlag

from test_decompose import PROVEN_BOTH_WAYS


def midgame():
    state = get_game("mattock").new_initial_state()
    for pick in (5, 17, 3):                # a few plies in, away from the symmetric start
        state.play(state.legal_moves()[pick])
    return state


def lines(result):
    return [(line.move, line.visits, line.score, line.pv) for line in result.lines]


def staged(seed=1, **options):
    return MCTSEngine(seed=seed, decompose="on", **options)


def test_same_seed_same_search():
    state = midgame()
    runs = [analyse(state, staged(7), Limits(simulations=1500), multipv=5) for _ in range(2)]
    assert lines(runs[0]) == lines(runs[1]) and runs[0].nodes == runs[1].nodes
    other = analyse(state, staged(8), Limits(simulations=1500), multipv=5)
    assert lines(other) != lines(runs[0])


def test_a_stage_shares_its_moves_visits_and_the_answer_is_a_whole_move():
    """Every simulation passes one root move, so the moves' visits add up to the
    simulations; a stage's visits are its moves'; the best move is the most visited stage's
    most visited move, and its principal variation is a line of legal moves."""
    state = midgame()
    engine = staged(3)
    result = analyse(state, engine, Limits(simulations=3000), multipv=1000)
    children = engine.tree.root_children()
    assert sorted(move for move, *_ in children) == sorted(state.legal_moves())
    assert sum(visits for _, visits, _, _ in children) == result.simulations == 3000
    visits = {move: count for move, count, _, _ in children}
    shared = engine.tree.root_stage_visits()
    stages = state.search_kernel().turn_stages()
    assert len(stages) < len(visits)
    for _, moves in stages:
        total = sum(visits[move] for move in moves)
        assert all(shared.get(move, 0) == total for move in moves)
    best_stage = max(stages, key=lambda stage: shared.get(stage[1][0], 0))[1]
    assert result.best_move == max(best_stage, key=visits.get)
    assert {line.move for line in result.lines[:len(best_stage)]} == set(best_stage)
    walker = state.clone()
    assert len(result.pv) > 1
    for move in result.pv:
        assert move in walker.legal_moves()
        walker.play(move)


@pytest.mark.parametrize("position", PROVEN_BOTH_WAYS[3:])
def test_decomposed_mcts_proves_what_plain_mcts_and_dfpn_prove(position):
    """Endgames the solver settles: both trees prove the solver's value, and the best move
    decomposed MCTS proves is one the solver proves too."""
    game = get_game("mattock")
    state = game.parse_position(position)
    proof = Solver(game, 16).solve(state, nodes=2_000_000)
    assert proof.score is not None
    expected = Proven(WIN if proof.score.result > 0 else LOSS)
    for choice in ("off", "on"):
        result = analyse(state, MCTSEngine(seed=1, decompose=choice),
                         Limits(simulations=50_000))
        assert result.proven and result.score.relative == expected, choice
    child = state.clone()
    child.play(result.best_move)
    reply = Solver(game, 16).solve(child, nodes=2_000_000)
    assert reply.score is not None and reply.score.result == -proof.score.result


def test_a_set_stop_flag_and_the_node_limit_end_the_search():
    state = midgame()
    flag = StopFlag()
    flag.set()
    stopped = analyse(state, staged(), Limits(nodes=3_000_000), stop=flag)
    assert stopped.best_move in state.legal_moves() and stopped.simulations < 1024
    limited = analyse(state, staged(), Limits(nodes=20_000))
    # the same seed one simulation short stays below the limit: the search ended at the
    # first simulation that reached it
    shorter = analyse(state, staged(), Limits(simulations=limited.simulations - 1))
    assert shorter.nodes < 20_000 <= limited.nodes
    timed = analyse(state, staged(), Limits(time=0.2))
    assert timed.best_move in state.legal_moves() and timed.simulations > 0


def test_the_tree_is_kept_through_stage_nodes():
    game = get_game("mattock")
    engine = staged(3)
    state = midgame()
    first = analyse(state, engine, Limits(simulations=4000))
    state.play(first.best_move)
    state.play(first.pv[1])
    second = analyse(state, engine, Limits(simulations=100))
    assert 0 < second.tree_kept < first.tree_nodes
    assert analyse(game.state(None, "b5"), engine, Limits(simulations=100)).tree_kept == 0


@pytest.mark.parametrize("kernel_of", [
    lambda: get_game("maatatahay", seed=1).new_initial_state(),
    lambda: ChanceNim().parse_position("7/0/0/0/8")], ids=["maatatahay", "chance-nim"])
def test_a_game_without_stages_searches_the_same_tree(kernel_of):
    """Every move its own stage (the contract's default): a stage of one move is that
    move's node, so the decomposed tree is the plain one, simulation for simulation."""
    state = kernel_of()
    game = state.game
    trees = [MCTS(state.search_kernel().clone(), game.evaluator(), game.playout_policy(),
                  seed=5, decompose=decompose) for decompose in (False, True)]
    for tree in trees:
        tree.run(3000)
    plain, split = trees
    assert split.root_children() == plain.root_children()
    assert (split.node_count, split.made, split.max_tree_depth) == \
        (plain.node_count, plain.made, plain.max_tree_depth)


def test_decompose_is_an_engine_option_checked_against_the_game():
    with pytest.raises(OptionError, match="decompose"):
        MCTSEngine(decompose="often")
    maatatahay = get_game("maatatahay", seed=1).new_initial_state()
    with pytest.raises(GameError, match="no turns in stages: decompose=on"):
        analyse(maatatahay, staged(), Limits(simulations=10))
    assert analyse(maatatahay, MCTSEngine(seed=1, decompose="auto"),
                   Limits(simulations=10)).best_move in maatatahay.legal_moves()


def test_root_parallel_trees_sum_their_moves_and_stages():
    state = midgame()
    result = analyse(state, staged(11, workers=2), Limits(simulations=600), multipv=3)
    assert result.workers == 2 and result.simulations == 1200
    assert result.best_move in state.legal_moves() and result.lines[0].visits > 0
