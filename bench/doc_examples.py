"""Check (or regenerate) the example outputs of README.md and docs/*.md by running them.

    python bench/doc_examples.py                 # rewrite every stale example output
    python bench/doc_examples.py --check         # exit 1 naming each stale one
    python bench/doc_examples.py docs/exact.md   # only these pages (with or without --check)

tests/test_doc_examples.py runs the check, one test per page. An example is a ```console
block holding ``$ crystalpick ...`` lines, each followed by its output (a block of commands
without any output is a synopsis, which tests/test_docs_commands.py checks). The commands of
a page run in order in one scratch folder with its own results database, after the page's
SETUP commands (the ones its prose names, such as the match that wrote ``games.rec``); a
command may end in ``| tail -N`` or ``| head -N``. Output is what a terminal shows (stdout
and stderr). The placeholders an example may use, the only differences allowed:

- a line ``...`` (any indent): any number of output lines left out;
- ``…`` within a line: any text there (a path, a date), as is `` ...`` ending a line;
- times and rates (``0.26 s``, ``817,954 nodes/s``, ``118.4 games/s``) are not compared.

Everything else (moves, scores, node counts, seeds, win rates) is, so examples use only
deterministic limits (a depth, nodes or simulations, a seed). Regenerating keeps every shown
line that still matches (its quoted times, its placeholders) and takes the rest, cut at the
same ``...`` places, from the fresh output.
"""
from __future__ import annotations

import os
import re
import shlex
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"```console\n(.*?)```", re.S)
PIPE = re.compile(r"\s\|\s*(tail|head)\s+-n?\s*(\d+)\s*$")
VARYING = re.compile(r"\d[\d,]*(\.\d+)? ?(ms|s|[a-z]+/s)\b")
ANY = "…"
# Commands a page's prose names, run before its examples because they write the files the
# examples read: the match README.md names, whose records the annotate examples read.
SETUP = {page: ["crystalpick match mattock --engine alphabeta:depth=3 --engine greedy --games 2 "
                "--seed 5 --records games.rec"] for page in ("README.md", "annotate.md")}


def elision(line: str) -> bool:
    return line.strip() == "..."


def pattern(shown: str) -> re.Pattern:
    """A shown line as a regex over normalised output: ``…`` matches anything, and so does
    a final `` ...`` (the rest of a long line)."""
    text = VARYING.sub("#", shown)
    if text.endswith(" ..."):
        text = text[:-3] + ANY
    return re.compile(".*?".join(re.escape(part) for part in text.split(ANY)) + r"\Z", re.S)


def agrees(shown: str, line: str) -> bool:
    return pattern(shown).match(VARYING.sub("#", line)) is not None


def segments(shown: list[str]) -> list[list[str]]:
    """``shown`` split at its ``...`` lines (an empty segment where one begins or ends it)."""
    parts = [[]]
    for line in shown:
        if elision(line):
            parts.append([])
        else:
            parts[-1].append(line)
    return parts


def found_at(segment: list[str], output: list[str], start: int) -> int | None:
    for at in range(start, len(output) - len(segment) + 1):
        if all(agrees(s, o) for s, o in zip(segment, output[at:at + len(segment)])):
            return at
    return None


def current(shown: list[str], output: list[str]) -> bool:
    """Whether ``output`` is what ``shown`` shows, placeholders and elisions allowed."""
    parts = segments(shown)
    if len(parts) == 1:
        return len(shown) == len(output) and all(map(agrees, shown, output))
    head, *middle, tail = parts
    if len(head) > len(output) or not all(map(agrees, head, output)):
        return False
    position = len(head)
    for segment in middle:
        at = found_at(segment, output, position)
        if at is None:
            return False
        position = at + len(segment)
    end = len(output) - len(tail)
    return end >= position and all(map(agrees, tail, output[end:]))


def anchor(line: str) -> str:
    """What locates a shown segment in a changed output: its first line up to a colon, or
    its first two words."""
    text = VARYING.sub("#", line)
    return text.split(":")[0] if ":" in text else " ".join(text.split()[:2])


def regenerated(shown: list[str], output: list[str]) -> list[str]:
    """``output`` cut where ``shown`` is cut, keeping every shown line that still agrees."""
    parts = segments(shown)
    if len(parts) == 1:
        return keep(shown, output)
    mark = next(line for line in shown if elision(line))
    head, *middle, tail = parts
    result, position = keep(head, output[:len(head)]), len(head)
    for segment in middle:
        result.append(mark)
        at = located(segment, output, position) if segment else None
        if at is not None:
            result += keep(segment, output[at:at + len(segment)])
            position = at + len(segment)
    result.append(mark)
    if tail:
        at = located(tail, output, position)
        result += keep(tail, output[max(position, len(output) - len(tail)) if at is None
                                    else at:])
    return result


