"""Ctrl-C around work that has no stop flag of its own."""
from __future__ import annotations

import threading


def abandon_on_interrupt(work):
    """Run ``work`` (a native loop with no stop flag: perft, bench) on a daemon thread while
    this one waits, so Ctrl-C raises KeyboardInterrupt here at once; the abandoned loop ends
    with the process."""
    outcome = {}

    def target():
        try:
            outcome["value"] = work()
        except BaseException as err:   # handed to the waiting thread
            outcome["error"] = err

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    while thread.is_alive():
        thread.join(0.02)
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]
