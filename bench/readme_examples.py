"""Regenerate (or check) the README's example outputs by running their commands.

    python bench/readme_examples.py           # rewrite README.md's example outputs
    python bench/readme_examples.py --check   # exit 1 if one is stale (tests/test_readme.py)

An example is a ```console block whose first line is ``$ crystalpick ...`` followed by its
output. The README may shorten an output: the lines before a `` ...`` line are its first
lines, and the lines after it are the output from the first line that starts with the same
text on. Times and rates (``1.52 s``, ``141,350 nodes/s``) differ from run to run and are
not compared; everything else (moves, scores, node counts, seeds) is, so the examples use
only deterministic limits (a depth, a number of simulations, a seed).
"""
from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

from click.testing import CliRunner

from crystalpick.cli.main import cli

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCK = re.compile(r"```console\n(\$ crystalpick [^\n]*)\n(.*?)```", re.S)
VARYING = re.compile(r"\d[\d,]*(\.\d+)? (s\b|nodes/s|positions/s|simulations/s)")
ELISION = " ..."


def run(command: str) -> list[str]:
    result = CliRunner().invoke(cli, shlex.split(command)[1:])
    if result.exit_code != 0:
        raise SystemExit(f"README example {command!r} failed: {result.output}")
    return result.output.rstrip("\n").splitlines()


def shorten(shown: list[str], output: list[str]) -> list[str]:
    """``output`` cut the way ``shown`` is cut (see the module docstring)."""
    if ELISION not in shown:
        return output
    cut = shown.index(ELISION)
    head, tail = shown[:cut], shown[cut + 1:]
    if not tail:
        return output[:cut] + [ELISION]
    anchor = tail[0].split(":")[0]
    starts = [i for i, line in enumerate(output) if line.startswith(anchor)]
    start = starts[0] if starts else len(output) - len(tail)
    return output[:len(head)] + [ELISION] + output[start:]


def examples(text: str):
    for match in BLOCK.finditer(text):
        command, body = match.group(1), match.group(2)
        shown = body.rstrip("\n").splitlines()
        if shown and not any(line.startswith("$ ") for line in shown):   # an output follows
            yield match, command[2:], shown


def stale(shown: list[str], fresh: list[str]) -> bool:
    return [VARYING.sub("#", line) for line in shown] != [VARYING.sub("#", line)
                                                          for line in fresh]


def main(check: bool) -> int:
    text = README.read_text(encoding="utf-8")
    pieces, position, found = [], 0, []
    for match, command, shown in examples(text):
        fresh = shorten(shown, run(command))
        if stale(shown, fresh):
            found.append(command)
        else:
            fresh = shown               # only times differ: keep the quoted measurement
        pieces += [text[position:match.start()],
                   "```console\n$ " + command + "\n" + "\n".join(fresh) + "\n```"]
        position = match.end()
    pieces.append(text[position:])
    if check:
        for command in found:
            print(f"stale README example: {command} (run python bench/readme_examples.py)")
        return 1 if found else 0
    README.write_text("".join(pieces), encoding="utf-8")
    print(f"{len(found)} README examples regenerated" if found else "README examples are current")
    return 0


if __name__ == "__main__":
    sys.exit(main("--check" in sys.argv[1:]))
