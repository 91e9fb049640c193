"""Every example output of README.md and docs/*.md is what its commands print today
(bench/doc_examples.py runs them; ``python bench/doc_examples.py`` regenerates the stale
ones), so no example goes stale unnoticed."""
import importlib.util
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "bench" / "doc_examples.py"
SLOW_PAGES = {"decks.md"}          # the deck advisor's example plays 11,424 games


def load():
    spec = importlib.util.spec_from_file_location("doc_examples", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


EXAMPLES = load()
PAGES = [page for page in EXAMPLES.PAGES
         if any(EXAMPLES.examples(page.read_text(encoding="utf-8")))]


def test_the_pages_with_examples_are_found():
    assert {"README.md", "decks.md", "exact.md"} <= {page.name for page in PAGES}


@pytest.mark.parametrize("page", [pytest.param(page, id=page.name, marks=[pytest.mark.slow]
                                               if page.name in SLOW_PAGES else [])
                                  for page in PAGES])
def test_the_examples_are_current(page):
    _, stale = EXAMPLES.check_page(page)
    assert not stale, (f"{page.name}: stale examples {stale}; regenerate with "
                       f"python bench/doc_examples.py {page.relative_to(EXAMPLES.ROOT)}")


def test_times_and_placeholders_are_not_compared_and_everything_else_is():
    shown = ["a", " ...", "position: x", "depth 5/5, 215,468 nodes in 1.52 s (141,350 nodes/s)",
             "match 1 in …/results.db"]
    output = ["a", "b", "c", "position: x",
              "depth 5/5, 215,468 nodes in 9.99 s (1 nodes/s)", "match 1 in /tmp/x/results.db"]
    assert EXAMPLES.current(shown, output)
    assert not EXAMPLES.current(shown, output[:4] + [output[4].replace("468", "469")]
                                + output[5:])
    assert not EXAMPLES.current(shown, output[:3] + output[4:])     # a shown line missing
    assert not EXAMPLES.current(["a", "b"], ["a", "b", "c"])      # no elision: every line


def test_a_stale_output_is_regenerated_cut_where_the_page_cuts_it():
    shown = ["first", "  ...", "total: 5 in 1.0 s", "seed: 1"]
    output = ["first", "x", "y", "total: 6 in 2.0 s", "seed: 1"]
    assert not EXAMPLES.current(shown, output)
    assert EXAMPLES.regenerated(shown, output) == ["first", "  ...", "total: 6 in 2.0 s",
                                                   "seed: 1"]
    times_only = ["first", "x", "y", "total: 5 in 2.0 s", "seed: 1"]
    assert EXAMPLES.regenerated(shown, times_only) == shown       # the quoted time is kept


def test_a_block_with_several_commands_is_an_example_of_each():
    body = "$ crystalpick a\none\n$ crystalpick b | tail -1\ntwo\n"
    assert EXAMPLES.commands(body) == [("crystalpick a", ["one"]),
                                       ("crystalpick b | tail -1", ["two"])]
    assert list(EXAMPLES.examples("```console\n$ crystalpick games [GAME]\n```")) == []