def located(segment: list[str], output: list[str], start: int) -> int | None:
    """Where ``segment`` is in ``output`` from ``start`` on, or else where its anchor is."""
    exact = found_at(segment, output, start)
    if exact is not None:
        return exact
    return next((i for i in range(start, len(output))
                 if VARYING.sub("#", output[i]).startswith(anchor(segment[0]))), None)


def keep(shown: list[str], fresh: list[str]) -> list[str]:
    """``fresh``, with each line that a shown one (taken in order) agrees with written as
    shown: its quoted time, its placeholders."""
    result, next_shown = [], 0
    for line in fresh:
        at = next((k for k in range(next_shown, len(shown)) if agrees(shown[k], line)), None)
        result.append(line if at is None else shown[at])
        next_shown = next_shown if at is None else at + 1
    return result


def commands(body: str) -> list[tuple[str, list[str]]]:
    """A console block's commands, each with the output lines shown under it."""
    found = []
    for line in body.rstrip("\n").split("\n"):
        if line.startswith("$ "):
            found.append((line[2:], []))
        elif found:
            found[-1][1].append(line)
    return found


def run(command: str) -> list[str]:
    """The lines a terminal shows for ``command`` (stdout and stderr), after its pipe."""
    from click.testing import CliRunner

    from crystalpick.cli.main import cli

    piped = PIPE.search(command)
    words = shlex.split(command[:piped.start()] if piped else command)
    if words[0] != "crystalpick":
        raise SystemExit(f"example {command!r}: only crystalpick commands are run")
    result = CliRunner().invoke(cli, words[1:])
    if result.exit_code != 0:
        raise SystemExit(f"example {command!r} failed ({result.exit_code}): {result.output}"
                         + (f"{result.exception!r}" if result.exception else ""))
    lines = result.output.rstrip("\n").split("\n") if result.output.strip() else []
    if piped:
        count = int(piped.group(2))
        lines = lines[-count:] if piped.group(1) == "tail" else lines[:count]
    return lines


@contextmanager
def scratch():
    """A fresh folder, current while the page's commands run, with its own results
    database (XDG_DATA_HOME)."""
    before, data = os.getcwd(), os.environ.get("XDG_DATA_HOME")
    with tempfile.TemporaryDirectory() as folder:
        os.chdir(folder)
        os.environ["XDG_DATA_HOME"] = os.path.join(folder, "data")
        try:
            yield
        finally:
            os.chdir(before)
            if data is None:
                os.environ.pop("XDG_DATA_HOME", None)
            else:
                os.environ["XDG_DATA_HOME"] = data


def examples(text: str):
    """The page's example blocks (match, commands); synopsis blocks left out."""
    for match in BLOCK.finditer(text):
        found = commands(match.group(1))
        if any(shown for _, shown in found):
            yield match, found


def check_page(page: Path) -> tuple[str, list[str]]:
    """The page with its stale outputs regenerated, and the stale commands."""
    text = page.read_text(encoding="utf-8")
    blocks = list(examples(text))
    if not blocks:
        return text, []
    pieces, position, stale = [], 0, []
    with scratch():
        for command in SETUP.get(page.name, []):
            run(command)
        for match, found in blocks:
            lines = []
            for command, shown in found:
                output = run(command)
                if not current(shown, output):
                    stale.append(command)
                    shown = regenerated(shown, output)
                lines += ["$ " + command, *shown]
            pieces += [text[position:match.start()], "```console\n" + "\n".join(lines) + "\n```"]
            position = match.end()
    pieces.append(text[position:])
    return "".join(pieces), stale


def main(arguments: list[str]) -> int:
    check = "--check" in arguments
    pages = [Path(a).resolve() for a in arguments if a != "--check"] or PAGES
    found = 0
    for page in pages:
        fresh, stale = check_page(page)
        found += len(stale)
        for command in stale:
            print(f"{page.relative_to(ROOT)}: stale example: {command}")
        if stale and not check:
            page.write_text(fresh, encoding="utf-8")
    if check and found:
        print("regenerate with: python bench/doc_examples.py")
    elif not check:
        print(f"{found} examples regenerated" if found else "the examples are current")
    return 1 if check and found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
