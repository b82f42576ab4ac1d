"""A line of a score table: every point kscore awards is one of these.

Properties, variant bonuses, quests, giants, coins, buildings... each produce
ScoreLines, so a player can check every point and --json can list them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ScoreLine:
    kind: str  # e.g. "bonus", "quest", "giants", "coins", "building", "queen", "totem"
    name: str  # e.g. "middle-kingdom", "folie-des-grandeurs"
    points: int
    reason: str  # one sentence a player can check against the kingdom


def count(n: int, word: str, plural: str | None = None) -> str:
    """`1 giant`, `2 giants`, `0 territories`: a number with its noun agreeing (never "giant(s)")."""
    return f"{n} {word if n == 1 else (plural or word + 's')}"
