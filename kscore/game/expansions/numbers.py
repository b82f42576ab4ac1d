"""Whole numbers typed in a kingdom's `key: value` lines, read the same strict way everywhere.

ASCII digits only: `²` passes str.isdigit() and `int()` refuses it; and at most
MAX_DIGITS of them, so a pasted 10 MB number is an error, not Python's own
4,300-digit limit (or a score too long to print) deep inside the scoring.
"""

from __future__ import annotations

import re

from kscore.game.expansions.errors import ExtrasError

#: Nothing in a game of Kingdomino comes near a billion.
MAX_DIGITS = 9

DIGITS = re.compile(r"[0-9]+")


def shown(text: str, limit: int = 24) -> str:
    """A user's value as quoted in a message, cut to `limit` characters."""
    text = text.strip()
    return repr(text) if len(text) <= limit else repr(text[:limit]) + f"... ({len(text)} characters)"


def whole_number(key: str, text: str) -> int:
    """`text` as a whole number >= 0, or an ExtrasError about `key` saying what was wrong."""
    digits = text.strip()
    if not DIGITS.fullmatch(digits):
        sign = digits.startswith("-") and DIGITS.fullmatch(digits[1:])
        raise ExtrasError(key, f"cannot be negative ({shown(digits)})" if sign else
                          f"expected a whole number, got {shown(digits)} (digits 0-9 only)")
    return checked(key, digits)


def checked(key: str, digits: str) -> int:
    """ASCII digits (already matched) -> int, refusing more than MAX_DIGITS significant ones."""
    if len(digits.lstrip("0")) > MAX_DIGITS:
        raise ExtrasError(key, f"number too large ({len(digits)} digits; at most {MAX_DIGITS})")
    return int(digits)
