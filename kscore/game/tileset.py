"""The real tile sets (../shared/docs/tiles.md) and the domino-split check.

A real kingdom's squares (castle and empty aside) split into edge-adjacent
pairs, each a *distinct* domino of the box. A misread square usually breaks
that split, which is what makes this check worth having: the plausibility
warnings and the recogniser's decoder both rely on it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cached_property

from kscore.game.kingdom import Kingdom, Position, Terrain

HalfDomino = tuple[Terrain, int]  # (terrain, printed crowns)

_CODE = {
    "W": Terrain.WHEAT,
    "F": Terrain.FOREST,
    "L": Terrain.LAKE,
    "G": Terrain.GRASSLAND,
    "S": Terrain.SWAMP,
    "M": Terrain.MINE,
    "T": Terrain.VILLAGE,
}


def _half(code: str) -> HalfDomino:
    # "T" alone is a village half with no printed crowns.
    return _CODE[code[0]], int(code[1:] or 0)


def _parse_box(text: str) -> tuple[tuple[str, HalfDomino, HalfDomino], ...]:
    """Parse tiles.md's listing: `<label> <half>+<half>` repeated."""
    words = text.split()
    return tuple(
        (label, *map(_half, pair.split("+")))  # type: ignore[misc]
        for label, pair in zip(words[::2], words[1::2])
    )


@dataclass(frozen=True)
class TileSet:
    name: str
    dominoes: tuple[tuple[str, HalfDomino, HalfDomino], ...]

    def __add__(self, other: "TileSet") -> "TileSet":
        return TileSet(f"{self.name}+{other.name}", self.dominoes + other.dominoes)

    @cached_property
    def domino_counts(self) -> Counter:
        """How many copies of each unordered domino (as a sorted pair) the box holds."""
        return Counter(_key(a, b) for _, a, b in self.dominoes)

    @cached_property
    def square_counts(self) -> Counter:
        """How many squares of each (terrain, crowns) the box holds."""
        return Counter(half for _, a, b in self.dominoes for half in (a, b))

    @cached_property
    def max_crowns(self) -> dict[Terrain, int]:
        """The most crowns any square of each terrain carries in this box."""
        best: dict[Terrain, int] = {}
        for terrain, crowns in self.square_counts:
            best[terrain] = max(best.get(terrain, 0), crowns)
        return best

    def terrain_totals(self) -> dict[Terrain, tuple[int, int]]:
        """Per terrain: (squares, crowns) in the whole box."""
        totals: dict[Terrain, tuple[int, int]] = {}
        for (terrain, crowns), n in self.square_counts.items():
            squares, crown_sum = totals.get(terrain, (0, 0))
            totals[terrain] = (squares + n, crown_sum + n * crowns)
        return totals


def _key(a: HalfDomino, b: HalfDomino) -> tuple[HalfDomino, HalfDomino]:
    return (a, b) if (a[0].value, a[1]) <= (b[0].value, b[1]) else (b, a)


KINGDOMINO = TileSet(
    "kingdomino",
    _parse_box(
        """
     1 W0+W0   2 W0+W0   3 F0+F0   4 F0+F0   5 F0+F0   6 F0+F0   7 L0+L0   8 L0+L0
     9 L0+L0  10 G0+G0  11 G0+G0  12 S0+S0  13 W0+F0  14 W0+L0  15 W0+G0  16 W0+S0
    17 F0+L0  18 F0+G0  19 W1+F0  20 W1+L0  21 W1+G0  22 W1+S0  23 W1+M0  24 F1+W0
    25 F1+W0  26 F1+W0  27 F1+W0  28 F1+L0  29 F1+G0  30 L1+W0  31 L1+W0  32 L1+F0
    33 L1+F0  34 L1+F0  35 L1+F0  36 W0+G1  37 L0+G1  38 W0+S1  39 G0+S1  40 M1+W0
    41 W0+G2  42 L0+G2  43 W0+S2  44 G0+S2  45 M2+W0  46 S0+M2  47 S0+M2  48 W0+M3
    """
    ),
)

GIANTS = TileSet(
    "giants",
    _parse_box(
        """
    A F0+W0  B F0+W0  C L0+W0  D M0+G0  E S0+G0  F L0+G0
    49 W2+F1  50 F2+L1  51 L2+G1  52 G2+S1  53 S2+M1  54 M2+S1
    """
    ),
)

