"""Engine specs: ``NAME[:KEY=VALUE,...]`` such as ``mcts:time=0.5,c=1.4`` or ``greedy``.

Keys that are search limits (``depth``, ``nodes``, ``sims``, ``time``) set the per-move
budget; the others are the engine's options (``c`` is MCTS's exploration constant).
``greedy`` is alpha-beta at depth 1: the move whose position the evaluation likes best.
``random`` plays uniformly at random. ``cmd:COMMAND LINE`` is an external program speaking
the crystalpick engine protocol (docs/protocol.md), e.g. ``cmd:crystalpick engine mattock``.
The CLI's ``--engine``/``--option`` and the match runner both read engines this way.
"""
from __future__ import annotations

import shlex
from dataclasses import dataclass

LIMIT_KEYS = {"depth": ("depth", int), "nodes": ("nodes", int), "sims": ("simulations", int),
              "simulations": ("simulations", int), "time": ("time", float)}
OPTION_ALIASES = {"c": "exploration"}
OPTION_TYPES = {"exploration": float, "tt_megabytes": int, "workers": int, "max_nodes": int,
                "playout": str, "lmr": "bool", "star2": "bool", "aspiration": "bool",
                "solver": "bool", "reuse": "bool", "playout_depth": int}
BUILT_IN = ("alphabeta", "mcts", "greedy", "random")


@dataclass(frozen=True)
class EngineSpec:
    text: str
    name: str
    limits: dict
    options: dict


def _convert(key: str, value: str, kind):
    if kind == "bool":
        if value.lower() not in ("1", "0", "true", "false", "yes", "no", "on", "off"):
            raise ValueError(f"engine option {key}={value!r}: expected true or false")
        return value.lower() in ("1", "true", "yes", "on")
    try:
        return kind(value)
    except ValueError:
        raise ValueError(f"engine option {key}={value!r}: expected {kind.__name__}") from None


def parse_spec(text: str) -> EngineSpec:
    name, _, rest = text.strip().partition(":")
    if name == "cmd":
        try:
            command = shlex.split(rest)
        except ValueError as err:
            raise ValueError(f"engine command {rest!r}: {err}") from None
        if not command:
            raise ValueError("cmd: needs a command line, e.g. cmd:crystalpick engine mattock")
        return EngineSpec(text, "cmd", {}, {"command": command})
    if name not in BUILT_IN:
        raise ValueError(f"unknown engine {name!r} in {text!r}; expected one of "
                         f"{', '.join(BUILT_IN)} (with options, e.g. mcts:time=0.5,c=1.4)")
    limits, options = {}, {}
    for item in filter(None, rest.split(",")):
        key, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"engine option {item!r} in {text!r}: expected KEY=VALUE")
        if key in LIMIT_KEYS:
            field, kind = LIMIT_KEYS[key]
            limits[field] = _convert(key, value, kind)
            continue
        key = OPTION_ALIASES.get(key, key)
        if key not in OPTION_TYPES or name in ("greedy", "random"):
            raise ValueError(f"engine option {key!r} is not known for {name}")
        options[key] = _convert(key, value, OPTION_TYPES[key])
    if name == "greedy":
        name, limits = "alphabeta", {"depth": 1}
    return EngineSpec(text, name, limits, options)
