"""Plausibility warnings: could this grid be a real kingdom built from the box?

Each check returns sentences a player can act on, naming squares the same way
everywhere (kscore.game.kingdom.square_name: "row 2, column 3"). Warnings never
change the score; they say where to look.
"""

from __future__ import annotations

from collections import Counter

from kscore.game.expansions.queendomino import as_printed
from kscore.game.kingdom import Kingdom, square_name
from kscore.game.rules import GameRules
from kscore.game.properties import empty_edges, frame_given
from kscore.game.tileset import TILESETS, TileSet, split_into_dominoes


def _names(positions) -> str:
    return "; ".join(square_name(p) for p in sorted(positions))


def castle_warnings(kingdom: Kingdom) -> list[str]:
    castles = kingdom.castles()
    if not castles:
        return ["no castle: a kingdom has exactly one"]
    if len(castles) > 1:
        return [f"{len(castles)} castles ({_names(castles)}): a kingdom has exactly one"]
    return []


def frame_warnings(kingdom: Kingdom, rules: GameRules) -> list[str]:
    """Middle Kingdom needs the frame; say so when the grid does not determine it."""
    if "middle-kingdom" not in rules.variants or frame_given(kingdom):
        return []
    edges = empty_edges(kingdom)
    verb = "is" if len(edges) == 1 else "are"
    return [f"middle-kingdom not awarded: the {' and '.join(edges)} {verb} empty, so the kingdom does not span the "
            f"{kingdom.size}x{kingdom.size} frame (add 'frame: given' to its section if the grid is the frame)"]


def crown_warnings(kingdom: Kingdom, box: TileSet) -> list[str]:
    """Squares whose terrain the box lacks, or with more crowns than any such square in the box."""
    warnings = []
    for position, square in kingdom.squares():
        if not square.terrain.scores:
            continue
        most = box.max_crowns.get(square.terrain)
        if most is None:
            warnings.append(f"{square_name(position)}: the {box.name} box has no {square.terrain.value} squares")
        elif square.crowns > most:
            warnings.append(f"{square_name(position)}: {square.terrain.value} with {square.crowns} crowns, "
                            f"but no {square.terrain.value} square in the {box.name} box has more than {most}")
    return warnings


def count_warnings(kingdom: Kingdom, box: TileSet) -> list[str]:
    """More squares or crowns of a terrain than the whole box holds."""
    totals = box.terrain_totals()
    squares: Counter = Counter()
    crowns: Counter = Counter()
    for _, square in kingdom.squares():
        if square.terrain.scores:
            squares[square.terrain] += 1
            crowns[square.terrain] += square.crowns
    warnings = []
    for terrain in squares:
        in_box, crowns_in_box = totals.get(terrain, (0, 0))
        if terrain not in totals:
            continue  # already named square by square in crown_warnings
        if squares[terrain] > in_box:
            warnings.append(f"{squares[terrain]} {terrain.value} squares, but the {box.name} box holds only {in_box}")
        if crowns[terrain] > crowns_in_box:
            warnings.append(f"{crowns[terrain]} crowns on {terrain.value}, "
                            f"but the {box.name} box holds only {crowns_in_box}")
    return warnings


def domino_warnings(kingdom: Kingdom, box: TileSet) -> list[str]:
    """Squares that cannot be paired into distinct real dominoes."""
    split = split_into_dominoes(kingdom, box)
    warnings = []
    if split.unpaired:
        described = "; ".join(f"{square_name(p)} ({kingdom[p].terrain.value} {kingdom[p].crowns})"
                              for p in sorted(split.unpaired))
        warnings.append(f"these squares cannot be paired into distinct {box.name} dominoes: {described}")
    if not split.exact:
        warnings.append("the domino check ran out of time; the unpaired squares above may be too many")
    return warnings


def check_kingdom(kingdom: Kingdom, rules: GameRules) -> list[str]:
    """All warnings for one kingdom, castle and frame first, then the tile box checks."""
    warnings = castle_warnings(kingdom) + frame_warnings(kingdom, rules)
    if rules.use_tileset and rules.tileset in TILESETS:
        box = TILESETS[rules.tileset]
        printed = as_printed(kingdom)  # Queendomino: building crowns on villages are not on the tiles
        warnings += crown_warnings(printed, box) + count_warnings(printed, box) + domino_warnings(printed, box)
    return warnings
