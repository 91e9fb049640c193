"""The card battle game on the command line: card sets and decks from files, exit status 2
with the file, card and field named, the searchers' refusal, random and greedy matches."""
from __future__ import annotations

import json

from click.testing import CliRunner

from crystalpick.cli.main import cli
from crystalpick.engine.cardbattle.cards import DEFAULT_CARDSET


def run(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_games_lists_the_options_the_card_set_and_the_decks():
    listed = {g["name"]: g for g in json.loads(run("games", "--json").output)["games"]}
    info = listed["cardbattle"]
    assert "invented" in info["tileset"]["label"]
    assert {r["name"] for r in info["rules"]} >= {"no-creature", "boost-order", "tie-card",
                                                 "tie-boosts", "refill", "deck-out",
                                                 "crystals", "target", "deck1", "deck2"}
    assert len(info["sample_decks"]) >= 4
    assert set(info["glosses"]) == set(info["attributes"]) and all(info["glosses"].values())


def test_show_and_perft_with_decks_and_a_card_set_copy(tmp_path):
    copy = tmp_path / "set.toml"
    copy.write_text(DEFAULT_CARDSET.read_text(encoding="utf-8"), encoding="utf-8")
    deck = tmp_path / "deck.json"
    deck.write_text(json.dumps({"cards": list(range(1, 16))}), encoding="utf-8")
    shown = run("show", "cardbattle", "--seed", "4", "--cardset", str(copy), "--deck",
                str(deck), "--deck", "titas")
    assert shown.exit_code == 0 and "position: cardbattle phase=mulligan" in shown.output
    counts = [json.loads(run("perft", "cardbattle", "--seed", "4", "-d", "4", "--impl", impl,
                             "--json").output)["nodes"] for impl in ("fast", "reference")]
    assert counts[0] == counts[1] > 0


def test_bad_files_exit_2_naming_file_card_and_field(tmp_path):
    deck = tmp_path / "short.toml"
    deck.write_text("cards = [1, 2, 3, 999]\n", encoding="utf-8")
    result = run("show", "cardbattle", "--deck", str(deck), "--deck", "mista")
    assert result.exit_code == 2
    assert "deck short.toml: card 999: field 'cards'" in result.output
    cards = tmp_path / "bad.toml"
    cards.write_text('name = "x"\nattributes = ["a", "b"]\n[[card]]\nnumber = 7\nname = "A"\n'
                     'kind = "robot"\n', encoding="utf-8")
    result = run("show", "cardbattle", "--cardset", str(cards))
    assert result.exit_code == 2 and "card set bad.toml: card 7: field 'kind'" in result.output
    assert run("show", "cardbattle", "--deck", "titas").exit_code == 2
    assert run("show", "mattock", "--deck", "titas").exit_code == 2


def test_the_searchers_refuse_with_exit_2():
    for engine in ("alphabeta", "mcts"):
        result = run("analyse", "cardbattle", "--seed", "1", "--engine", engine)
        assert result.exit_code == 2 and "cannot play cardbattle" in result.output
        assert "Traceback" not in result.output


def test_match_plays_greedy_against_random_and_refuses_alphabeta(tmp_path):
    db = str(tmp_path / "m.sqlite")
    result = run("match", "cardbattle", "--engine", "greedy", "--engine", "random", "--games",
                 "2", "--seed", "3", "--deck", "titas", "--deck", "arsenal", "--db", db,
                 "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output[result.output.index("{"):])["games"] == 2
    refused = run("match", "cardbattle", "--engine", "alphabeta", "--engine", "random",
                  "--db", db)
    assert refused.exit_code == 2 and "perfect-information" in refused.output


def test_play_shows_the_human_only_their_own_view():
    """§5 in `play`: the opponent's hand, draws and secret choice stay hidden from the human."""
    from crystalpick.engine.cardbattle import CardBattle
    from crystalpick.engine.cardbattle.notation import pile
    start = CardBattle(seed=1).new_initial_state().to_position()
    result = CliRunner().invoke(cli, ["play", "cardbattle", "--engine", "greedy", "--seed", "1"],
                                input="keep\nview\ncall:forca\n" + "play:0\n" * 3 + "quit\n")
    assert result.exit_code == 0, result.output
    assert "P1's view: cardbattle view=P1" in result.output and "hand=?" in result.output
    assert f"hand={pile(start.seats[1].hand)}" not in result.output
    assert f"hand={pile(start.seats[0].hand)}" in result.output
    assert "Traceback" not in result.output


def test_svg_of_a_view_draws_that_players_view_only(tmp_path):
    """show --svg of a view (as the screen of that view): the viewer sees their own hand, the
    other hand and a secret choice as card backs, and the crystals won."""
    import xml.etree.ElementTree as ET

    from crystalpick.engine.cardbattle import CardBattle
    moves = "keep keep toss:P2 call:forca play:25"
    path = tmp_path / "view.svg"
    state = CardBattle(seed=7).state(None, moves)
    assert state.current_player() == 1
    assert run("show", "cardbattle", state.observation_string(1), "--svg",
               str(path)).exit_code == 0
    root = ET.fromstring(path.read_text(encoding="utf-8"))
    ns = "{http://www.w3.org/2000/svg}"
    groups = root.findall(f"{ns}g")
    drawn = {int(g.get("data-card")) for g in groups if g.get("class") == "hand"}
    assert drawn == set(state.to_position().seats[1].hand)
    backs = [g for g in groups if g.get("class") == "back"]
    assert len(backs) == 2                         # P1's secret choice and P1's hand
    assert not [g for g in groups if g.get("class") == "table"]   # P1's 25 is not shown
    assert "view=P2" in root.find(f"{ns}title").text


def test_match_names_the_decks_and_says_they_stay_with_the_seats(tmp_path):
    db = str(tmp_path / "m.sqlite")
    args = ["match", "cardbattle", "--engine", "greedy", "--engine", "random", "--games", "2",
            "--seed", "3", "--deck", "titas", "--deck", "arsenal", "--db", db]
    text = CliRunner().invoke(cli, args)       # the header goes to stderr, mixed in here
    assert text.exit_code == 0, text.output
    assert text.output.count("P1 titas, P2 arsenal (the decks stay with their seats") == 2
    assert "decks: P1 titas" in text.output and "Decks: P1 titas" in text.output
    assert "'crystalpick deck' compares decks" in text.output
    document = json.loads(run("results", "--db", db, "--json").output)["matches"][0]
    assert document["decks"] == {"P1": "titas", "P2": "arsenal"}
    assert "Decks: P1 titas, P2 arsenal" in run("results", "--db", db).output
    default = run("match", "cardbattle", "--engine", "greedy", "--engine", "random",
                  "--games", "2", "--seed", "3", "--db", db, "--json").output
    assert json.loads(default[default.index("{"):])["decks"] == {"P1": "mista", "P2": "mista"}
    mattock = run("match", "mattock", "--engine", "greedy", "--engine", "random",
                  "--games", "2", "--seed", "3", "--db", db, "--json").output
    assert "decks" not in json.loads(mattock[mattock.index("{"):])
