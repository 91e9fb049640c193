"""The user docs stay docs for users: no build hashes and no session narrative (those belong
to docs/research/, the record of how each method was chosen), and the two long pages within
the sizes a reader can take in (issue 44)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
USER_DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# a commit id as the record writes them: 7 to 40 hex digits with a letter and a digit
BUILD_HASH = re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b")
NARRATIVE = re.compile(r"\b(session|stop) \d+\b", re.IGNORECASE)
MOST_LINES = {"cardbattle.md": 500, "search.md": 600}


def offending(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines()
            if BUILD_HASH.search(line) or NARRATIVE.search(line)]


@pytest.mark.parametrize("page", USER_DOCS, ids=lambda page: page.name)
def test_a_user_page_names_no_build_and_no_session(page):
    assert offending(page.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("name, most", sorted(MOST_LINES.items()))
def test_the_long_pages_stay_readable(name, most):
    assert len((ROOT / "docs" / name).read_text(encoding="utf-8").splitlines()) <= most


def test_the_check_finds_a_build_and_a_session():
    """It can fail: a hash and a session number are found, card numbers and words are not."""
    assert offending("measured on build 4fc2a17\nin session 12 we tried") == [
        "measured on build 4fc2a17", "in session 12 we tried"]
    assert offending("play:25 Lanceiro de Ferro, 1,000 simulations, deadbeef") == []
