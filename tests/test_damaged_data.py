"""Issue 33's reproducers for damaged data and unchecked input: each crashed with a
traceback, printed an impossible result or changed a file, and is now a one-line refusal
with exit status 2 (or the promised behaviour). Issue 13's are in test_input_checks.py."""
import io

import pytest
from click.testing import CliRunner

from crystalpick.cli.main import cli
from crystalpick.cli.protocol import Session
from crystalpick.engine.registry import get_game

TOO_BIG = str(2 ** 31)


def run(*args, stdin=None):
    return CliRunner().invoke(cli, [str(arg) for arg in args], input=stdin)


def refused(result, fragment):
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert fragment in result.output, result.output
    assert len(result.output.strip().splitlines()) == 1, result.output


# -- card battle numbers ----------------------------------------------------------------------

def card_position(field: str, value: str, view: bool = False) -> str:
    """The start position (or P2's view of it) with ``field`` of the head or of P1's seat
    set to ``value``."""
    state = get_game("cardbattle").new_initial_state()
    text = state.observation_string(1) if view else state.position()
    head, *seats = text.split(" | ")
    part = 0 if field in ("round", "ply") else 1
    words = (head if part == 0 else seats[0]).split()
    words = [f"{field}={value}" if word.startswith(f"{field}=") else word for word in words]
    parts = [head] + seats
    parts[part] = " ".join(words)
    return " | ".join(parts)


CARD_FIELDS = ["round", "ply", "won", "tokens", "value", "left"]


@pytest.mark.parametrize("view", [False, True], ids=["position", "view"])
@pytest.mark.parametrize("field", CARD_FIELDS)
@pytest.mark.parametrize("command", ["moves", "show", "analyse"])
def test_card_battle_numbers_past_a_c_int_are_refused(command, field, view):
    """They raised OverflowError when the kernel was built."""
    extra = ["--time", "0.05"] if command == "analyse" else []
    refused(run(command, "cardbattle", card_position(field, TOO_BIG, view), *extra),
            f"{field}='{TOO_BIG}' is not a whole number in 0..")


@pytest.mark.parametrize("field", CARD_FIELDS)
def test_card_battle_openings_with_numbers_past_a_c_int_are_refused(tmp_path, field):
    openings = tmp_path / "openings.txt"
    openings.write_text(card_position(field, TOO_BIG) + "\n")
    db = tmp_path / "never.sqlite"
    refused(run("match", "cardbattle", "--engine", "random", "--engine", "random",
                "--openings", openings, "--db", db), f"{field}='{TOO_BIG}'")
    assert not db.exists()


@pytest.mark.parametrize("field", CARD_FIELDS)
def test_the_card_battle_engine_refuses_such_a_position_and_keeps_running(field):
    """It killed ``crystalpick engine cardbattle``."""
    out = io.StringIO()
    session = Session("cardbattle", out)
    for line in (f"position {card_position(field, TOO_BIG)}", "isready"):
        assert session.handle(line)
    said = out.getvalue().splitlines()
    assert said[0].startswith("info string error") and f"{field}='{TOO_BIG}'" in said[0], said
    assert said[-1] == "readyok"
