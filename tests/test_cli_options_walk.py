"""Issue 46: every option and argument of every command, walked from Click's own
declarations (a new option is covered the day it is added), given the values that break
things. Each must be refused where it enters (exit status 2, one line naming it, nothing
written) or be listed in ACCEPTED with the reason it is meant to work."""
import os
import signal
from contextlib import contextmanager

import click
import pytest
from click.testing import CliRunner

from crystalpick.cli.main import cli
from crystalpick.cli.params import Checked, OutputPath

RECORD = ('[Game "mattock"]\n[Start "5/3x2/1o5/6o1/9/1x6/5x1/2o3/5 x"]\n[Result "*"]\n\n'
          '1. h5/h4-h5\n')

# A cheap, valid invocation of every command: its arguments, then its options as
# (name, value) pairs; the option walked replaces each of the base's own (an option given
# twice, as match's --engine, is walked given twice).
BASE = {
    "games": ([], []), "engines": ([], []), "cards": ([], []),
    "show": (["mattock"], []), "moves": (["mattock"], []),
    "perft": (["mattock"], [("--depth", "1")]),
    "bench": (["mattock"], [("--perft-depth", "1"), ("--depth", "1"), ("--sims", "1")]),
    "analyse": (["mattock"], [("--nodes", "1")]),
    "solve": (["mattock"], [("--nodes", "1")]),
    "play": (["mattock"], [("--human", "none"), ("--engine", "random"), ("--seed", "1")]),
    "replay": (["{record}"], []),
    "annotate": (["mattock", "{record}"], [("--nodes", "1")]),
    "deck": (["cardbattle"], [("--deck", "titas"), ("--against", "arsenal"),
                              ("--games", "2"), ("--engine", "random")]),
    "match": (["mattock"], [("--engine", "random"), ("--engine", "random"), ("--games", "2"),
                            ("--max-plies", "2"), ("--db", "{tmp}/r.sqlite")]),
    "tournament": (["mattock"], [("--engine", "random"), ("--engine", "random"),
                                 ("--max-plies", "2"), ("--db", "{tmp}/r.sqlite")]),
    "results": ([], [("--db", "{results}")]),
    "ratings": ([], [("--db", "{results}")]),
    "engine": (["mattock"], []),
}

NUL = "a\0b"
NUMBERS = ["", NUL, "nan", "inf", "-inf", "1e400", "-1", "9" * 30]
OUTPUTS = ["", NUL, "{tmp}/missing/out.svg", "{readonly}/out.svg", "{tmp}", "/dev/full"]
INPUTS = ["", NUL, "{tmp}/missing/in.txt", "{tmp}", "/dev/zero"]       # a device: read without end
WORDS = ["", NUL]

# What is accepted, and why: (command, option or argument, value) -> the reason.
ACCEPTED = {
    ("show", "--moves", ""): "no moves: the documented default",
    ("moves", "--moves", ""): "no moves: the documented default",
    ("perft", "--moves", ""): "no moves: the documented default",
    ("analyse", "--moves", ""): "no moves: the documented default",
    ("solve", "--moves", ""): "no moves: the documented default",
    ("play", "--moves", ""): "no moves: the documented default",
}
TIMEOUT = 60      # seconds a case may take: a hang fails the case, not the run


def values(param) -> list[str]:
    """The values that break things, for this parameter's type."""
    if isinstance(param.type, Checked):
        return NUMBERS
    if isinstance(param.type, OutputPath):
        return OUTPUTS
    if isinstance(param.type, click.Path):
        return INPUTS
    return WORDS


def walked():
    for name, command in sorted(cli.commands.items()):
        for param in command.params:
            if getattr(param, "is_flag", False) or param.name in ("help", "version"):
                continue
            for value in values(param):
                yield pytest.param(name, param, value,
                                   id=f"{name}-{param.name}-{value!r}"[:80])


