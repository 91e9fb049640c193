"""The df-pn solver (search/dfpn.pyx, search/solve.py) against plain exhaustive minimax, against
alpha-beta's proofs, and its main lines played out by the rules."""
import json
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from crystalpick.cli.main import cli
from interrupt_cases import Case, run
from crystalpick.engine import GameError, get_game
from crystalpick.engine.game import TERMINAL
from crystalpick.positions import parse_suite, read_text
from crystalpick.search.score import LOSS, WIN, Proven
from crystalpick.search.solve import Solver
from crystalpick.solvers.solved import exact_value, load_solved

SCHEMA = json.loads((Path(__file__).parent.parent / "docs" / "solve.schema.json").read_text())
MINIMAX_NODE_CAP = 20_000


class TooLarge(Exception):
    pass


def minimax(state, memo, budget):
    """The reference: ``(result, plies)`` for the side to move by plain exhaustive search,
    the winner taking the shortest win and the loser the longest loss (memoised by Zobrist
    key, as positions repeat through transpositions)."""
    key = state.hash_key()
    if key in memo:
        return memo[key]
    budget[0] -= 1
    if budget[0] < 0:
        raise TooLarge
    mover = state.current_player()
    best = None
    for move in state.legal_moves():
        state.play(move)
        if state.current_player() == TERMINAL:
            child = (WIN if state.returns()[mover] > 0 else LOSS, 1)
        else:
            result, plies = minimax(state, memo, budget)
            same = state.current_player() == mover
            child = (result if same else -result, plies + 1)
        state.undo()
        if best is None or rank(child) > rank(best):
            best = child
    memo[key] = best
    return best


def rank(value):
    result, plies = value
    return (result, -plies if result == WIN else plies)


# Positions a few plies before the end of seeded random games (a search for ones whose
# whole tree the reference searches quickly); their values are computed here, by minimax.
ROOTS = ["2-2/oox-1-/--2--1/4-1--/2----2-/1-3-1-/--x-1-x/2---1/4- o",
         "3-1/1-o--1/--x4/6o-/2------1/1-2o3/--1-1-1/1--1--/-3x x"]
CHILDREN_PER_ROOT = 5


def small_positions():
    """The roots and some of their children (so wins and losses), with minimax values."""
    game = get_game("mattock")
    found = []
    for text in ROOTS:
        root = game.parse_position(text)
        found.append((text, minimax(root, {}, [MINIMAX_NODE_CAP])))
        for move in root.legal_moves()[:CHILDREN_PER_ROOT]:
            child = root.clone()
            child.play(move)
            if not child.is_terminal():
                found.append((child.position(), minimax(child, {}, [MINIMAX_NODE_CAP])))
    return found


SMALL = small_positions()


def check_line(state, line, result):
    """The main line is a legal game that ends in the claimed result for the side to move."""
    walker = state.clone()
    mover = walker.current_player()
    for move in line:
        assert move in walker.legal_moves()
        walker.play(move)
    assert walker.is_terminal()
    assert (walker.returns()[mover] > 0) == (result == WIN)


def test_the_small_positions_cover_wins_and_losses():
    assert {value[0] for _, value in SMALL} == {WIN, LOSS}
    assert max(value[1] for _, value in SMALL) >= 3


@pytest.mark.parametrize("position,value", SMALL, ids=[p for p, _ in SMALL])
def test_agrees_with_exhaustive_minimax(position, value):
    state = get_game("mattock").parse_position(position)
    solution = Solver(state.game, 4).solve(state, nodes=5_000_000)
    assert solution.score == Proven(*value)
    assert solution.exact
    check_line(state, solution.line, value[0])
    assert len(solution.line) <= value[1]


@pytest.mark.parametrize("position,value", SMALL[:6], ids=[p for p, _ in SMALL[:6]])
def test_agrees_without_evaluation_order_and_epsilon(position, value):
    state = get_game("mattock").parse_position(position)
    solution = Solver(state.game, 4, epsilon=0.0, evaluation_order=False).solve(
        state, nodes=5_000_000)
    assert solution.score == Proven(*value)


@pytest.mark.parametrize("position,value", SMALL, ids=[p for p, _ in SMALL])
def test_summed_numbers_prove_what_the_weak_rule_proves(position, value):
    """The weak rule (the default) only orders the search: summing the children's numbers
    proves the same exact values."""
    state = get_game("mattock").parse_position(position)
    solution = Solver(state.game, 4, weak=False).solve(state, nodes=5_000_000)
    assert solution.score == Proven(*value)
    assert solution.exact


def test_the_weak_rule_agrees_with_summed_numbers_on_the_endgame_suite():
    """Suite positions 6 plies out proven both with and without the weak rule have the same
    value, and its proof's main line plays out to that result."""
    game = get_game("mattock")
    both = 0
    for case in endgames(6)[:4]:
        state = game.parse_position(case.position)
        weak = Solver(game, 16).solve(state, nodes=2_000_000, exact=False)
        summed = Solver(game, 16, weak=False).solve(state, nodes=2_000_000, exact=False)
        if weak.score is None or summed.score is None:
            continue
        both += 1
        assert weak.score.result == summed.score.result, case.id
        check_line(state, weak.line, weak.score.result)
    assert both >= 2


