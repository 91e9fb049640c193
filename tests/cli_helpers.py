"""Running a command in-process and what a refusal must look like (exit 2, one line naming
the bad part, no traceback), shared by the tests of bad input."""
from click.testing import CliRunner

from crystalpick.cli.main import cli


def run(*args, stdin=None):
    return CliRunner().invoke(cli, [str(arg) for arg in args], input=stdin)


def refused(result, fragment):
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert fragment in result.output, result.output
    assert len(result.output.strip().splitlines()) == 1, result.output