def label(param) -> str:
    """The parameter as ACCEPTED names it: its longest option name, or its metavar."""
    if isinstance(param, click.Argument):
        return param.human_readable_name
    return max(param.opts, key=len)


def names(param) -> list[str]:
    """What a message may name the parameter by: an option name with or without its dashes,
    an argument's metavar words (POSITION, GAME), a choice argument's choices."""
    if isinstance(param, click.Argument):
        words = [w.strip("[]") for w in param.human_readable_name.split()]
        choices = getattr(param.type, "choices", ())
        return [w.lower() for w in words] + ([", ".join(f"'{c}'" for c in choices)]
                                              if choices else [])
    return [name for opt in param.opts for name in (opt, opt.lstrip("-"))]


def invocation(command: str, param, value: str, filled: dict) -> list[str]:
    arguments, options = BASE[command]
    arguments = [a.format(**filled) for a in arguments]
    value = value.format(**filled) if value != NUL else value
    args = []
    if isinstance(param, click.Argument):
        position = [p for p in cli.commands[command].params
                    if isinstance(p, click.Argument)].index(param)
        arguments = arguments[:position] + [value] + arguments[position + 1:]
    replaced = 0
    for option, given in options:
        if isinstance(param, click.Option) and option in param.opts:
            replaced += 1
        else:
            args += [option, given.format(**filled)]
    if isinstance(param, click.Option):
        args += [param.opts[0], value] * max(replaced, 1)
    return arguments + args


@contextmanager
def deadline(seconds: int):
    """A hang fails the case instead of the run."""
    def expire(*_):
        raise TimeoutError(f"no answer in {seconds} s")
    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture
def filled(tmp_path):
    from crystalpick.apps.match.db import ResultsDB

    record = tmp_path / "game.rec"
    record.write_text(RECORD)
    ResultsDB(str(tmp_path / "results.sqlite")).close()
    readonly = tmp_path / "readonly"
    readonly.mkdir()
    readonly.chmod(0o555)
    # root writes in any folder whatever its mode; sysfs refuses it new files
    yield {"tmp": str(tmp_path), "record": str(record),
           "results": str(tmp_path / "results.sqlite"),
           "readonly": str(readonly) if os.geteuid() else "/sys"}
    readonly.chmod(0o755)


@pytest.mark.parametrize("command, param, value", list(walked()))
def test_every_option_refuses_what_breaks_it_where_it_enters(command, param, value, filled):
    args = invocation(command, param, value, filled)
    with deadline(TIMEOUT):
        result = CliRunner().invoke(cli, [command, *args], input="")
    said = result.output.strip().splitlines()
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        f"{args}: {result.exception!r}\n{result.output}"
    reason = ACCEPTED.get((command, label(param), value))
    if reason is not None:
        assert result.exit_code == 0, f"{args} ({reason}):\n{result.output}"
        return
    assert result.exit_code == 2, f"{args}: exit {result.exit_code}\n{result.output}"
    assert len(said) == 1, f"{args}:\n{result.output}"
    assert any(name in said[0].lower() for name in names(param)), f"{args}: {said[0]}"
    assert not os.path.exists(os.path.join(filled["tmp"], "r.sqlite")), args


def test_every_file_option_has_a_checked_path_type():
    """The walk tries path cases on InputPath and OutputPath options only: a file option
    declared otherwise (a plain string, a bare click.Path) would escape them. A deck is a
    name, card numbers or a file, read by the game (engine/datafile.py) and walked as a word."""
    from crystalpick.cli.params import InputPath, Text

    for name, command in cli.commands.items():
        for param in command.params:
            file_like = ("FILE" in (param.metavar or "").upper() or "path" in param.name
                         or isinstance(param.type, click.Path))
            if file_like and not isinstance(param.type, (InputPath, OutputPath)):
                assert isinstance(param.type, Text) and "decks" in param.name or \
                    param.name in ("deck", "opponents"), f"{name} {param.name}: {param.type}"
