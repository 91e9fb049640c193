"""The commands README.md and docs/*.md show keep working as the pages say.

Every command shown (a line of a code block, ``$ `` optional, or an inline code span in the
prose) names a real command and only options that command has. Every concrete one (no
``[optional]`` part, no ``...``, no placeholder such as GAME or FILE) is either run, in the
order of RUN, in one scratch folder with its own results database, or listed in NOT_RUN with
the reason; both lists must name commands the pages still show. The pages' example outputs
are checked by tests/test_doc_examples.py; bench's pinned signature by tests/test_bench_command.py
(and docs/search.md quotes it: checked here).
"""
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from crystalpick.cli.main import cli
from test_bench_command import BENCH_SIGNATURE

ROOT = Path(__file__).resolve().parent.parent
# The user pages; docs/research/ (the research record, dated commands of its builds) is not
# read: its commands are the record of what was run, not instructions kept current.
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"```[a-z]*\n(.*?)```", re.S)
SPAN = re.compile(r"`(crystalpick [^`]*)`")
PLACEHOLDER = re.compile(r"\[|\.\.\.|\b[A-Z][A-Z_]+\b")
OPTION = re.compile(r"--?[a-z][a-z0-9-]*")

# Cheap (seconds at most), run in this order: later ones read what earlier ones wrote.
RUN = (
    "crystalpick games",
    "crystalpick games maatatahay",
    "crystalpick engines",
    'crystalpick moves mattock "5/3-x1/1o-4/6o1/9/1x6/5x1/2o3/5 x" --json',
    'crystalpick show cardbattle --seed 7 --deck titas --deck arsenal --moves "keep keep"',
    'crystalpick show cardbattle --seed 7 --moves "keep keep toss:P2 call:forca" --svg view.svg',
    'crystalpick show maatatahay --seed 3 --moves "B1+W10 first:W c4> load:e a2^ load:-"',
    'crystalpick analyse mattock --moves "h5/h4-h5 g3" --depth 5 --multipv 3',
    "crystalpick analyse maatatahay --seed 7 --engine mcts:sims=5000 --multipv 3",
    "crystalpick analyse mattock --engine mcts:sims=1000 --seed 2 --multipv 2",
    'crystalpick analyse cardbattle --seed 7 --moves "keep keep toss:P2 call:forca" --seat first',
    "crystalpick analyse cardbattle --seed 5 --engine mccfr:root=view,horizon=1,time=1",
    'crystalpick solve mattock "3-1/-2---/o-1-2-/1-1x-1--/-1-2--2/-x-2-2/3-1x1/-1--oo/--3 o"',
    "crystalpick solve cardbattle --config open-3",
    "crystalpick match mattock --engine alphabeta:depth=3 --engine greedy --games 2 --seed 5 "
    "--records games.rec",
    "crystalpick annotate mattock games.rec --nodes 20000 --seed 1 -o annotated.rec",
    "crystalpick replay annotated.rec --game 2 --ply 7",
    "crystalpick match mattock --engine greedy --engine random --games 2 --seed 4 "
    "--records greedy-random.rec",
    "crystalpick cards --family robo --kind creature --sort forca",
    "crystalpick match cardbattle --engine greedy --engine random --games 100 --seed 1",
    "crystalpick results",
)
MINUTES = "a match or a search of minutes to hours (the page quotes its result)"
PICTURE = ("draws the page's own picture in docs/img: tests/test_plots.py, test_svg.py and "
           "test_svg_lines.py draw each kind")
