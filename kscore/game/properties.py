"""Properties and the frame: the pure geometry of a kingdom every rule builds on.

A property is a maximal edge-connected group of squares of one scoring terrain
(rules.md section 1); it scores `squares x crowns`. The frame helpers say whether
the grid given is the whole 5x5/7x7 frame, which middle-kingdom, the quests and
the plausibility checks all need. Nothing here knows the variants or expansions.
"""

from __future__ import annotations

from dataclasses import dataclass

from kscore.game.kingdom import Kingdom, Position, Terrain


@dataclass(frozen=True)
class Property:
    """A maximal edge-connected group of squares of one scoring terrain.

    crowns are the counted crowns (printed crowns minus those under giants).
    """

    terrain: Terrain
    positions: tuple[Position, ...]
    crowns: int

    @property
    def squares(self) -> int:
        return len(self.positions)

    @property
    def points(self) -> int:
        return self.squares * self.crowns


def find_properties(kingdom: Kingdom) -> list[Property]:
    """All properties, in reading order of their first square (castle and empty squares in none)."""
    seen: set[Position] = set()
    found = []
    for start, square in kingdom.squares():
        if start in seen or not square.terrain.scores:
            continue
        seen.add(start)
        group, todo = [], [start]
        while todo:
            position = todo.pop()
            group.append(position)
            for n in kingdom.neighbours(position):
                if n not in seen and kingdom[n].terrain is square.terrain:
                    seen.add(n)
                    todo.append(n)
        group.sort()
        found.append(Property(square.terrain, tuple(group), sum(kingdom[p].counted_crowns for p in group)))
    return found


def is_full(kingdom: Kingdom) -> bool:
    return all(s.terrain is not Terrain.EMPTY for _, s in kingdom.squares())


def occupied_extent(kingdom: Kingdom) -> tuple[int, int]:
    """(rows, columns) of the smallest rectangle holding every square that is not empty:
    the kingdom as laid on the table, whatever its frame. (0, 0) when nothing is laid.

    >>> from kscore.game.kingdom import Square
    >>> k = Kingdom.from_rows("k", [[Square(Terrain.EMPTY)] * 5 for _ in range(5)])
    >>> occupied_extent(k)
    (0, 0)
    >>> occupied_extent(k.with_square((1, 1), Square(Terrain.CASTLE)).with_square((1, 3), Square(Terrain.LAKE)))
    (1, 3)
    """
    laid = [p for p, s in kingdom.squares() if s.terrain is not Terrain.EMPTY]
    if not laid:
        return 0, 0
    rows = [r for r, _ in laid]
    cols = [c for _, c in laid]
    return max(rows) - min(rows) + 1, max(cols) - min(cols) + 1


def empty_edges(kingdom: Kingdom) -> list[str]:
    """Edge rows/columns of the grid that hold no square at all ('top row', ...)."""
    n = kingdom.size
    edges = {
        "top row": [(0, c) for c in range(n)],
        "bottom row": [(n - 1, c) for c in range(n)],
        "left column": [(r, 0) for r in range(n)],
        "right column": [(r, n - 1) for r in range(n)],
    }
    return [name for name, cells in edges.items() if all(kingdom[p].terrain is Terrain.EMPTY for p in cells)]


def frame_given(kingdom: Kingdom) -> bool:
    """The grid is the frame: it spans the frame, or the file says `frame: given`."""
    return kingdom.extras.get("frame", "").strip().lower() == "given" or not empty_edges(kingdom)
