"""No text file of the repository keeps a merge's conflict markers (one reached main inside
docs/architecture.md: nothing else would have noticed)."""
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SKIPPED = {".venv", "build", ".git", "node_modules", "__pycache__"}
SUFFIXES = {".py", ".pyx", ".pxd", ".md", ".toml", ".cfg", ".txt", ".yml", ".yaml"}
MARKERS = ("<<<<<<< ", ">>>>>>> ")   # a line of "=" alone is also a Markdown heading


def text_files(folder: Path):
    for path in folder.iterdir():
        if path.name in SKIPPED or path.name.startswith(".venv"):
            continue
        if path.is_dir():
            yield from text_files(path)
        elif path.suffix in SUFFIXES:
            yield path


def conflicted(path: Path) -> list[int]:
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    return [number for number, line in enumerate(lines, 1) if line.startswith(MARKERS)]


def test_no_file_keeps_conflict_markers():
    found = {str(path.relative_to(ROOT)): lines for path in text_files(ROOT)
             if (lines := conflicted(path))}
    assert found == {}


def test_the_markers_are_found(tmp_path):
    """The check can fail."""
    page = tmp_path / "page.md"
    page.write_text("a\n<<<<<<< HEAD\nb\n=======\nc\n>>>>>>> branch\n", encoding="utf-8")
    assert conflicted(page) == [2, 6]
