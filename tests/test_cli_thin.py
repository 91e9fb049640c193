"""The command line stays a thin edge (issue 31): every command function parses, calls one
library function and prints, so none grows much past 40 lines; one that does holds logic
that belongs in search/ or engine/ (docs/architecture.md, "cli/")."""
from __future__ import annotations

import ast
from pathlib import Path

import crystalpick.cli

CLI = Path(crystalpick.cli.__file__).parent
LONGEST = 45          # lines of a command function from `def` to its end, less its docstring


def command_lengths(folder: Path) -> dict[str, int]:
    """Every Click command function under ``folder`` (decorated by a ``command``) by
    ``module:name``: its lines without the docstring."""
    lengths = {}
    for path in sorted(folder.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.FunctionDef) or not any(
                    "command" in ast.unparse(decorator) for decorator in node.decorator_list):
                continue
            first = node.body[0]
            docstring = (first.end_lineno - first.lineno + 1
                         if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                         and isinstance(first.value.value, str) else 0)
            lengths[f"{path.stem}:{node.name}"] = node.end_lineno - node.lineno + 1 - docstring
    return lengths


def test_every_command_function_is_short():
    lengths = command_lengths(CLI)
    assert "analyse:analyse" in lengths and "matches:match" in lengths   # the walk found them
    assert {name: n for name, n in lengths.items() if n > LONGEST} == {}


def test_a_long_command_is_found(tmp_path):
    """The check can fail: a command function of 60 lines is reported."""
    body = "".join(f"    x{i} = {i}\n" for i in range(58))
    (tmp_path / "long.py").write_text(f'@command()\ndef long():\n    """Doc."""\n{body}')
    assert command_lengths(tmp_path) == {"long:long": 59}