@pytest.mark.parametrize("case", load_solved("mattock"), ids=lambda case: case.id)
def test_agrees_with_alphabeta_on_the_solved_positions(case):
    state = get_game("mattock").parse_position(case.position)
    solution = Solver(state.game, 16).solve(state, nodes=20_000_000)
    assert solution.score == Proven(WIN, case.wins)
    assert solution.line_str[0] in case.winning
    check_line(state, solution.line, WIN)
    wins = [row.move_str for row in solution.root_moves if row.status == "win"]
    assert wins and set(wins) <= set(case.winning)


def endgames(group):
    return [case for case in parse_suite(read_text("mattock.endgames"))
            if int(case.id.split("-")[2]) == group]


def test_the_endgame_suite_has_four_groups_of_distinct_legal_positions():
    """The issue asks for at least 200 positions; a repeated self-play game would count its
    positions twice."""
    cases = [case for group in (6, 10, 14, 18) for case in endgames(group)]
    for group in (6, 10, 14, 18):
        assert len(endgames(group)) >= 40
    assert len(cases) >= 200
    assert len({case.position for case in cases}) == len(cases)
    game = get_game("mattock")
    for case in cases:
        assert not game.parse_position(case.position).is_terminal(), case.id


@pytest.mark.slow
def test_endgame_proofs_play_out_and_agree_with_alphabeta():
    """On suite positions 6 plies before the end: every proof found within the budget plays
    out by the rules and agrees with alpha-beta wherever alpha-beta proves the position."""
    game = get_game("mattock")
    proven = 0
    for case in endgames(6)[:4]:
        state = game.parse_position(case.position)
        solution = Solver(game, 16).solve(state, nodes=3_000_000)
        if solution.score is None:
            continue
        proven += 1
        check_line(state, solution.line, solution.score.result)
        alphabeta = exact_value(state, 2_000_000)
        if alphabeta is not None:
            assert alphabeta.result == solution.score.result
            if solution.exact:
                assert alphabeta == solution.score
            else:
                assert alphabeta.plies <= len(solution.line)
    assert proven >= 1


def test_a_budget_below_the_shortest_win_is_disproven():
    position, (result, plies) = next((p, v) for p, v in SMALL if v[0] == WIN and v[1] >= 3)
    state = get_game("mattock").parse_position(position)
    searcher = Solver(state.game, 4).searcher
    searcher.set_kernel(state.search_kernel().clone())
    mover = state.current_player()
    assert searcher.prove(mover, plies - 1) == -1
    assert searcher.prove(mover, plies) == 1
    assert searcher.root_numbers[2] == plies
    assert searcher.prove(mover) == 1


def test_resume_keeps_the_table_and_refuses_another_rule_set(tmp_path):
    path = str(tmp_path / "table.bin")
    position, value = SMALL[0]
    game = get_game("mattock")
    state = game.parse_position(position)
    first = Solver(game, 4)
    solved = first.solve(state, save_path=path)
    again = Solver(game, 4)
    assert again.load(path) > 0
    resumed = again.solve(state)
    assert resumed.score == solved.score == Proven(*value)
    assert resumed.nodes < solved.nodes
    with pytest.raises(GameError, match="other rules"):
        Solver(get_game("mattock", {"removal": "literal"}), 4).load(path)


def test_a_stopped_solve_reports_the_first_moves_it_settled():
    state = get_game("mattock").new_initial_state()
    solution = Solver(state.game, 16).solve(state, nodes=300_000)
    assert solution.score is None and not solution.line
    assert len(solution.root_moves) == len(state.legal_moves())
    assert {row.status for row in solution.root_moves} <= {"win", "loss", "unknown"}


@pytest.mark.parametrize("game,what,command", [
    ("maatatahay", "chance", "chance"),
    # the command routes hidden information to the exact solver, which refuses the full game
    # as too large (tests/test_exact_solve_cli.py)
    ("cardbattle", "hidden information", "histories")])
def test_games_with_chance_or_hidden_information_are_refused(game, what, command):
    with pytest.raises(GameError, match=what):
        Solver(get_game(game))
    result = CliRunner().invoke(cli, ["solve", game])
    assert result.exit_code == 2 and command in result.output


def test_solve_command_json_follows_its_schema():
    position, value = SMALL[1]
    result = CliRunner().invoke(cli, ["solve", "mattock", position, "--json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.output)
    jsonschema.validate(document, SCHEMA)
    assert document["result"]["score"] == Proven(*value).document()
    assert document["result"]["main_line_plies"] == len(document["result"]["main_line"])


def test_solve_command_text_names_the_side_and_the_length():
    case = load_solved("mattock")[0]
    result = CliRunner().invoke(cli, ["solve", "mattock", "--", case.position])
    assert result.exit_code == 0, result.output
    assert f"to move: win in {case.wins} plies" in result.output
    assert "nodes/s" in result.output


def test_the_dfpn_engine_reports_a_proof_to_analyse_and_the_protocol():
    from crystalpick.apps.protocol import Session
    import io
    case = load_solved("mattock")[0]
    out = io.StringIO()
    session = Session("mattock", out)
    for command in ("setoption name engine value dfpn", f"position {case.position}",
                    "go nodes 5000000"):
        session.handle(command)
    session.wait_for_answers()
    lines = out.getvalue().splitlines()
    assert f"score win {case.wins} " in lines[-2]
    assert lines[-1].split()[1] in case.winning


def test_ctrl_c_prints_the_first_moves_and_exits_130(tmp_path):
    outcome = run(Case("solve", ["solve", "mattock", "--time", "60"], "solve", []), tmp_path)
    assert outcome.status == 130, outcome.stderr[-2000:]
    assert "first moves (36 in 12 classes by symmetry)" in outcome.stdout
    assert "interrupted" in outcome.stderr
