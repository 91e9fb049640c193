"""A signal that lands while a compiled module initialises (scipy's, imported late by a
command) surfaces as "ImportError: initialization failed", not KeyboardInterrupt; found by
tests/test_fuzz_signals.py as a traceback with exit 1. It ends as any interruption does."""
import signal

import pytest

from crystalpick.apps.match import db as results_db
from crystalpick.cli import interrupts

from cli_helpers import run


def failing_import(*args, **kwargs):
    raise ImportError("initialization failed")


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_an_import_failing_after_a_signal_is_the_interruption(monkeypatch, signum):
    monkeypatch.setattr(results_db, "default_path", failing_import)
    monkeypatch.setattr(interrupts.RUNNER, "signum", signum)
    result = run("results")
    assert result.exit_code == 128 + signum, result.output
    assert "interrupted" in result.output and "Traceback" not in result.output


def test_an_import_failing_with_no_signal_is_not_hidden(monkeypatch):
    monkeypatch.setattr(results_db, "default_path", failing_import)
    monkeypatch.setattr(interrupts.RUNNER, "signum", None)
    result = run("results")
    assert isinstance(result.exception, ImportError)
