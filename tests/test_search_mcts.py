"""MCTS: determinism per seed, tree reuse, the solver, chance nodes, root parallelism."""
import pytest

from crystalpick.engine import get_game
from crystalpick.engine.game import GameError
from crystalpick.search import Limits, MCTSEngine, analyse
from crystalpick.engine.evaluation import Evaluator, PlayoutPolicy
from crystalpick.search.mcts import MCTS
from crystalpick.search.score import WIN, Proven
from crystalpick.engine.testing.chance_nim import ChanceNim

from search_helpers import expectimax


def visits(result):
    return [(line.move, line.visits, line.score) for line in result.lines]


@pytest.mark.parametrize("playout", ["random", "heuristic"])
def test_same_seed_same_search(playout):
    state = get_game("mattock").state(None, "h5")
    runs = [analyse(state, MCTSEngine(seed=7, playout=playout), Limits(simulations=400),
                    multipv=5) for _ in range(2)]
    assert visits(runs[0]) == visits(runs[1])
    assert runs[0].nodes == runs[1].nodes and runs[0].seed == 7
    other = analyse(state, MCTSEngine(seed=8, playout=playout), Limits(simulations=400),
                    multipv=5)
    assert visits(other) != visits(runs[0])


def test_tree_reuse_keeps_the_subtree_of_the_played_moves():
    game = get_game("mattock")
    engine = MCTSEngine(seed=3)
    state = game.new_initial_state()
    first = analyse(state, engine, Limits(simulations=4000))
    assert first.tree_kept == 0
    state.play(first.best_move)
    state.play(state.legal_moves()[0])
    second = analyse(state, engine, Limits(simulations=100))
    # the reply was tried below the best move, so part of the tree survives
    assert 0 < second.tree_kept < first.tree_nodes
    unrelated = analyse(game.state(None, "b5"), engine, Limits(simulations=100))
    assert unrelated.tree_kept == 0


def test_solver_proves_an_immediate_win():
    state = ChanceNim().parse_position("3/0/0/0/8")
    result = analyse(state, MCTSEngine(seed=1), Limits(simulations=10000))
    assert result.proven and result.score.relative == Proven(WIN)
    assert result.score.text() == "proven win" and result.score.words() == "win"
    assert result.best_move_str == "take3"
    assert result.simulations < 10000          # stops once the root is proven


def test_chance_nodes_sample_by_probability_and_find_the_best_move():
    state = ChanceNim().parse_position("7/0/0/0/8")
    values = {}
    for move in state.legal_moves():
        child = state.clone()
        child.play(move)
        values[state.move_to_str(move)] = expectimax(child)
    result = analyse(state, MCTSEngine(seed=5), Limits(simulations=20000))
    assert result.best_move_str == max(values, key=values.get)


def test_few_chance_outcomes_are_visited_in_proportion():
    state = ChanceNim().parse_position("5/1/1/1/8")          # a chance node: 1/2, 1/3, 1/6
    tree = MCTS(state.search_kernel().clone(), Evaluator(), PlayoutPolicy(), seed=1)
    tree.run(600)
    visits = {move: count for move, count, _, _ in tree.root_children()}
    for outcome, probability in state.chance_outcomes():
        assert abs(visits[outcome] - probability * 600) <= 1


def test_root_parallelism_sums_the_workers_trees():
    state = get_game("mattock").state(None, "h5")
    result = analyse(state, MCTSEngine(seed=11, workers=2), Limits(simulations=600))
    assert result.workers == 2 and result.simulations == 1200
    assert result.best_move in state.legal_moves()
    assert sum(line.visits for line in result.lines[:1]) > 0


def test_prior_tries_the_move_the_evaluation_prefers_first():
    """With ``prior``, a new move starts at the evaluation's value of the position it leads
    to, so the first simulation goes down the evaluation's favourite (without a prior, the
    first child in generation order: a user's prior=0 also turns off Mattock's default
    minimax and widen, which need priors, but not a minimax the user asks for)."""
    game = get_game("mattock")
    state = game.new_initial_state()
    for pick in (5, 17, 3):                # a few plies in, away from the symmetric start
        state.play(state.legal_moves()[pick])
    evaluator = game.evaluator()

    def value_for_mover(move):         # the mover's score after the move
        child = state.clone()
        child.play(move)
        return evaluator.score_for(child, state.current_player())

    moves = state.legal_moves()
    best = max(value_for_mover(move) for move in moves)
    favourites = {move for move in moves if value_for_mover(move) == best}
    assert len(favourites) < len(moves)
    first = analyse(state, MCTSEngine(seed=1, prior=4), Limits(simulations=1))
    assert first.best_move in favourites
    plain = analyse(state, MCTSEngine(seed=1, prior=0), Limits(simulations=1))
    assert plain.best_move == moves[0]
    with pytest.raises(ValueError, match="minimax backs up the moves' priors"):
        MCTSEngine(seed=1, prior=0, minimax=0.5)


