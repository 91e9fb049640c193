"""Fuzzing the engine protocol through the real process: random command streams sent at
once, so that every command is queued behind the ones before it (searches, ``go infinite``
never stopped, refused options), each session under a hard time limit.

Whatever the stream, the engine answers every ``isready`` and every ``go`` (one
``bestmove`` or one ``go`` error line each), exits with status 0 on ``quit`` or at the end
of its input, and leaves no worker process behind. The lines come from test_fuzz's protocol
sessions (which run in-process), plus the commands that used to hang when queued.
"""
import pytest
from hypothesis import given, settings, strategies as st
from protocol_helpers import answers, scripted
from test_fuzz import FUZZ, GAME_NAMES, SCALE, Chooser, protocol_line

pytestmark = pytest.mark.slow      # over a second a test: `pytest -m "not slow"` skips it

# the commands that hung the engine when they were queued behind a search (issue 33)
QUEUED = ["go infinite", "go movetime 3000", "go nodes 100000000", "isready", "stop", "show",
          "setoption name engine value mcts:workers=2", "position start", "newgame"]


def stream(pick, game) -> list[str]:
    lines = []
    for _ in range(pick.random.randrange(1, 10)):
        text = pick.random.choice(QUEUED) if pick.chance(0.4) else protocol_line(pick, game)
        lines += text.split("\n")          # protocol_line's "go infinite\nstop" is two
    return lines


def first_word(line: str) -> str:
    words = line.split()
    return words[0] if words else ""


def check_session(game: str, lines: list[str], end_of_input: bool) -> None:
    """Run one session (a hang fails in ``scripted``) and check every go and isready got
    its answer."""
    said = scripted(game, lines + ["isready"] + ([] if end_of_input else ["quit"]),
                    close_stdin=end_of_input)
    shown = "\n".join(lines) + "\n--\n" + "\n".join(said[-15:])
    gos = sum(first_word(line) == "go" for line in lines)
    assert len(answers(said)) == gos, shown
    assert said.count("readyok") == 1 + sum(first_word(line) == "isready" for line in lines), \
        shown
    assert not any("search failed" in line for line in said), shown


def draw_session(data):
    pick = Chooser(data.draw)
    game = pick.random.choice(GAME_NAMES)
    return game, stream(pick, game), pick.chance(0.3)


@given(st.data())
@settings(FUZZ, max_examples=15 * SCALE)
def test_random_command_streams_answer_every_go_and_end(data):
    check_session(*draw_session(data))
