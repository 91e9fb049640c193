"""No import cycles among the modules of any layer (engine, search, solvers, apps, cli),
counting every import, also one inside a function: a circle dodged by a late import is still
a circle (issue 31)."""
from __future__ import annotations

import ast
from pathlib import Path

import crystalpick.apps
import crystalpick.cli
import crystalpick.engine
import crystalpick.search
import crystalpick.solvers

SEARCH = Path(crystalpick.search.__file__).parent
PACKAGE = "crystalpick.search"


def module_names(folder: Path, package: str) -> tuple[dict[str, Path], set[str]]:
    """The Python modules under ``folder`` by import name, and the compiled ones (``.pyx``,
    leaves here: their cimports are resolved at build time)."""
    def name(path: Path) -> str:
        parts = [package, *path.relative_to(folder).with_suffix("").parts]
        return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
    return ({name(path): path for path in folder.rglob("*.py")},
            {name(path) for path in folder.rglob("*.pyx")})


def import_graph(folder: Path, package: str) -> dict[str, set[str]]:
    """Module -> the modules of ``package`` it imports, anywhere in its text."""
    modules, compiled = module_names(folder, package)
    known = set(modules) | compiled
    graph = {}
    for name, path in modules.items():
        here = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = here
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                module = (f"{base}.{node.module}" if node.module else base) if node.level \
                    else node.module
                targets = [module] + [f"{module}.{alias.name}" for alias in node.names]
            else:
                continue
            for target in targets:
                while target and target not in known:
                    target = target.rpartition(".")[0]
                if target in modules and target != name:
                    edges.add(target)
        graph[name] = edges
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_search_modules_import_without_cycles():
    graph = import_graph(SEARCH, PACKAGE)
    assert f"{PACKAGE}.engines.mcts" in graph     # the walk found the modules
    assert cycles(graph) == []


def test_the_solver_and_application_modules_import_without_cycles():
    solvers = import_graph(Path(crystalpick.solvers.__file__).parent, "crystalpick.solvers")
    assert "crystalpick.solvers.exact.tree" in solvers["crystalpick.solvers.exact.solver"]
    apps = import_graph(Path(crystalpick.apps.__file__).parent, "crystalpick.apps")
    assert "crystalpick.apps.match.runner" in apps["crystalpick.apps.match.session"]
    assert cycles(solvers) == [] and cycles(apps) == []


def test_the_engine_modules_import_without_cycles():
    """A game package's fast state asks its Game for the reference rules (reference_state)
    instead of importing the reference module, which builds on the state."""
    graph = import_graph(Path(crystalpick.engine.__file__).parent, "crystalpick.engine")
    assert "crystalpick.engine.cardbattle.steps" in graph["crystalpick.engine.cardbattle.state"]
    assert cycles(graph) == []


def test_the_cli_modules_import_without_cycles():
    """The commands register on the group in cli/main.py; none imports it back."""
    graph = import_graph(Path(crystalpick.cli.__file__).parent, "crystalpick.cli")
    assert "crystalpick.cli.analyse" in graph["crystalpick.cli.main"]
    assert cycles(graph) == []


def test_a_cycle_is_found(tmp_path):
    """The check can fail: a late import that closes a circle is a cycle."""
    (tmp_path / "__init__.py").write_text("")
    (tmp_path / "first.py").write_text("from .second import thing\n")
    (tmp_path / "second.py").write_text("def thing():\n    from .first import other\n")
    (tmp_path / "third.py").write_text("from . import first\n")
    graph = import_graph(tmp_path, "pkg")
    assert cycles(graph) == [["pkg.first", "pkg.second"]]
