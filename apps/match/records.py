"""Game records: a PGN-like text format (documented in docs/records.md).

::

    [Game "mattock"]
    [Rules "removal=blocking setup=standard size=5"]
    [Start "5/3x2/1o5/6o1/9/1x6/5x1/2o3/5 x"]
    [First "alphabeta:depth=3"]
    [Second "random"]
    [Result "1-0"]
    [Termination "normal"]
    [Reason "first wins: second cannot mine"]

    1. h5/h4-h5 {score=+3.0; pov=first; depth=3; nodes=5210; time=0.041}
    2. b2 {time=0.000}
    ...

Tag pairs first, then one numbered ply per line: the move in the game's notation (a chance
outcome is prefixed with ``~``), then an optional ``{key=value; ...}`` comment. Several
records in one file are separated by blank lines before a ``[`` line. Results are from the
game's point of view: ``1-0`` first player won, ``0-1`` second, ``1/2-1/2`` draw, ``*``
unfinished.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from crystalpick.engine import GameError, NotationError, get_game
from crystalpick.engine.datafile import not_utf8

from .termination import GameEnd

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
CHANCE_MARK = "~"


@dataclass
class Ply:
    move: str
    chance: bool = False
    comment: dict = field(default_factory=dict)


@dataclass
class GameRecord:
    tags: dict[str, str]
    plies: list[Ply] = field(default_factory=list)

    @property
    def result(self) -> str:
        return self.tags.get("Result", "*")

    def game(self):
        rules = {}
        for item in self.tags.get("Rules", "").split():
            name, sep, value = item.partition("=")
            if not sep or not name or not value:
                raise NotationError(f"record tag [Rules \"{self.tags['Rules']}\"]: {item!r} is "
                                    f"not NAME=VALUE")
            rules[name] = value
        tileset = self.tags.get("Tileset")
        return get_game(self.tags["Game"], rules,
                        tileset=None if tileset in (None, "default") else tileset)

    def replay(self, plies: int | None = None):
        """The state after ``plies`` plies (all of them by default)."""
        state = self.game().parse_position(self.tags["Start"])
        count = len(self.plies) if plies is None else plies
        if not 0 <= count <= len(self.plies):
            raise GameError(f"ply {count} is outside the record (0-{len(self.plies)})")
        for number, ply in enumerate(self.plies[:count], 1):
            try:
                state.play(state.parse_move(ply.move))
            except GameError as err:
                raise GameError(f"record ply {number} {ply.move!r}: {err}") from None
        return state


def record_state(path: str, game: str, plies: int | None = None, number: int = 1):
    """The state after ``plies`` plies (default: all) of record ``number`` of the file
    ``path``, which must be a ``game`` game, with every ply of it in the state's history, so
    that a player's information state is their whole record since its start; a GameError
    naming the file and the bad part otherwise."""
    records = parse_records(read_text(path), path)
    if not 1 <= number <= len(records):
        raise GameError(f"{path} holds {len(records)} records; record {number} is not one")
    record = records[number - 1]
    if record.tags["Game"].lower() != game.lower():
        raise GameError(f"{path}: record {number} is a {record.tags['Game']} game, not {game}")
    try:
        return record.replay(plies)
    except GameError as err:
        raise type(err)(f"{path}: {err}") from None


def new_record(game, start, first: str, second: str, seed: int | None = None,
               **tags: str) -> GameRecord:
    """The one place a record's tags are made, for match games and terminal games alike:
    the game with every rule (and its tileset), the start position ``start`` (a state), the
    players, the seed, then ``tags`` (e.g. the match's Pair and TimeControl)."""
    header = {"Game": game.name,
              "Rules": " ".join(f"{k}={v}" for k, v in sorted(game.rules.items()))}
    if game.uses_tileset:
        header["Tileset"] = game.tileset_path or "default"
    header.update(Start=start.position(), First=first, Second=second)
    if seed is not None:
        header["Seed"] = str(seed)
    header.update(tags)
    return GameRecord(header)


def finish_record(record: GameRecord, end: GameEnd | None) -> None:
    """Write how the game ended into the record (``None``: still running, result ``*``)."""
    record.tags["Result"] = result_tag(None if end is None else end.returns)
    if end is not None:
        record.tags.update(Termination=end.termination.value, Reason=end.reason)


def format_comment(comment: dict) -> str:
    """``{key=value; ...}`` on one line, whatever the values hold (a value naming a card of
    a user's card set may hold a ';' or a line break, which would end the item or the
    ply: they are written as ',' and a space)."""
    return "{" + "; ".join(f"{k}={comment_value(v)}" for k, v in comment.items()) + "}"


def comment_value(value) -> str:
    """``value`` as one comment item: its line breaks (whatever the reader splits lines at)
    as spaces, its ';' as ','."""
    return " ".join(str(value).replace(";", ",").splitlines())


def format_record(record: GameRecord) -> str:
    lines = [f'[{name} "{value}"]' for name, value in record.tags.items()]
    lines.append("")
    for number, ply in enumerate(record.plies, 1):
        text = f"{number}. {CHANCE_MARK if ply.chance else ''}{ply.move}"
        if ply.comment:
            text += " " + format_comment(ply.comment)
        lines.append(text)
    return "\n".join(lines) + "\n"


_TAG = re.compile(r'^\[(\w+) "(.*)"\]$')
_PLY = re.compile(r"^(\d+)\.\s+(~?)(\S+)(?:\s+\{(.*)\})?$")


def parse_records(text: str, source: str = "<record>") -> list[GameRecord]:
    records: list[GameRecord] = []
    current: GameRecord | None = None
    in_moves = False
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        where = f"{source}:{number}"
        if not line:
            in_moves = current is not None
            continue
        tag = _TAG.match(line)
        if tag:
            if current is None or in_moves:
                current = GameRecord({})
                records.append(current)
                in_moves = False
            current.tags[tag.group(1)] = tag.group(2)
            continue
        ply = _PLY.match(line)
        if not ply or current is None:
            raise NotationError(f"{where}: expected a tag like [Game \"mattock\"] or a ply like "
                                f"'12. h5 {{...}}', got {line[:40]!r}")
        if int(ply.group(1)) != len(current.plies) + 1:
            raise NotationError(f"{where}: ply number {ply.group(1)} out of sequence (expected "
                                f"{len(current.plies) + 1})")
        comment = {}
        for item in filter(None, (ply.group(4) or "").split(";")):
            key, _, value = item.strip().partition("=")
            comment[key] = value
        current.plies.append(Ply(ply.group(3), ply.group(2) == CHANCE_MARK, comment))
        in_moves = True
    for record in records:
        check_number_tags(record, source)
        for tag in ("Game", "Start"):
            if tag not in record.tags:
                raise NotationError(f"{source}: a record lacks the [{tag} \"...\"] tag")
        if record.result not in RESULTS:
            raise NotationError(f"{source}: result {record.result!r} is not one of "
                                f"{', '.join(RESULTS)}")
    return records


# Tags holding numbers, and the values they may take.
NUMBER_TAGS = {"Seed": (0, 2**63 - 1), "Pair": (0, 10**6), "Swapped": (0, 1)}


def check_number_tags(record: GameRecord, source: str) -> None:
    for tag, (low, high) in NUMBER_TAGS.items():
        value = record.tags.get(tag)
        if value is not None and not (value.isdigit() and low <= int(value) <= high):
            raise NotationError(f"{source}: tag [{tag} \"{value[:30]}\"]: expected an integer "
                                f"in {low}..{high}")


def read_text(path: str) -> str:
    """A records or openings file as text; a binary or non-UTF-8 file is a NotationError
    naming the file and the first bad line."""
    with open(path, "rb") as handle:
        data = handle.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise NotationError(f"{path}:{not_utf8(data, err)}; expected game records or one "
                            f"opening a line") from None
    if "\x00" in text:
        line = text[:text.index("\x00")].count("\n") + 1
        raise NotationError(f"{path}:{line}: a NUL byte: this is a binary file, not text")
    return text


def result_tag(returns: tuple[float, float] | None) -> str:
    if returns is None:
        return "*"
    if returns[0] > returns[1]:
        return "1-0"
    if returns[1] > returns[0]:
        return "0-1"
    return "1/2-1/2"
