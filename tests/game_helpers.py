"""Shared by the contract and cache tests: component data that plays differently."""
from __future__ import annotations


def tileset_copy(tmp_path, game: str, edited: bool) -> str:
    """A copy of the game's default component data elsewhere, with one value changed if
    ``edited`` (the format is the game's own: a game with component data says here how)."""
    if game == "maatatahay":
        from crystalpick.engine.maatatahay.tileset import DEFAULT_PATH
        text = DEFAULT_PATH.read_text()
        assert "strength = 1\n" in text
        if edited:
            text = text.replace("strength = 1\n", "strength = 2\n", 1)
        path = tmp_path / ("edited.toml" if edited else "copy.toml")
        path.write_text(text)
        return str(path)
    if game == "cardbattle":
        from crystalpick.engine.cardbattle.cards import DEFAULT_CARDSET
        text = DEFAULT_CARDSET.read_text(encoding="utf-8")
        line = "values = { forca = 4, velocidade = 5"
        assert line in text
        if edited:
            text = text.replace(line, "values = { forca = 9, velocidade = 5", 1)
        path = tmp_path / ("edited.toml" if edited else "copy.toml")
        path.write_text(text, encoding="utf-8")
        return str(path)
    raise AssertionError(f"{game} uses a tileset: add how to copy one to tileset_copy")
