"""Engine option schemas: what each engine accepts, with type, range, default and help.

Every way of configuring an engine (the ``ENGINE[:key=value,...]`` spec of the CLI and the
match runner, the protocol's ``setoption``, ``crystalpick engines``) reads the same
:class:`EngineSchema`, so a value is checked once, by the same rule, when it is parsed: a bad
key or value never reaches a search.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from crystalpick.engine.game import GameError

KINDS = ("int", "float", "bool", "choice", "str")
TRUE_WORDS = ("1", "true", "yes", "on")
FALSE_WORDS = ("0", "false", "no", "off")


class OptionError(GameError):
    """A key or value an engine does not accept (the message is one line for the user): a
    GameError, so every caller reports it as bad input without converting it."""


@dataclass(frozen=True)
class Option:
    """One engine option. ``default`` None means "decided at search time" (``unset`` says
    how, e.g. "random" for a seed). ``keyword`` is the field it fills when that differs from
    ``name`` (the search limits: ``sims`` fills ``Limits.simulations``). ``unset`` is one
    word (the protocol's ``option`` lines are split on spaces)."""
    name: str
    kind: str
    default: object
    help: str
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] = ()
    unset: str = "none"
    keyword: str | None = None
    above_minimum: bool = False   # the minimum itself is excluded (a time must be > 0)

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"option {self.name}: kind {self.kind!r} is not one of {KINDS}")

    @property
    def field(self) -> str:
        return self.keyword or self.name

    def expected(self) -> str:
        """What a value must look like, e.g. ``a number >= 0`` or ``random|heuristic``."""
        if self.kind == "bool":
            return "true or false"
        if self.kind == "choice":
            return "|".join(self.choices)
        if self.kind == "str":
            return "text"
        noun = "an integer" if self.kind == "int" else "a finite number"
        if self.minimum is not None and self.maximum is not None and self.above_minimum:
            return f"{noun} > {fmt(self.minimum)} and <= {fmt(self.maximum)}"
        if self.minimum is not None and self.maximum is not None:
            return f"{noun} in {fmt(self.minimum)}..{fmt(self.maximum)}"
        if self.minimum is not None:
            return f"{noun} {'>' if self.above_minimum else '>='} {fmt(self.minimum)}"
        return noun

    def parse(self, text: str):
        """The value ``text`` stands for, or :class:`OptionError` naming key and value."""
        text = text.strip()
        if self.kind == "bool":
            if text.lower() in TRUE_WORDS:
                return True
            if text.lower() in FALSE_WORDS:
                return False
            raise self.refuse(text)
        if self.kind == "choice":
            if text not in self.choices:
                raise self.refuse(text)
            return text
        if self.kind == "str":
            return text
        if not text.isascii():      # int() and float() read other scripts' digits too
            raise self.refuse(text)
        try:
            return self.check(int(text) if self.kind == "int" else float(text))
        except (ValueError, OptionError):
            raise self.refuse(text) from None

    def check(self, value):
        """Validate a value given from Python (same rules as :meth:`parse`); None only
        where None is the default ("decided at search time")."""
        if value is None and self.default is None:
            return None
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise self.refuse(value)
            return value
        if self.kind in ("choice", "str"):
            if not isinstance(value, str) or (self.kind == "choice" and value not in self.choices):
                raise self.refuse(value)
            return value
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.refuse(value)
        if self.kind == "int" and not isinstance(value, int):
            raise self.refuse(value)
        if not math.isfinite(value) or (self.minimum is not None and value < self.minimum) \
                or (self.above_minimum and value <= self.minimum) \
                or (self.maximum is not None and value > self.maximum):
            raise self.refuse(value)
        return float(value) if self.kind == "float" else value

    def refuse(self, value) -> OptionError:
        return OptionError(f"{self.name}={value}: expected {self.expected()}")

    def default_text(self) -> str:
        if self.default is None:
            return self.unset
        if isinstance(self.default, bool):
            return "true" if self.default else "false"
        return fmt(self.default)

    def describe(self) -> dict:
        """The JSON form listed by ``crystalpick engines --json``."""
        document = {"name": self.name, "type": self.kind, "default": self.default,
                    "help": self.help}
        if self.default is None:
            document["unset"] = self.unset
        if self.minimum is not None:
            document["min"] = self.minimum
            if self.above_minimum:
                document["min_excluded"] = True
        if self.maximum is not None:
            document["max"] = self.maximum
        if self.choices:
            document["choices"] = list(self.choices)
        return document

    def protocol_line(self, engine: str | None = None) -> str:
        """``option name N [engine E] type T default D [min|above X] [max Y] [values ...]``."""
        words = ["option", "name", self.name, *(["engine", engine] if engine else []),
                 "type", self.kind, "default", self.default_text()]
        if self.minimum is not None:
            words += ["above" if self.above_minimum else "min", fmt(self.minimum)]
        if self.maximum is not None:
            words += ["max", fmt(self.maximum)]
        if self.choices:
            words += ["values", *self.choices]
        return " ".join(words)


def fmt(number) -> str:
    return f"{number:g}" if isinstance(number, float) else str(number)


@dataclass(frozen=True)
class EngineSchema:
    """An engine's name, what it is, the search limits it obeys and its options."""
    name: str
    help: str
    limits: tuple[Option, ...] = ()
    options: tuple[Option, ...] = ()

    def find(self, key: str) -> tuple[Option, bool]:
        """The option or limit called ``key`` and whether it is a limit."""
        for option in self.limits:
            if option.name == key:
                return option, True
        for option in self.options:
            if option.name == key:
                return option, False
        raise OptionError(f"{self.name} has no option {key!r}; {self.valid()}")

    def valid(self) -> str:
        names = [o.name for o in self.limits + self.options]
        return f"valid: {', '.join(names)}" if names else f"{self.name} takes no options"

    def parse(self, key: str, text: str) -> tuple[str, object, bool]:
        """``(field, value, is_limit)`` for ``key=text``; the error also lists the valid keys."""
        option, is_limit = self.find(key)
        try:
            return option.field, option.parse(text), is_limit
        except OptionError as err:
            raise OptionError(f"{self.name}: {err}; {self.valid()}") from None

    def settings(self, given: dict) -> dict:
        """Every option's value: ``given`` (Python values by name, checked) over the
        defaults. Limits are not settings: they belong to each search."""
        known = {o.name: o for o in self.options}
        for key in given:
            if key not in known:
                raise OptionError(f"{self.name} has no option {key!r}; {self.valid()}")
        return {name: option.check(given[name]) if name in given else option.default
                for name, option in known.items()}

    def describe(self) -> dict:
        return {"name": self.name, "help": self.help,
                "limits": [o.describe() for o in self.limits],
                "options": [o.describe() for o in self.options]}

