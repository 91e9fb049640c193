"""Issue 46, first half: what the walk over every option (test_cli_options_walk.py) cannot
see: a save or a picture that fails after the work is done keeps the work; values that
were accepted though wrong (impossible crystals, an empty table, a deck with a byte-order
mark), and messages that named the wrong thing."""
import pytest

from crystalpick.apps import plots
from crystalpick.apps.match.records import parse_records
from crystalpick.cli import play as play_module
from crystalpick.engine import get_game

from cli_helpers import refused, run

RECORD = ('[Game "mattock"]\n[Start "5/3x2/1o5/6o1/9/1x6/5x1/2o3/5 x"]\n[Result "*"]\n\n'
          '1. h5/h4-h5\n')




# -- play: a save that fails keeps the game ---------------------------------------------------

def test_a_save_with_a_nul_byte_at_the_prompt_is_said_and_the_game_goes_on():
    """It was ValueError: embedded null byte, a traceback, exit 1."""
    result = run("play", "mattock", "--engine", "random", "--seed", "1",
                 stdin="h5/h4-h5\nsave a\0b.rec\nquit\n")
    assert result.exit_code == 0, result.output
    assert "cannot save to 'a\\x00b.rec': a file name cannot hold a NUL character" \
        in result.output
    assert '[Game "mattock"]' in result.output      # quit: printed as ever


def test_a_game_whose_save_fails_at_the_end_is_printed(tmp_path):
    """A folder gone while the game was played: the record was neither saved nor printed."""
    game = get_game("mattock", seed=1)
    terminal = play_module.TerminalGame(game, game.new_initial_state(), "random", {0}, 1,
                                        False, str(tmp_path / "gone" / "game.rec"))
    terminal.play(terminal.state.legal_moves()[0])
    said = []
    terminal.say = said.append
    terminal.keep()
    assert "no such folder to write the record in" in said[0]
    record, = parse_records(said[-1])
    assert len(record.plies) == 1


def test_an_interrupted_play_says_where_its_game_was_saved(tmp_path, monkeypatch):
    """It said to use --save after saving to --save."""
    def one_ply_then_ctrl_c(self):
        self.play(self.state.legal_moves()[0])
        raise KeyboardInterrupt

    monkeypatch.setattr(play_module.TerminalGame, "run", one_ply_then_ctrl_c)
    path = tmp_path / "game.rec"
    result = run("play", "mattock", "--human", "none", "--engine", "random", "--save", path)
    assert result.exit_code == 130, result.output
    assert f"the game is saved to {path}" in result.output
    assert "--save FILE" not in result.output
    assert len(parse_records(path.read_text())[0].plies) == 1


# -- pictures that fail while drawing -----------------------------------------------------------

def test_a_picture_that_fails_while_drawing_is_one_line_and_the_records_are_kept(
        tmp_path, monkeypatch):
    """A matplotlib that imports but breaks while drawing was a traceback."""
    def broken(*args):
        raise RuntimeError("no font found")

    monkeypatch.setattr(plots, "evaluation_graph", broken)
    records, out = tmp_path / "game.rec", tmp_path / "annotated.rec"
    records.write_text(RECORD)
    result = run("annotate", "mattock", records, "--nodes", "1", "-o", out,
                 "--plot", tmp_path / "eval.svg")
    assert result.exit_code == 2, result.output
    line = result.output.strip().splitlines()[-1]
    assert "--plot" in line and "RuntimeError: no font found" in line
    assert f"kept in {out}" in line
    assert "eval_before=" in out.read_text()


