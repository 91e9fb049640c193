"""Error messages of readable length, for every place that echoes user input back (the CLI's
one-line errors, the engine protocol's `info string error`)."""
from __future__ import annotations

LONGEST_MESSAGE = 400    # characters of an error message, which may echo the user's input


def shortened(message: str) -> str:
    """An error message of readable length: input echoed back in it (a pasted megabyte) is
    cut, saying how long the message was."""
    if len(message) <= LONGEST_MESSAGE:
        return message
    return f"{message[:LONGEST_MESSAGE]}... ({len(message):,} characters)"