NOT_RUN = {
    "crystalpick bench": "tests/test_bench_command.py runs it and pins its signature",
    "crystalpick engine mattock": "reads the protocol on stdin: tests/test_protocol.py",
    "crystalpick play cardbattle --engine greedy --seed 7": "a game played at the keyboard: "
                                                           "tests/test_cli_play.py",
    "crystalpick annotate cardbattle games.rec --sims 5000 -o annotated.rec":
        "needs a card battle games.rec, which no page makes",
    "crystalpick analyse cardbattle --record games.rec --ply 40":
        "needs a card battle games.rec: tests/test_cardbattle_knowledge.py writes one and "
        "analyses it",
    "crystalpick show cardbattle --cardset my-cards.toml --deck mine.toml --deck theirs.json":
        "the reader's own card set and decks",
    "crystalpick match mattock --engine mcts:time=0.2 --engine alphabeta:time=0.2 --games 200 "
    "--concurrency 2": MINUTES,
    "crystalpick match mattock --engine mcts:time=1 --engine alphabeta:time=1 --games 2000": MINUTES,
    "crystalpick match cardbattle --engine ismcts:sims=20000 --engine greedy --games 200 --seed 1":
        MINUTES,
    "crystalpick match cardbattle --engine ismcts:time=1 --engine greedy --games 200 --seed 43 "
    "--concurrency 2": MINUTES,
    "crystalpick deck cardbattle --deck titas --against arsenal --improve 1": MINUTES,
    "crystalpick deck cardbattle --deck titas --against arsenal --against mista --games 100 "
    "--improve 1 --seed 1": MINUTES,
    "crystalpick solve mattock --time 3600 --resume mattock-start.table": MINUTES,
    "crystalpick match --openings": "names an option in the prose",
    "crystalpick match maatatahay --engine mcts:sims=100 --engine alphabeta:depth=1 --games 40 "
    "--seed 5 --sprt elo0=0,elo1=30,model=logistic": "run and its output checked by "
                                                     "tests/test_doc_examples.py",
    "crystalpick tournament mattock --engine alphabeta:depth=2 --engine greedy --engine random "
    "--games-per-pair 4 --seed 3": "run and its output checked by tests/test_doc_examples.py",
    'crystalpick analyse cardbattle --seed 7 --moves "keep keep toss:P2 call:forca" --sims 3000 '
    "--hands 3": "run and its output checked by tests/test_doc_examples.py",
    "crystalpick play cardbattle --engine greedy --human first": "a game played at the "
                                                                 "keyboard: tests/test_cli_play.py",
    **{command: PICTURE for command in (
        'crystalpick analyse mattock --moves "h5/h4-h5 g3" --depth 3 --multipv 3 --svg '
        'docs/img/mattock-board.svg',
        'crystalpick analyse cardbattle --seed 3 --moves "keep keep toss:P1 call:forca" '
        '--sims 300 --svg docs/img/cardbattle-lines.svg',
        'crystalpick analyse cardbattle --seed 3 --moves "keep keep toss:P1" --sims 300 '
        '--svg docs/img/cardbattle-call.svg',
        "crystalpick annotate mattock greedy-random.rec --engine alphabeta --nodes 20000 "
        "--seed 1 --plot docs/img/annotate.svg",
        "crystalpick bench --plot docs/img/bench.svg",
        "crystalpick deck cardbattle --deck titas --against arsenal --against mista --games 20 "
        "--seed 1 --plot docs/img/deck.svg",
        "crystalpick match maatatahay --engine mcts:sims=100 --engine alphabeta:depth=1 "
        "--games 40 --seed 5 --sprt elo0=0,elo1=30,model=logistic --plot docs/img/match.svg",
        "crystalpick show cardbattle --seed 2 --svg docs/img/cardbattle-view.svg")},
}


def clean(command: str) -> str:
    """One command: a trailing comment, a pipe into another program and a line
    continuation cut off, spaces normalised."""
    command = re.split(r"\s#\s|\s\|\s*(?:tail|head|grep|less)\b", command)[0]
    return " ".join(command.removesuffix("\\").split())


def documented() -> list[tuple[str, str, bool]]:
    """(page, command, in prose) for every crystalpick command the pages show."""
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for block in FENCE.finditer(text):
            for line in block.group(1).splitlines():
                line = line.strip().removeprefix("$ ")
                if line.startswith("crystalpick "):
                    found.append((page.name, clean(line), False))
        prose = FENCE.sub("", text).replace("\n", " ")
        found += [(page.name, clean(span), True) for span in SPAN.findall(prose)]
    return found


def concrete(command: str, in_prose: bool) -> bool:
    """A command as a reader would type it: no placeholder, and in the prose more than a
    command's bare name."""
    return not PLACEHOLDER.search(command) and not (in_prose and len(command.split()) < 3)


def words(command: str) -> list[str]:
    try:
        return shlex.split(command)
    except ValueError:                # an unbalanced quote in a shortened synopsis
        return command.split()


@pytest.mark.parametrize("page, command, in_prose", documented())
def test_a_documented_command_names_a_real_command_and_its_options(page, command, in_prose):
    name, *rest = words(command.replace("[", " ").replace("]", " "))[1:]
    assert name in cli.commands, f"{page}: {command}: no command {name!r}"
    params = cli.commands[name].params
    known = {opt for param in params for opt in param.opts + param.secondary_opts}
    for word in rest:
        flag = word.split("=")[0]
        if OPTION.fullmatch(flag):
            assert flag in known | {"--help"}, f"{page}: {command}: {name} has no {flag}"


def test_every_concrete_documented_command_is_run_or_says_why_not():
    shown = {command for _, command, in_prose in documented() if concrete(command, in_prose)}
    assert shown - set(RUN) - set(NOT_RUN) == set()
    assert (set(RUN) | set(NOT_RUN)) - shown == set()       # the lists follow the pages


@pytest.mark.slow
def test_the_cheap_documented_commands_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    for command in RUN:
        result = CliRunner().invoke(cli, words(command)[1:])
        assert result.exit_code == 0, f"{command}:\n{result.output}"


def test_docs_quote_the_pinned_bench_signature():
    text = (ROOT / "docs" / "search.md").read_text(encoding="utf-8")
    assert f"pinned signature is {BENCH_SIGNATURE:,}" in text.replace("\n", " ")
