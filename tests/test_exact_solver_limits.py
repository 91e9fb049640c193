"""Issue 46: the exact solver within memory and a stop flag. A game whose tree cannot fit in
the memory given is refused in one line (before the build, or where the build passes what
fits), never a MemoryError; a MemoryError anywhere in a command is one line, exit 2; a stop
flag ends the solve: before any strategy with ``Stopped``, in CFR+ with its average so far."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from crystalpick.cli.common import deck_rules, parse_rules
from crystalpick.cli.main import cli
from crystalpick.engine import get_game
from crystalpick.search.stop import StopFlag
from crystalpick.solvers.exact import solver as exact
from crystalpick.solvers.exact.solver import BYTES_PER_NODE, Stopped, TooLarge, solve_exactly


from test_exact_solve_cli import PENNIES, PENNIES_POSITION


def small_game():
    """The matching-pennies card position (a tree of a few nodes)."""
    rules = ("deck-minimum=2", "target=2", "refill=none") + deck_rules(
        "cardbattle", (str(PENNIES / "p1.toml"), str(PENNIES / "p2.toml")))
    game = get_game("cardbattle", parse_rules(rules), tileset=str(PENNIES / "cards.toml"))
    return game.state(PENNIES_POSITION)


def test_a_game_whose_smallest_tree_does_not_fit_is_refused_before_the_build():
    state = get_game("cardbattle").small_configuration("boost-3").setup_state()
    with pytest.raises(TooLarge, match="MB of memory available hold"):
        solve_exactly(state, memory=BYTES_PER_NODE)


def test_the_build_stops_where_the_memory_given_runs_out():
    state = small_game()
    assert exact.estimate_histories(state) / exact.MOST_MERGED < 1   # passes the check
    with pytest.raises(TooLarge, match="passed 1 nodes, what the"):
        solve_exactly(state, memory=BYTES_PER_NODE)


def test_a_stop_before_any_strategy_is_stopped_with_how_far_it_came():
    flag = StopFlag()
    flag.set()
    with pytest.raises(Stopped) as stopped:
        solve_exactly(small_game(), stop=flag)
    assert stopped.value.phase == "building the tree" and stopped.value.histories > 1


def test_cfr_stopped_is_its_average_so_far_with_exact_bounds():
    flag = StopFlag()

    def progress(text):
        if text.endswith("solving"):          # the tree is built: stop CFR+ now
            flag.set()
    solution = solve_exactly(small_game(), method="cfr", target=1e-9, stop=flag,
                             progress=progress)
    assert solution.interrupted and solution.method == "CFR+ (0 iterations)"
    assert solution.lower <= solution.value <= solution.upper
    assert solution.exploitability >= 0


def test_a_memory_error_in_a_command_is_one_line_with_status_2(monkeypatch):
    def exhausted(*args, **kwargs):
        raise MemoryError
    monkeypatch.setattr("crystalpick.cli.exact_solving.solve_exactly", exhausted)
    result = CliRunner().invoke(cli, ["solve", "cardbattle", "--config", "open-3"])
    assert result.exit_code == 2, result.output
    assert result.stderr.strip().splitlines() == [result.stderr.strip()]
    assert result.stderr.startswith("Error: out of memory")
