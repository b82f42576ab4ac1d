"""Age of Giants: giants standing on crowns, and what they cost.

Rules (rules.md section 4, kscore's reading):
- A giant stands on one crown of a square; that crown does not count. A square
  therefore carries at most as many giants as crowns (`M3g1`: 3 crowns, one
  under a giant; `M2g2`: none counts). More giants than crowns is an error.
- Only where the giants stand at the end matters: the kingdom text gives that.
- The core engine already scores each property with counted crowns (crowns
  minus giants). This module adds, per property holding a giant, one
  information line (0 points) with its score without and with the giants, so
  a player sees what the giants cost: e.g. a 4-square mine property with 5
  crowns, 2 under giants, scores 4 x 5 = 20 without them and 4 x 3 = 12 with
  them: the giants cost 8.
- Giants never raise a property's score, nor any quest's except Bleak King,
  which by its wording rewards a property with "no uncovered crown" (see
  quests.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from kscore.game.kingdom import Kingdom, square_name
from kscore.game.scoreline import ScoreLine, count
from kscore.game.expansions.errors import GiantsError
from kscore.game.expansions.territories import Territory, find_territories


@dataclass(frozen=True)
class GiantCost:
    territory: Territory

    @property
    def without_giants(self) -> int:
        return self.territory.size * self.territory.crowns

    @property
    def with_giants(self) -> int:
        return self.territory.size * self.territory.counted_crowns

    @property
    def cost(self) -> int:
        return self.without_giants - self.with_giants


def check_giants(kingdom: Kingdom) -> None:
    """Raise GiantsError naming every square with more giants than crowns."""
    bad = [
        f"{square_name(p)} has {s.giants} giant{'s' if s.giants != 1 else ''} but {s.crowns} crown{'s' if s.crowns != 1 else ''}"
        for p, s in kingdom.squares()
        if s.giants > s.crowns or s.giants < 0
    ]
    if bad:
        raise GiantsError("each giant stands on one crown: " + "; ".join(bad))


def giant_costs(kingdom: Kingdom) -> list[GiantCost]:
    """One entry per territory with at least one giant on it, in reading order."""
    if not total_giants(kingdom):  # most kingdoms: no territory search at all (files of thousands)
        return []
    return [GiantCost(t) for t in find_territories(kingdom) if t.giants > 0]


def total_giants(kingdom: Kingdom) -> int:
    return sum(s.giants for _, s in kingdom.squares())


def giants_lines(kingdom: Kingdom) -> list[ScoreLine]:
    """Information lines (0 points: the property lines already count the loss)."""
    check_giants(kingdom)
    lines = []
    for item in giant_costs(kingdom):
        t = item.territory
        lines.append(
            ScoreLine(
                "giants",
                "giants",
                0,
                f"{t.describe()}: {t.size} x {t.crowns} = {item.without_giants} without giants, "
                f"{t.size} x {t.counted_crowns} = {item.with_giants} with {count(t.giants, 'crown')} under "
                f"{'a giant' if t.giants == 1 else 'giants'}: "
                f"the giants cost {item.cost}",
            )
        )
    # A giant may also stand on a crown of a square outside every property
    # (not possible with real tiles, but say so rather than lose it).
    placed = sum(item.territory.giants for item in giant_costs(kingdom))
    stray = total_giants(kingdom) - placed
    if stray:
        lines.append(ScoreLine("giants", "giants", 0, f"{count(stray, 'giant')} on squares that belong to no property"))
    return lines
