"""The console script `kscore`: the first code that runs, kept tiny.

Importing the command line (typer, rich, the rules) takes a tenth of a second or
more; a Ctrl-C in that time must end with one line and exit code 130, not a
traceback, so the import happens inside the handler. `kscore --version` needs none of it.
"""

from __future__ import annotations

import signal
import sys


def main() -> None:
    try:
        if sys.argv[1:] == ["--version"]:
            from kscore import __version__

            print(f"kscore {__version__}")
            return
        from kscore.app.cli import main as run

        run()
    except KeyboardInterrupt:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C while saying so is not a traceback either
        print("kscore: interrupted", file=sys.stderr)
        sys.exit(130)


if __name__ == "__main__":
    main()
