"""The comments annotate writes name what they talk about (issue 29): the better move is stored
as State.describe_move gives it (``best=play:25 Guerreiro de Bronze`` in the card battle, the
bare notation where a game describes nothing more), the records stay parseable, and records
written before (the notation alone) read and replay the same."""
import pytest
from click.testing import CliRunner

from crystalpick.cli.main import cli
from crystalpick.apps.match.records import (GameRecord, Ply, format_comment, format_record,
                                              parse_records)


def run(*args):
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result


@pytest.fixture(scope="module")
def annotated(tmp_path_factory):
    """Each game's annotated record: a greedy-against-random game, annotated."""
    folder = tmp_path_factory.mktemp("names")
    paths = {}
    for game, engine in (("cardbattle", ["--engine", "ismcts", "--sims", 30]),
                         ("mattock", ["--engine", "alphabeta", "--nodes", 2000])):
        played, out = folder / f"{game}.rec", folder / f"{game}-annotated.rec"
        run("match", game, "--engine", "greedy", "--engine", "random", "--games", 1,
            "--seed", 4, "--db", folder / f"{game}.sqlite", "--records", played)
        run("annotate", played, *engine, "--seed", 1, "-o", out)
        paths[game] = out
    return paths


def best_comments(record: GameRecord) -> list[tuple[object, str]]:
    """(state before the ply, its stored best) for every ply annotate gave a better move."""
    state, out = record.replay(0), []
    for ply in record.plies:
        if "best" in ply.comment:
            out.append((state.clone(), ply.comment["best"]))
        state.play(state.parse_move(ply.move))
    return out


def test_card_battle_comments_name_the_better_card(annotated):
    record = parse_records(annotated["cardbattle"].read_text(encoding="utf-8"))[0]
    found = best_comments(record)
    assert found
    for state, best in found:
        move = state.parse_move(best.split()[0])            # the notation leads
        assert best == state.describe_move(move)
    cards = [best for _, best in found if best.startswith(("play:", "boost:"))]
    assert cards and all(len(best.split()) > 1 for best in cards)     # named, not bare
    assert parse_records(format_record(record))[0] == record   # written and read back alike


def test_other_games_comments_stay_the_notation(annotated):
    record = parse_records(annotated["mattock"].read_text(encoding="utf-8"))[0]
    found = best_comments(record)
    assert found
    for state, best in found:
        assert best == state.move_to_str(state.parse_move(best))


def old_style(record: GameRecord) -> GameRecord:
    """The record as annotate wrote it before comments named cards: notation alone."""
    plies = [Ply(p.move, p.chance, {k: (v.split()[0] if k == "best" else v)
                                   for k, v in p.comment.items()}) for p in record.plies]
    return GameRecord(dict(record.tags), plies)


def test_old_and_new_comments_replay_alike(annotated, tmp_path):
    record = parse_records(annotated["cardbattle"].read_text(encoding="utf-8"))[0]
    old = tmp_path / "old.rec"
    old.write_text(format_record(old_style(record)), encoding="utf-8")
    assert old.read_text(encoding="utf-8") != annotated["cardbattle"].read_text(encoding="utf-8")
    new_lines = run("replay", annotated["cardbattle"], "--annotations").output
    old_lines = run("replay", old, "--annotations").output
    assert new_lines == old_lines
    for state, best in best_comments(record):
        assert f"best {best} (" in new_lines          # named once, as stored


def test_a_comment_value_cannot_break_the_record():
    """A card of a user's card set may be named with ';' or a line break: the comment stays
    one item on one line."""
    record = GameRecord({"Game": "mattock", "Start": "x", "Result": "*"},
                        [Ply("h5", comment={"best": "play:3 Rei; o\nGrande\u2028I",
                                            "mark": "ok"})])
    text = format_record(record)
    assert "{best=play:3 Rei, o Grande I; mark=ok}" in text
    again = parse_records(text)[0]
    assert again.plies[0].comment == {"best": "play:3 Rei, o Grande I", "mark": "ok"}
    assert format_comment({"a": "b}c"}) == "{a=b}c}"
    assert parse_records(format_record(GameRecord(record.tags, [Ply("h5", comment={
        "a": "b}c"})])))[0].plies[0].comment == {"a": "b}c"}


def test_match_records_name_the_mixed_strategys_likeliest_card(tmp_path):
    """ISMCTS's ``mixed=`` comment in a match record gives its likeliest option as
    describe_move does (its probability, then the notation, then the card's name)."""
    played = tmp_path / "ismcts.rec"
    run("match", "cardbattle", "--engine", "ismcts:sims=30", "--engine", "random",
        "--games", 1, "--seed", 4, "--db", tmp_path / "m.sqlite", "--records", played)
    record = parse_records(played.read_text(encoding="utf-8"))[0]
    state, mixed = record.replay(0), []
    for ply in record.plies:
        if "mixed" in ply.comment:
            probability, described = ply.comment["mixed"].split(" ", 1)
            assert 0 < float(probability) <= 1
            assert described == state.describe_move(state.parse_move(described.split()[0]))
            mixed.append(described)
        state.play(state.parse_move(ply.move))
    cards = [text for text in mixed if text.startswith(("play:", "boost:"))]
    assert cards and all(len(text.split()) > 1 for text in cards)