def test_a_match_whose_picture_fails_keeps_its_games_and_says_where(tmp_path, monkeypatch):
    def broken(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(plots, "match_graph", broken)
    db = tmp_path / "r.sqlite"
    result = run("match", "mattock", "--engine", "random", "--engine", "random", "--games", "2",
                 "--seed", "1", "--db", db, "--plot", tmp_path / "m.svg")
    assert result.exit_code == 2, result.output
    line = result.output.strip().splitlines()[-1]
    assert "the picture could not be drawn" in line and "No space left on device" in line
    assert f"the games are kept in {db} ('crystalpick results --db {db}'" in line
    assert "Terminations: normal 2" in run("results", "--db", db).output


@pytest.mark.parametrize("args", [
    ["solve", "mattock", "--nodes", "1", "--resume", "/dev/zero"],
    ["match", "mattock", "--engine", "random", "--engine", "random", "--db", "/dev/zero"],
    ["replay", "/dev/zero"],
    ["analyse", "mattock", "--record", "/dev/zero"],
    ["show", "cardbattle", "--cardset", "/dev/zero"],
    ["show", "cardbattle", "--deck", "/dev/zero", "--deck", "arsenal"],
    ["deck", "cardbattle", "--deck", "titas", "--against", "/dev/zero"],
])
def test_a_device_read_without_end_is_refused_where_it_enters(args):
    """solve --resume /dev/full (refused now as unwritable) read the device's endless bytes
    until the machine ran out of memory; /dev/zero, which takes writes, did the same."""
    refused(run(*args), "/dev/zero")


# -- values that were accepted though wrong ----------------------------------------------------

def cardbattle_position(seed=1) -> str:
    return get_game("cardbattle", seed=seed).new_initial_state().position()


@pytest.mark.parametrize("change, rules, fragment", [
    (("P1 won=0", "P1 won=9"), [],
     "seat P1: won=9: the game ends when the first player reaches 8"),
    (("P1 won=0", "P1 won=3"), ["--rule", "target=3"],
     "seat P1: won=3: reaching 3 (target) wins the game"),
    (("P1 won=0 tokens=0", "P1 won=0 tokens=5"), [],
     "seat P1: tokens and flag o are for crystals=stake"),
    (("P1 won=0", "P1 won=3"), ["--rule", "target=4"], None),            # a legal count
    (("P1 won=0 tokens=8", "P1 won=0 tokens=9"), ["--rule", "crystals=stake"],
     "seat P1: tokens=9: with crystals=stake a player holds 8"),
])
def test_impossible_crystal_counts_are_refused(change, rules, fragment):
    stake = "crystals=stake" in rules
    position = get_game("cardbattle", {"crystals": "stake"} if stake else {},
                        seed=1).new_initial_state().position()
    assert change[0] in position, position
    result = run("show", "cardbattle", position.replace(change[0], change[1]), *rules)
    if fragment is None:
        assert result.exit_code == 0, result.output
    else:
        refused(result, fragment)


def test_the_crystal_counts_of_play_are_accepted():
    game = get_game("cardbattle", {"crystals": "stake"}, seed=4)
    state = game.new_initial_state()
    for _ in range(300):
        if state.is_terminal():
            break
        state.play(state.legal_moves()[0] if not state.is_chance_node()
                   else state.chance_outcomes()[0][0])
        game.state(state.position())            # every position play reaches parses


def test_an_empty_resume_table_is_warned_about_and_solved_afresh(tmp_path):
    """It was refused as 'not a solver table file', where a damaged one is recomputed."""
    table = tmp_path / "t.bin"
    table.write_bytes(b"")
    result = run("solve", "mattock", "5/3x2/1o5/6o1/9/1x6/5x1/2o3/5 x", "--nodes", "2000",
                 "--resume", table)
    assert result.exit_code == 0, result.output
    assert "the file is empty" in result.output and "solving afresh" in result.output
    assert table.stat().st_size > 0


@pytest.mark.parametrize("prefix", [b"\xef\xbb\xbf", b""], ids=["byte-order mark", "plain"])
def test_a_deck_file_with_a_byte_order_mark_is_read(tmp_path, prefix):
    text = _sample_deck_text()
    deck = tmp_path / "deck.toml"
    deck.write_bytes(prefix + text.encode("utf-8"))
    result = run("show", "cardbattle", "--deck", deck, "--deck", "arsenal", "--seed", "1")
    assert result.exit_code == 0, result.output


def test_a_deck_file_that_is_not_utf8_is_named_by_its_line(tmp_path):
    deck = tmp_path / "deck.toml"
    deck.write_bytes(_sample_deck_text().encode("utf-8") + b"# caf\xe9\n")
    lines = _sample_deck_text().count("\n") + 1
    refused(run("show", "cardbattle", "--deck", deck, "--deck", "arsenal"),
            f"deck.toml:{lines}: not UTF-8 text (byte 0xe9)")


def _sample_deck_text() -> str:
    from crystalpick.engine.cardbattle.cards import DECK_FOLDER
    return (DECK_FOLDER / "titas.toml").read_text(encoding="utf-8")


# -- messages that named the wrong thing --------------------------------------------------------

def test_annotate_names_the_engine_given(tmp_path):
    """It said 'alphabeta cannot play cardbattle ...; use ismcts, greedy or random'."""
    records = tmp_path / "cards.rec"
    assert run("play", "cardbattle", "--human", "none", "--engine", "random", "--seed", "2",
               "--save", records).exit_code == 0
    refused(run("annotate", "cardbattle", records, "--engine", "greedy"),
            "engine 'greedy': annotate's greedy is a depth-1 alphabeta search, which cannot "
            "search cardbattle; annotate it with ismcts")


def test_an_unknown_cluster_scheme_offers_only_the_schemes_the_readme_allows():
    result = run("match", "mattock", "--engine", "random", "--engine", "random",
                 "--cluster", "ucx://h:8786")
    refused(result, "known: tcp://, tls://, ws://, wss://)")
    assert "inproc" not in result.output
