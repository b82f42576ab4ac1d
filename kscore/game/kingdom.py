"""The kingdom model: what every stage of kscore hands to the next.

A Kingdom is a square grid (5x5, or 7x7 for Mighty Duel) of Squares. It is
immutable, so a recogniser, a parser and the scoring engine can pass it around
without copying. Rules live elsewhere (scoring.py, tileset.py); this module only
knows shapes and names.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Iterator, Mapping

SUPPORTED_SIZES = (5, 7)
MAX_CROWNS = 3


class Terrain(str, Enum):
    """Every kind of square kscore knows, named by the word used in JSON."""

    WHEAT = "wheat"
    GRASSLAND = "grassland"
    FOREST = "forest"
    LAKE = "lake"
    SWAMP = "swamp"
    MINE = "mine"
    CASTLE = "castle"
    EMPTY = "empty"
    # Queendomino
    VILLAGE = "village"
    # Kingdomino Origins (grassland and lake are shared with the base game)
    JUNGLE = "jungle"
    QUARRY = "quarry"
    DESERT = "desert"
    VOLCANO = "volcano"

    @property
    def scores(self) -> bool:
        """Whether squares of this terrain can form a scoring property."""
        return self not in (Terrain.CASTLE, Terrain.EMPTY, Terrain.VOLCANO)


#: The six terrains of the base game, in the order the recogniser uses.
BASE_TERRAINS = (
    Terrain.WHEAT,
    Terrain.GRASSLAND,
    Terrain.FOREST,
    Terrain.LAKE,
    Terrain.SWAMP,
    Terrain.MINE,
)

#: Letters of the base game's text format (see textformat.py).
BASE_LETTERS: Mapping[str, Terrain] = {
    "W": Terrain.WHEAT,
    "G": Terrain.GRASSLAND,
    "F": Terrain.FOREST,
    "L": Terrain.LAKE,
    "S": Terrain.SWAMP,
    "M": Terrain.MINE,
    "C": Terrain.CASTLE,
    ".": Terrain.EMPTY,
}


@dataclass(frozen=True)
class Square:
    """One square of a kingdom.

    crowns: crowns printed on the square (fires in Origins, building crowns on
    a Queendomino village). giants: Age of Giants giants standing on it, each
    cancelling one crown. uncertain: the recogniser was unsure of this reading.
    """

    terrain: Terrain
    crowns: int = 0
    giants: int = 0
    uncertain: bool = False

    @property
    def counted_crowns(self) -> int:
        """Crowns that score: those not under a giant."""
        return max(self.crowns - self.giants, 0)


EMPTY_SQUARE = Square(Terrain.EMPTY)

Position = tuple[int, int]  # (row, col), row 0 at the top


def sides_of(position: Position) -> tuple[Position, ...]:
    """The four squares sharing a side with `position` (above, below, left, right), unbounded: a lattice
    found in a photo runs past any grid.

    >>> sides_of((0, 2))
    ((-1, 2), (1, 2), (0, 1), (0, 3))
    """
    row, col = position
    return (row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)


def square_name(position: Position) -> str:
    """How kscore names a square to a person: 1-based, row first ("row 2, column 3")."""
    row, col = position
    return f"row {row + 1}, column {col + 1}"


@dataclass(frozen=True)
class Kingdom:
    """One player's kingdom: a square grid of squares plus per-kingdom extras.

    extras holds the `key: value` lines of the kingdom's text section that are
    not part of the grid (Queendomino coins, Origins totems...), as written.
    """

    name: str
    rows: tuple[tuple[Square, ...], ...]
    extras: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        size = len(self.rows)
        if any(len(row) != size for row in self.rows):
            raise ValueError("a kingdom's grid must be square")

    @classmethod
    def from_rows(cls, name: str, rows, extras: Mapping[str, str] | None = None) -> "Kingdom":
        return cls(name, tuple(tuple(row) for row in rows), dict(extras or {}))

    @property
    def size(self) -> int:
        return len(self.rows)

    def __getitem__(self, position: Position) -> Square:
        row, col = position
        return self.rows[row][col]

    def positions(self) -> Iterator[Position]:
        for row in range(self.size):
            for col in range(self.size):
                yield row, col

    def squares(self) -> Iterator[tuple[Position, Square]]:
        for position in self.positions():
            yield position, self[position]

    def neighbours(self, position: Position) -> Iterator[Position]:
        """Edge neighbours inside the grid (never diagonal)."""
        for r, c in sides_of(position):
            if 0 <= r < self.size and 0 <= c < self.size:
                yield r, c

    def ring(self, position: Position) -> list[Position]:
        """The up to 8 squares around a square (edges and diagonals) inside the grid."""
        row, col = position
        return [
            (r, c)
            for r in range(row - 1, row + 2)
            for c in range(col - 1, col + 2)
            if (r, c) != position and 0 <= r < self.size and 0 <= c < self.size
        ]

    def castles(self) -> list[Position]:
        return [p for p, s in self.squares() if s.terrain is Terrain.CASTLE]

    def uncertain(self) -> list[Position]:
        return [p for p, s in self.squares() if s.uncertain]

    def with_square(self, position: Position, square: Square) -> "Kingdom":
        row, col = position
        rows = [list(r) for r in self.rows]
        rows[row][col] = square
        return replace(self, rows=tuple(tuple(r) for r in rows))

    def rotated(self) -> "Kingdom":
        """The same kingdom turned a quarter turn clockwise."""
        n = self.size
        rows = tuple(tuple(self.rows[n - 1 - c][r] for c in range(n)) for r in range(n))
        return replace(self, rows=rows)

    def mirrored(self) -> "Kingdom":
        """The same kingdom mirrored left to right."""
        return replace(self, rows=tuple(tuple(reversed(r)) for r in self.rows))
