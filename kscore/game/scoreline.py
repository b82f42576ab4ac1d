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
