"""The layers the folders show, checked: a module imports only its own layer or lower ones,
counting every import (one inside a function too) and Cython's cimports. The order is the
one docs/architecture.md draws; `positions` is data the engine reads, below everything."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import crystalpick.search

LAYERS = ("positions", "engine", "search", "solvers", "apps", "cli")
NAMESPACE = "crystalpick"
ROOT = Path(crystalpick.search.__file__).parent.parent
CIMPORT = re.compile(r"^\s*(?:from\s+(\.*[\w.]*)\s+c?import|c?import\s+([\w.]+))", re.M)


def imported_modules(path: Path, package: str) -> set[str]:
    """Every module ``path`` imports, absolute, anywhere in its text (for Cython files, every
    ``import``/``cimport`` line)."""
    def absolute(module: str | None, level: int) -> str:
        if not level:
            return module or ""
        base = package
        for _ in range(level - 1):
            base = base.rpartition(".")[0]
        return f"{base}.{module}" if module else base

    if path.suffix == ".py":
        found = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                found.add(absolute(node.module, node.level))
        return found
    found = set()
    for relative, plain in CIMPORT.findall(path.read_text()):
        if plain:
            found.add(plain)
        else:
            dots = len(relative) - len(relative.lstrip("."))
            found.add(absolute(relative.lstrip(".") or None, dots))
    return found


def layer_of(module: str, layers=LAYERS) -> int | None:
    parts = module.split(".")
    if len(parts) > 1 and parts[0] == NAMESPACE and parts[1] in layers:
        return layers.index(parts[1])
    return None


def upward_imports(root: Path, layers=LAYERS) -> list[str]:
    """``file -> module`` for each import of a higher layer than the file's own."""
    found = []
    for own, layer in enumerate(layers):
        folder = root / layer
        for path in sorted(folder.rglob("*")):
            if path.suffix not in (".py", ".pyx", ".pxd") or "build" in path.parts:
                continue
            parts = path.relative_to(root).with_suffix("").parts
            package = ".".join((NAMESPACE, *parts[:-1]))     # __init__'s too: its own
            for module in sorted(imported_modules(path, package)):
                other = layer_of(module, layers)
                if other is not None and other > own:
                    found.append(f"{path.relative_to(root)} -> {module}")
    return found


def test_every_layer_imports_only_downwards():
    assert all((ROOT / layer).is_dir() for layer in LAYERS), ROOT
    assert upward_imports(ROOT) == []


def test_the_walk_reads_every_layer():
    """The check sees real imports: the CLI imports the applications, the applications the
    searchers, the solvers the engine (so an empty walk cannot pass)."""
    def imports(path, package):
        return imported_modules(ROOT / path, package)
    assert "crystalpick.apps.match.session" in imports("cli/matches.py", "crystalpick.cli")
    assert "crystalpick.search.executors" in imports("apps/annotate.py", "crystalpick.apps")
    assert any(module.startswith("crystalpick.engine")
               for module in imports("solvers/exact/tree.py", "crystalpick.solvers.exact"))
    assert "crystalpick.engine.kernel" in imports("search/mcts.pyx", "crystalpick.search")


def test_an_upward_import_is_found(tmp_path):
    """The check can fail: a late relative import, a plain import and a Cython cimport of a
    higher layer are each reported; imports downwards and sideways are not."""
    layers = ("low", "high")
    for layer in layers:
        (tmp_path / layer).mkdir()
        (tmp_path / layer / "__init__.py").write_text("")
    (tmp_path / "low" / "late.py").write_text("def f():\n    from ..high import thing\n")
    (tmp_path / "low" / "plain.py").write_text("import crystalpick.high.deep\n")
    (tmp_path / "low" / "fast.pyx").write_text("from crystalpick.high.kernel cimport K\n")
    (tmp_path / "low" / "fine.py").write_text("from . import late\nimport os\n")
    (tmp_path / "high" / "user.py").write_text("from crystalpick.low import late\n")
    assert upward_imports(tmp_path, layers) == [
        "low/fast.pyx -> crystalpick.high.kernel",
        "low/late.py -> crystalpick.high",
        "low/plain.py -> crystalpick.high.deep",
    ]
