"""``crystalpick bench``: the signature is stable across runs and sums the parts."""
import pytest
import json

from click.testing import CliRunner

from crystalpick.cli.main import cli
from crystalpick.engine import get_game

SMALL = ["--perft-depth", "2", "--depth", "2", "--sims", "200", "--json"]

# `crystalpick bench`'s signature with its default settings. It changes only when move
# generation or search behaviour changes; a commit that changes either on purpose updates this
# number and says in its message why the node counts moved.
BENCH_SIGNATURE = 90891989


def bench(*args):
    result = CliRunner().invoke(cli, ["bench", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_signature_is_stable_and_counts_every_part():
    first, second = bench(*SMALL), bench(*SMALL)          # every game
    assert first["signature"] == second["signature"]
    assert first["signature"] == sum(part["nodes"] for p in first["positions"]
                                     for part in p.values() if isinstance(part, dict))
    parts = {p["game"]: set(p) - {"game", "id"} for p in first["positions"]}
    assert parts["mattock"] == {"perft", "alphabeta", "mcts"}
    assert parts["cardbattle"] == {"perft", "ismcts"}      # hidden information: ismcts only
    assert [(p["game"], p["id"]) for p in first["positions"]] == [
        (game, c.id) for game in first["games"] for c in get_game(game).bench_suite()]


@pytest.mark.slow
def test_default_signature_is_pinned():
    assert bench("--json")["signature"] == BENCH_SIGNATURE


def test_perft_part_is_real_perft_and_reference_agrees():
    fast = bench("mattock", *SMALL)
    reference = bench("mattock", *SMALL, "--impl", "reference")
    cases = get_game("mattock").bench_suite()
    for case, f, r in zip(cases, fast["positions"], reference["positions"]):
        expected = get_game("mattock").parse_position(case.position).perft(2)
        assert f["perft"]["nodes"] == r["perft"]["nodes"] == expected
    assert reference["impl"] == "reference"


def test_text_output_ends_with_the_signature(tmp_path):
    profile = tmp_path / "bench.prof"
    result = CliRunner().invoke(cli, ["bench", "mattock", *SMALL[:-1], "--profile", str(profile)])
    assert result.exit_code == 0
    assert result.stdout.strip().splitlines()[-1].startswith("signature: ")
    assert profile.stat().st_size > 0


def test_card_battle_bench_perft_matches_the_perft_table():
    """The bench positions are the perft table's decision positions: same counts."""
    from crystalpick.positions import perft_suite
    table = {case.id: case.counts for case in perft_suite("cardbattle")}
    run = bench("cardbattle", *SMALL)
    assert [p["id"] for p in run["positions"]] == ["start", "call", "choose", "boost",
                                                   "call-last-round"]
    for row in run["positions"]:
        assert row["perft"]["nodes"] == table[row["id"]][2]
