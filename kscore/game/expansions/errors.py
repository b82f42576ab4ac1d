"""Errors raised while reading expansion data; all are ValueErrors with a readable message."""

from __future__ import annotations

from kscore.errors import KscoreError


class ExpansionError(KscoreError, ValueError):
    """Base of every error the expansion modules raise: bad input (exit 2), never an internal error.

    key: the header or per-kingdom key the problem is about (e.g. "quests",
    "buildings"), when there is one, so a parser can point at its line.
    position: the (row, column) of the square it is about, 0-based, so a parser
    can point at that square's line and column.
    """

    key: str | None = None
    position: tuple[int, int] | None = None


class ExtrasError(ExpansionError):
    """A per-kingdom `key: value` line that cannot be read.

    key: the offending key (e.g. "buildings"), so the text parser can turn the
    error into a file:line message.
    """

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}")
        self.key = key


class QuestError(ExpansionError):
    """A `quests:` header naming a quest kscore does not know, or one twice."""


class GameError(ExpansionError):
    """An unknown game, or a letter/feature that belongs to another game."""


class GiantsError(ExpansionError):
    """A square with more giants than crowns (each giant stands on one crown)."""