def test_prior_playout_scores_a_leaf_by_its_best_reply():
    """playout=prior: the first simulation expands the root; the second's result is the
    two-ply minimax of the evaluation below the move it tried (the opponent's best reply by
    its prior)."""
    import math
    game = get_game("mattock")
    state = game.new_initial_state()
    for pick in (5, 17, 3):
        state.play(state.legal_moves()[pick])
    evaluator, scale = game.evaluator(), 2 * game.evaluation_scale
    engine = MCTSEngine(seed=1, prior=1, playout="prior")
    first = analyse(state, engine, Limits(simulations=2))
    child = state.clone()
    child.play(first.best_move)
    replies = []
    for reply in child.legal_moves():
        grandchild = child.clone()
        grandchild.play(reply)
        replies.append(math.tanh(evaluator.score_for(grandchild, 0) / scale))
    best_for_opponent = min(replies) if child.current_player() == 1 else max(replies)
    [(move, visits, value, _)] = [entry for entry in engine.tree.root_children() if entry[1]]
    assert (move, visits) == (first.best_move, 1)
    assert value == pytest.approx(best_for_opponent, abs=1e-6)
    with pytest.raises(ValueError, match="needs prior > 0"):
        MCTSEngine(playout="prior", prior=0)
    maatatahay = get_game("maatatahay", seed=1).new_initial_state()   # its default prior is 0
    with pytest.raises(GameError, match="needs prior > 0"):
        analyse(maatatahay, MCTSEngine(playout="prior"), Limits(simulations=1))


def test_minimax_backups_replace_a_prior_by_the_value_below_it():
    """minimax=1, c=0: selection reads only the moves' stored values. The second simulation
    expands the favourite A and backs up A's best reply; the third goes to A again only if
    that two-ply value still beats every other move's one-ply prior."""
    import math
    game = get_game("mattock")
    state = game.new_initial_state()
    for pick in (5, 17, 3):
        state.play(state.legal_moves()[pick])
    evaluator, scale, mover = game.evaluator(), 2 * game.evaluation_scale, state.current_player()

    def value(position):                 # the mover's result by the evaluation, as the prior
        return math.tanh(evaluator.score_for(position, mover) / scale)

    def after(position, move):
        child = position.clone()
        child.play(move)
        return child

    priors = {move: value(after(state, move)) for move in state.legal_moves()}
    favourite = max(priors, key=priors.get)
    below = after(state, favourite)
    two_ply = min(value(after(below, reply)) for reply in below.legal_moves())
    runner_up = max(v for move, v in priors.items() if move != favourite)
    engine = MCTSEngine(seed=1, prior=1, minimax=1, c=0, playout="prior")
    analyse(state, engine, Limits(simulations=3))
    visited = {move: visits for move, visits, _, _ in engine.tree.root_children() if visits}
    if two_ply < runner_up:
        assert visited[favourite] == 1 and len(visited) == 2
    else:
        assert visited == {favourite: 2}


def test_widening_sorts_moves_by_prior_and_looks_only_at_the_first_few():
    """widen=W: the root's moves are in prior order, best for the mover first, and a
    simulation made after v visits chooses among the first 1 + W sqrt(v) of them only (with
    heavy exploration every one of those is tried, none after them)."""
    import math
    game = get_game("mattock")
    state = game.new_initial_state()
    for pick in (5, 17, 3):
        state.play(state.legal_moves()[pick])
    evaluator, mover = game.evaluator(), state.current_player()

    def prior(move):
        child = state.clone()
        child.play(move)
        return evaluator.score_for(child, mover)

    simulations, widen = 50, 1.5
    engine = MCTSEngine(seed=1, prior=1, minimax=0, widen=widen, c=10)
    analyse(state, engine, Limits(simulations=simulations))
    children = engine.tree.root_children()
    assert len(children) == len(state.legal_moves()) > 20
    priors = [prior(move) for move, _, _, _ in children]
    assert priors == sorted(priors, reverse=True)
    window = int(1 + widen * math.sqrt(simulations - 1))
    visited = [i for i, (_, visits, _, _) in enumerate(children) if visits]
    assert max(visited) < window and len(visited) >= window - 1
    with pytest.raises(ValueError, match="widen orders a node's moves by their priors"):
        MCTSEngine(widen=1, prior=0)
