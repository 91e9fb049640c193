"""Engine specs: ``ENGINE[:KEY=VALUE,...]`` such as ``mcts:time=0.5,c=1.4`` or ``greedy``.

The one spelling of an engine everywhere: ``analyse --engine``, ``play --engine``, ``match
--engine`` and the protocol's ``setoption`` read it through the engine's schema
(:mod:`search.options`), so a key the engine does not have, or a value out of its range, is
refused here, before any game starts. Keys that are search limits (``depth``, ``nodes``,
``sims``, ``time``) set the per-move budget; the others are the engine's options.
``greedy`` searches as alpha-beta at depth 1 (the move whose position the evaluation likes
best; on a game alpha-beta cannot play, the game's own greedy: apps/match/players.py).
``random`` plays uniformly at random. ``cmd:COMMAND LINE`` is an external program speaking
the crystalpick engine protocol (docs/protocol.md), e.g. ``cmd:crystalpick engine mattock``.
"""
from __future__ import annotations

import shlex
from dataclasses import dataclass

from .engines import ENGINES
from .options import EngineSchema, Option, OptionError

GREEDY = EngineSchema("greedy", "Alpha-beta at depth 1: the move the evaluation likes best.")
RANDOM = EngineSchema("random", "A uniformly random legal move.", options=(
    Option("seed", "int", None, "Seed of its generator (default: from the match seed).",
           minimum=0, maximum=2**63 - 1, unset="match"),))
EXTERNAL = "cmd"
SCHEMAS = {**{name: engine.schema for name, engine in ENGINES.items()},
           GREEDY.name: GREEDY, RANDOM.name: RANDOM}


@dataclass(frozen=True)
class EngineSpec:
    text: str
    name: str          # the engine that searches (greedy: alphabeta), or random, or cmd
    limits: dict       # Limits fields (``sims`` is stored as ``simulations``)
    options: dict      # option name -> value, checked against the engine's schema
    kind: str          # what the text names: an engine, greedy, random or cmd

    @property
    def schema(self) -> EngineSchema | None:
        """The option schema of what the text names (None for an external command)."""
        return SCHEMAS.get(self.kind)

    def seeded(self, seed: int) -> dict:
        """The options, with ``seed`` as the ``seed`` option if the schema has one and the
        spec sets none: whatever draws random numbers gets the caller's seed, by schema."""
        options = dict(self.options)
        if self.schema is not None and any(option.name == "seed"
                                           for option in self.schema.options):
            options.setdefault("seed", seed)
        return options


def parse_spec(text: str) -> EngineSpec:
    """The engine ``text`` names; :class:`OptionError` (a ValueError) with one line naming
    the bad part, and for a bad key the engine's valid keys."""
    name, _, rest = text.strip().partition(":")
    if name == EXTERNAL:
        try:
            command = shlex.split(rest)
        except ValueError as err:
            raise OptionError(f"engine command {rest!r}: {err}") from None
        if not command:
            raise OptionError("cmd: needs a command line, e.g. cmd:crystalpick engine mattock")
        return EngineSpec(text, EXTERNAL, {}, {"command": command}, EXTERNAL)
    if name not in SCHEMAS:
        raise OptionError(f"unknown engine {name!r} in {text!r}; expected one of "
                          f"{', '.join(SCHEMAS)} or cmd:COMMAND (with options, e.g. "
                          f"mcts:time=0.5,c=1.4; see 'crystalpick engines')")
    schema = SCHEMAS[name]
    limits, options = {}, {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, sep, value = item.partition("=")
        if not sep:
            raise OptionError(f"engine option {item!r} in {text!r}: expected KEY=VALUE; "
                              f"{schema.valid()}")
        field, parsed, is_limit = schema.parse(key.strip(), value)
        if field in limits or field in options:
            raise OptionError(f"engine option {key.strip()!r} given twice in {text!r}")
        (limits if is_limit else options)[field] = parsed
    if name == GREEDY.name:
        return EngineSpec(text, "alphabeta", {"depth": 1}, options, GREEDY.name)
    return EngineSpec(text, name, limits, options, name)