# One source, provisional (tiles.md says so).
QUEENDOMINO = TileSet(
    "queendomino",
    _parse_box(
        """
     1 W0+W0   2 W0+W0   3 F0+F0   4 F0+F0   5 W1+S0   6 W1+M0   7 F1+W0   8 F1+W0
     9 L0+L0  10 L0+L0  11 G0+G0  12 G0+G0  13 F1+W0  14 F1+L0  15 F1+G0  16 L1+W0
    17 S0+S0  18 W1+F0  19 W1+L0  20 W1+G0  21 L1+F0  22 L1+F0  23 L1+F0  24 G1+W0
    25 S1+W0  26 G2+W0  27 G2+F0  28 S2+W0  29 T+S0   30 F1+T   31 L1+T   32 L1+T
    33 S2+F0  34 M2+W0  35 M2+W0  36 T+F0   37 G1+T   38 S1+T   39 M1+T   40 M2+T
    41 T+L0   42 T+L0   43 T+G0   44 T+G0   45 M3+T   46 T+T    47 T+T    48 T+T
    """
    ),
)

TILESETS = {
    "kingdomino": KINGDOMINO,
    "kingdomino+giants": KINGDOMINO + GIANTS,
    "queendomino": QUEENDOMINO,
}

Pair = tuple[Position, Position]


@dataclass(frozen=True)
class Split:
    """The result of splitting a kingdom into dominoes.

    pairs: the dominoes found, as pairs of positions. unpaired: squares that
    could not be paired in the best split found (empty when the kingdom is a
    real one). exact: False when the search hit its budget before proving the
    split optimal (then unpaired may be more than needed).
    """

    pairs: tuple[Pair, ...]
    unpaired: tuple[Position, ...]
    exact: bool = True

    @property
    def ok(self) -> bool:
        return not self.unpaired


def _half_of(kingdom: Kingdom, position: Position) -> HalfDomino:
    square = kingdom[position]
    return square.terrain, square.crowns


def split_into_dominoes(kingdom: Kingdom, tileset: TileSet = KINGDOMINO, budget: int = 200_000) -> Split:
    """Pair the kingdom's tile squares into distinct dominoes of the box.

    Finds a perfect split when one exists; otherwise the split that leaves the
    fewest squares unpaired (branch and bound, cut off after `budget` search
    steps). Castle and empty squares take no part.
    """
    cells = [p for p, s in kingdom.squares() if s.terrain not in (Terrain.CASTLE, Terrain.EMPTY)]
    cell_set = set(cells)
    stock = Counter(tileset.domino_counts)
    taken: dict[Position, Position | None] = {}
    best: dict = {"unpaired": len(cells) + 1, "pairs": (), "skipped": ()}
    steps = 0
    exhausted = False

    def partners(p: Position) -> list[Position]:
        row, col = p
        # Cells are visited in row-major order, so a free cell's up and left
        # neighbours are already decided: only right and down remain.
        return [q for q in ((row, col + 1), (row + 1, col)) if q in cell_set and q not in taken]

    def search(index: int, pairs: list[Pair], skipped: list[Position]) -> None:
        nonlocal steps, exhausted
        steps += 1
        if steps > budget:
            exhausted = True
            return
        while index < len(cells) and cells[index] in taken:
            index += 1
        if len(skipped) >= best["unpaired"]:
            return
        if index == len(cells):
            best.update(unpaired=len(skipped), pairs=tuple(pairs), skipped=tuple(skipped))
            return
        p = cells[index]
        for q in partners(p):
            key = _key(_half_of(kingdom, p), _half_of(kingdom, q))
            if stock[key] > 0:
                stock[key] -= 1
                taken[p], taken[q] = q, p
                pairs.append((p, q))
                search(index + 1, pairs, skipped)
                pairs.pop()
                del taken[p], taken[q]
                stock[key] += 1
                if best["unpaired"] == 0 or exhausted:
                    return
        taken[p] = None
        skipped.append(p)
        search(index + 1, pairs, skipped)
        skipped.pop()
        del taken[p]

    search(0, [], [])
    return Split(best["pairs"], best["skipped"], exact=not exhausted)
