"""Component data files (a tileset, a card set, a deck): read once as TOML or JSON, then
checked field by field, so that every error names the file, the item and the field.

Each game subclasses :class:`FieldChecker` with its own error class and the field kinds only
it has; the reading and the common field kinds live here once.
"""
from __future__ import annotations

import json
import stat
import tomllib
from pathlib import Path

from .game import GameError


def read_data(path: Path, what: str, error: type[GameError]) -> dict:
    """The file's data (``.json`` as JSON, anything else as TOML); ``what`` names the kind of
    file in the error ("tileset", "card set"). A byte-order mark, as some editors write,
    is skipped; bytes that are not UTF-8 are named by their line. A device is refused
    (/dev/zero would be read without end)."""
    try:
        if stat.S_ISCHR(path.stat().st_mode) or stat.S_ISBLK(path.stat().st_mode):
            raise error(f"{what} {str(path)!r}: a device, not a file")
        raw = path.read_bytes()
    except OSError as err:
        raise error(f"cannot read {what} {str(path)!r}: {err.strerror}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise error(f"{what} {path.name}:{not_utf8(raw, err)}") from None
    try:
        if path.suffix.lower() == ".json":
            return json.loads(text)
        return tomllib.loads(text)
    except ValueError as err:
        kind = "JSON" if path.suffix.lower() == ".json" else "TOML"
        raise error(f"{what} {path.name}: not valid {kind}: {err}") from None


class FieldChecker:
    """Typed field reads with range checks. ``prefix`` names the file ("tileset x.toml");
    ``where`` in each call names the item ("tile 'B3'", "card 12")."""
    error: type[GameError] = GameError
    blank_strings = True            # False: a string field must hold more than white space

    def __init__(self, prefix: str):
        self.prefix = prefix

    def fail(self, where: str, message: str):
        raise self.error(f"{self.prefix}: {where}: {message}")

    def table(self, data, where: str, known: set[str]) -> dict:
        if not isinstance(data, dict):
            self.fail(where, f"expected a table, got {type(data).__name__}")
        unknown = sorted(set(data) - known)
        if unknown:
            self.fail(where, f"unknown field {unknown[0]!r}; expected {', '.join(sorted(known))}")
        return data

    def integer(self, data: dict, field: str, where: str, low: int, high: int,
                default: int | None = None) -> int:
        if field not in data:
            if default is not None:
                return default
            self.fail(where, f"field {field!r} is missing")
        value = data[field]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            self.fail(where, f"field {field!r} must be an integer {low}-{high}, got {value!r}")
        return value

    def string(self, data: dict, field: str, where: str, pattern=None, choices=None,
               default: str | None = None) -> str:
        if field not in data:
            if default is not None:
                return default
            self.fail(where, f"field {field!r} is missing")
        value = data[field]
        if not isinstance(value, str) or not (self.blank_strings or value.strip()):
            kind = "a string" if self.blank_strings else "a non-empty string"
            self.fail(where, f"field {field!r} must be {kind}, got {value!r}")
        if choices is not None and value not in choices:
            self.fail(where, f"field {field!r} is {value!r}; expected one of {', '.join(choices)}")
        if pattern is not None and not pattern.match(value):
            self.fail(where, f"field {field!r} is {value!r}; expected {pattern.pattern}")
        return value


def not_utf8(raw: bytes, err: UnicodeDecodeError) -> str:
    """Where a file stops being UTF-8, by line (what an editor shows), and the byte."""
    line = raw[:err.start].count(b"\n") + 1
    return f"{line}: not UTF-8 text (byte {raw[err.start]:#04x})"
