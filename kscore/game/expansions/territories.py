"""Territories (properties) as the expansion rules need them.

A territory is a maximal edge-connected group of squares of one scoring
terrain (castle, empty and volcano squares belong to none), exactly as
rules.md section 1 defines a property. The expansions need more than the
score of each one: their size, crowns printed and crowns counted (not under
a giant), and a stable name for messages.
"""

from __future__ import annotations

from dataclasses import dataclass

from kscore.game.kingdom import Kingdom, Position, Terrain, square_name
from kscore.game.properties import find_properties


@dataclass(frozen=True)
class Territory:
    terrain: Terrain
    squares: tuple[Position, ...]  # reading order (row, then column)
    crowns: int  # printed crowns (fires in Origins), giants ignored
    counted_crowns: int  # crowns not under a giant: what scores

    @property
    def size(self) -> int:
        return len(self.squares)

    @property
    def giants(self) -> int:
        return self.crowns - self.counted_crowns

    @property
    def score(self) -> int:
        return self.size * self.counted_crowns

    def describe(self) -> str:
        """e.g. "the forest territory at row 1, column 2 (4 squares)"."""
        plural = "" if self.size == 1 else "s"
        return f"the {self.terrain.value} territory at {square_name(self.squares[0])} ({self.size} square{plural})"


def find_territories(kingdom: Kingdom) -> list[Territory]:
    """Every territory of the kingdom, in reading order of its first square.

    The grouping is the core's (properties.find_properties); this adds the printed crowns.
    """
    return [
        Territory(p.terrain, p.positions, sum(kingdom[q].crowns for q in p.positions), p.crowns)
        for p in find_properties(kingdom)
    ]


def largest_territory(kingdom: Kingdom) -> Territory | None:
    """The largest territory; on equal sizes the first in reading order."""
    best: Territory | None = None
    for territory in find_territories(kingdom):  # reading order: keep the first of equals
        if best is None or territory.size > best.size:
            best = territory
    return best
