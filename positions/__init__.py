"""Position suites as data (perft tables, bench positions, opening sets), shipped in the wheel."""
from importlib import resources


def read_text(name: str) -> str:
    """The text of a data file in this package, wherever the package is installed."""
    return resources.files(__name__).joinpath(name).read_text(encoding="utf-8")
