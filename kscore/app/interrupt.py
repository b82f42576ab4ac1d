"""How kscore ends on a Ctrl-C: one line, exit code 130, whatever it was doing."""

from __future__ import annotations

import os
import signal
import sys

#: The exit code of a command ended by Ctrl-C (128 + SIGINT, as a shell reports it).
INTERRUPTED = 130


def say_interrupted() -> None:
    """Say "kscore: interrupted" and end the process with INTERRUPTED.

    Leaving through the interpreter's shutdown (SystemExit), a Ctrl-C landing while kscore's
    modules load (a tenth of a second in, inside typer) now and then ended the process by the
    signal after this line was printed: exit -2, 2 of 127 interrupted runs of `python -m
    kscore.app.entry`, and tests/test_cli_faults.py failing under load. Why was not found: SIGINT
    is ignored before the line. Ending the process here, its output flushed, gave 0 of 192 (files
    are written whole or not at all: pipeline.write_whole, so shutdown has nothing to finish).
    Not when multiprocessing is loaded: the interpreter's shutdown releases `--jobs` workers'
    semaphores (its resource tracker warns otherwise), and by then the imports are done.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C while leaving is not a traceback either
    print("kscore: interrupted", file=sys.stderr)
    if "multiprocessing" in sys.modules:
        sys.exit(INTERRUPTED)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a reader gone, a stream closed: nothing more to say there
            pass
    os._exit(INTERRUPTED)


__all__ = ["INTERRUPTED", "say_interrupted"]
