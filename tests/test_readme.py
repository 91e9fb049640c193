"""The README's example outputs are what the commands print today (bench/readme_examples.py
regenerates them), so they cannot go stale unnoticed."""
import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "bench" / "readme_examples.py"


def load():
    spec = importlib.util.spec_from_file_location("readme_examples", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_readme_examples_are_current(capsys):
    assert load().main(check=True) == 0, capsys.readouterr().out


def test_a_changed_output_is_reported_stale():
    module = load()
    shown = ["a", " ...", "position: x", "depth 5/5, 215,468 nodes in 1.52 s (141,350 nodes/s)"]
    fresh = module.shorten(shown, ["a", "b", "position: x",
                                   "depth 5/5, 215,468 nodes in 9.99 s (1 nodes/s)"])
    assert fresh == ["a", " ...", "position: x",
                     "depth 5/5, 215,468 nodes in 9.99 s (1 nodes/s)"]
    assert not module.stale(shown, fresh)           # only the time changed
    assert module.stale(shown, fresh[:-1] + ["depth 5/5, 215,469 nodes in 1.52 s (1 nodes/s)"])
