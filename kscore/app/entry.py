"""The console script `kscore`: the first code that runs, kept tiny.

Importing the command line (typer, rich, the rules) takes a tenth of a second or
more; a Ctrl-C in that time must end with one line and exit code 130, not a
traceback, so the import happens inside the handler. `kscore --version` needs none of it.
Python 3.11 wraps a Ctrl-C that lands while a class is being made (a dataclass field's
`__set_name__`) in a RuntimeError; that is a Ctrl-C too (`interrupted_by_ctrl_c`).

BLAS runs one thread (unless the user's OPENBLAS_NUM_THREADS says otherwise): the
reader's matrices are small, and OpenBLAS's second thread only spins. On 30 photos
(mostly board crops) it cost 3.6 s of CPU instead of 2.5 s, and 7.1 s of wall instead
of 5.2 s on a busy machine. It must be said before numpy loads, so here; the `--jobs`
workers inherit it, and one thread count for all keeps their readings identical to
`--jobs 1`'s (thread counts change float sums in the last bits).
"""

from __future__ import annotations

import os
import sys

from kscore.app.interrupt import say_interrupted


def one_blas_thread(environ=os.environ) -> None:
    """BLAS (numpy's and OpenCV's OpenBLAS) on one thread unless the user chose a count."""
    environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def interrupted_by_ctrl_c(error: BaseException) -> bool:
    """Whether `error` is a Ctrl-C or was raised because of one (its causes, followed).

    >>> interrupted_by_ctrl_c(KeyboardInterrupt())
    True
    >>> wrapped = RuntimeError("Error calling __set_name__")
    >>> wrapped.__cause__ = KeyboardInterrupt()
    >>> interrupted_by_ctrl_c(wrapped), interrupted_by_ctrl_c(ValueError("bad"))
    (True, False)
    """
    seen = set()
    while error is not None and id(error) not in seen:
        if isinstance(error, KeyboardInterrupt):
            return True
        seen.add(id(error))
        error = error.__cause__ or error.__context__
    return False


def main() -> None:
    one_blas_thread()
    try:
        if sys.argv[1:] == ["--version"]:
            from kscore import __version__

            print(f"kscore {__version__}")
            return
        from kscore.app.cli import main as run

        run()
    except KeyboardInterrupt:
        say_interrupted()
    except Exception as error:  # SystemExit passes: a command that already said why it ended
        if not interrupted_by_ctrl_c(error):
            raise
        say_interrupted()


if __name__ == "__main__":
    main()
