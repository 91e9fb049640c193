"""Shared helpers for the pytest-benchmark suites (run: pytest bench --benchmark-enable)."""
import pytest


@pytest.fixture
def record_rate(benchmark):
    """After a benchmark, store nodes and nodes/second (from the mean time) in extra_info."""
    def record(nodes: int, unit: str = "nodes"):
        benchmark.extra_info[unit] = nodes
        stats = benchmark.stats
        if stats is not None and stats.stats.mean > 0:   # None under --benchmark-disable
            benchmark.extra_info[f"{unit}_per_second"] = round(nodes / stats.stats.mean)
    return record
