"""The errors kscore reports to a user as one line on stderr (never a traceback).

Each carries the exit code the CLI returns: 2 bad input, 3 nothing recognisable.
"""

from __future__ import annotations

import re

#: A message quotes the user's token; a pasted 10 MB token must not become a 10 MB line.
_LONG_RUN = re.compile(r"\S{61,}")


#: Characters that would move the terminal's cursor or break the line, shown escaped instead.
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029]")


def _cut(text: str) -> str:
    """One printable line: control characters escaped (a CR in a quoted token would overwrite the
    line), each run of more than 60 non-space characters kept to its first 40 and last 8."""
    text = _CONTROL.sub(lambda m: repr(m[0])[1:-1], text)
    return _LONG_RUN.sub(lambda m: f"{m[0][:40]}...({len(m[0])} characters)...{m[0][-8:]}", text)


class KscoreError(Exception):
    """Bad input a user can fix; str(error) is the whole one-line message."""

    exit_code = 2


class KingdomFormatError(KscoreError):
    """A kingdom text file that does not follow the format.

    Renders as `file:line:col: message (expected ...)`; line/col are 1-based and
    omitted when the problem is the whole file (unreadable, empty...).
    """

    def __init__(self, message: str, source: str = "<text>", line: int | None = None,
                 col: int | None = None, expected: str | None = None) -> None:
        self.message, self.source, self.line, self.col, self.expected = message, source, line, col, expected
        super().__init__(self._render())

    def _render(self) -> str:
        where = self.source
        if self.line is not None:
            where += f":{self.line}"
            if self.col is not None:
                where += f":{self.col}"
        text = f"{where}: {_cut(self.message)}"
        if self.expected:
            text += f" (expected {_cut(self.expected)})"
        return text


class NothingRecognisedError(KscoreError):
    """A photo in which no kingdom could be found (exit code 3)."""

    exit_code = 3
