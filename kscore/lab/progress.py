"""Progress for the long lab commands (training, evaluation): one line per step on stderr, with the time.

stderr keeps stdout for the figures a script may parse; each line is flushed so a
person watching a 15-minute `kscore eval --cv` sees it move.
"""

from __future__ import annotations

import sys
import time


class Progress:
    def __init__(self, what: str, total: int | None = None, quiet: bool = False) -> None:
        self.what, self.total, self.quiet = what, total, quiet
        self.start = time.perf_counter()
        self.done = 0

    def say(self, text: str) -> None:
        if not self.quiet:
            print(f"{self.what}: {text} ({time.perf_counter() - self.start:.0f} s)", file=sys.stderr, flush=True)

    def step(self, text: str = "") -> None:
        """One of `total` steps done: `3/9 fold done (41 s, about 82 s left)`."""
        self.done += 1
        elapsed = time.perf_counter() - self.start
        left = ""
        if self.total and self.done < self.total:
            left = f", about {elapsed / self.done * (self.total - self.done):.0f} s left"
        if not self.quiet:
            count = f"{self.done}/{self.total}" if self.total else str(self.done)
            print(f"{self.what}: {count} {text} ({elapsed:.0f} s{left})".replace("  ", " "), file=sys.stderr,
                  flush=True)
