"""``crystalpick play`` driven through its standard input."""
import re

from click.testing import CliRunner

from crystalpick.cli.main import cli
from crystalpick.cli.play import TerminalGame
from crystalpick.engine import get_game
from crystalpick.apps.match.records import parse_records


def play(stdin, *args):
    return CliRunner().invoke(cli, ["play", "mattock", "--engine", "alphabeta:depth=1",
                                    "--seed", "1", *args], input=stdin)


def test_bad_input_reprompts_then_moves_and_engine_answers():
    result = play("zz\ne5\nh5\nquit\n")
    assert result.exit_code == 0, result.output
    assert "malformed move 'zz'" in result.output
    assert "illegal move 'e5'" in result.output
    assert "second plays " in result.output and "for second)" in result.output
    assert re.search(r"second plays \S+ \([+-][\d.]+ Mattock points for second\)",
                     result.output)           # the evaluation names its unit
    assert "Traceback" not in result.output


def test_undo_returns_to_the_humans_turn_and_save_writes_a_record(tmp_path):
    path = tmp_path / "game.rec"
    result = play(f"h5\nundo\nc5\nview\nsave {path}\nquit\n")
    assert result.exit_code == 0, result.output
    record, = parse_records(path.read_text())
    assert record.plies[0].move == "c5" and len(record.plies) == 2
    assert record.tags["First"] == "human" and record.result == "*"
    assert record.replay().position() in result.output


def test_moves_hint_and_help():
    result = play("moves\nhint\nhelp\nquit\n")
    assert "h5/h4-h5" in result.output and "hint: " in result.output
    assert "commands:" in result.output


def test_engines_play_a_whole_game_and_print_the_record():
    result = CliRunner().invoke(cli, ["play", "mattock", "--human", "none", "--engine", "greedy",
                                      "--seed", "3"])
    assert result.exit_code == 0
    record_text = result.output[result.output.index('[Game "mattock"]'):]
    record, = parse_records(record_text)
    assert record.replay().is_terminal() and record.result in ("1-0", "0-1")
    assert record.tags["Termination"] == "normal" and record.tags["Seed"] == "3"
    assert "game over after" in result.output


def test_end_of_input_quits_cleanly():
    assert play("").exit_code == 0


def test_bad_engine_spec_exits_2():
    result = CliRunner().invoke(cli, ["play", "mattock", "--engine", "deep-blue"])
    assert result.exit_code == 2 and "unknown engine" in result.output


def test_engine_that_cannot_start_exits_2():
    result = CliRunner().invoke(cli, ["play", "mattock", "--engine", "cmd:/nonexistent/engine"])
    assert result.exit_code == 2 and "did not start" in result.output, result.output


def test_a_quit_game_is_printed_as_a_record_without_save():
    result = play("h5\nquit\n")
    assert result.exit_code == 0, result.output
    record, = parse_records(result.output[result.output.index('[Game "mattock"]'):])
    assert record.plies[0].move == "h5" and len(record.plies) == 2 and record.result == "*"


def test_save_option_writes_the_finished_game_instead_of_printing_it(tmp_path):
    path = tmp_path / "watched.rec"
    result = CliRunner().invoke(cli, ["play", "mattock", "--human", "none", "--engine", "greedy",
                                      "--seed", "3", "--save", str(path)])
    assert result.exit_code == 0, result.output
    record, = parse_records(path.read_text())
    assert record.replay().is_terminal() and record.result in ("1-0", "0-1")
    assert f"to {path}" in result.output and '[Game "mattock"]' not in result.output


def test_save_option_keeps_a_game_the_human_quits(tmp_path):
    path = tmp_path / "quit.rec"
    result = play("h5\nquit\n", "--save", str(path))
    record, = parse_records(path.read_text())
    assert record.plies[0].move == "h5" and record.result == "*"


def offered(stdin):
    """A game at a terminal (offer_save): the human plays h5, quits, answers the offer."""
    state = get_game("mattock").new_initial_state()
    with CliRunner().isolation(input=stdin) as streams:
        terminal = TerminalGame(state.game, state, "alphabeta:depth=1", {0}, 1, False,
                                offer_save=True)
        try:
            terminal.run()
        finally:
            terminal.close()
    return streams[0].getvalue().decode()


def test_at_a_terminal_the_end_offers_to_save(tmp_path):
    path = tmp_path / "offered.rec"
    output = offered(f"h5\nquit\n{path}\n")
    assert "save the game to a file" in output and f"to {path}" in output
    assert parse_records(path.read_text())[0].plies[0].move == "h5"
    printed = offered("h5\nquit\n\n")           # Enter: the record is printed instead
    assert parse_records(printed[printed.index('[Game "mattock"]'):])[0].plies[0].move == "h5"


def test_a_hidden_information_game_quit_midway_is_not_printed_but_can_be_saved(tmp_path):
    """The record holds both hands: printed, it would show the human the other's cards."""
    args = ["play", "cardbattle", "--engine", "greedy", "--seed", "1"]
    result = CliRunner().invoke(cli, args, input="keep\nquit\n")
    assert "the record is not printed" in result.output and "[Start " not in result.output
    path = tmp_path / "card.rec"
    CliRunner().invoke(cli, [*args, "--save", str(path)], input="keep\nquit\n")
    assert parse_records(path.read_text())[0].plies[0].move == "keep"


def test_the_position_string_is_printed_on_request_only():
    start = get_game("mattock").new_initial_state().position()
    assert f"position: {start}" not in play("quit\n").output
    assert play("view\nquit\n").output.count(f"position: {start}") == 1
