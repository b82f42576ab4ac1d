"""Queendomino: coins, buildings, towers, knights, the queen, and its tiebreak.

Village squares (letter V) form properties like any terrain; the digit after
V is the crowns printed on the building(s) built there, so a village property
scores size x crowns in the core engine like the six basic terrains. The rest
is read from the kingdom's own `key: value` lines (all optional):

    coins: 14                                   1 point per 3 coins, rounded down: 14 -> 4
    knights: 3                                  knights the player owns, placed or in reserve
    towers: 2                                   towers in the kingdom
    queen: yes                                  the player hosts the queen at the end
    buildings: 5, 3, 2x:forest, 1x:tower, 1x:knight

A building is either its printed points (`5`) or `Nx:<what>`: N points per
territory (property) of a terrain (`2x:forest`: 2 per forest property, as the
rulebook says, not per square), per tower in the kingdom (`1x:tower`) or per
knight owned (`1x:knight`). A building that counts towers or knights needs
the `towers:` / `knights:` line (write `knights: 0` if none): a missing count
is an error rather than a silent 0. Towers and knights score nothing by
themselves.

The queen (kscore's reading): she counts as one extra crown on the largest
territory, villages included, so she adds that territory's size. Territories
of equal size gain the same, so when several are largest kscore names the
first in reading order (top row first, then leftmost).

Tiebreak (rules.md section 3): the largest territory; still tied: shared.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Mapping

from kscore.game.kingdom import BASE_TERRAINS, Kingdom, Terrain
from kscore.game.scoreline import ScoreLine, count
from kscore.game.expansions.errors import ExtrasError
from kscore.game.expansions.numbers import DIGITS, checked, shown, whole_number
from kscore.game.expansions.territories import find_territories, largest_territory

EXTRAS_KEYS = ("coins", "knights", "towers", "queen", "buildings")
COINS_PER_POINT = 3
QUEENDOMINO_TERRAINS = BASE_TERRAINS + (Terrain.VILLAGE,)
_COUNTED = {"tower": "tower", "towers": "tower", "knight": "knight", "knights": "knight"}
_COUNTED.update({t.value: t.value for t in QUEENDOMINO_TERRAINS})
_BUILDING = re.compile(r"^([0-9]+)\s*x\s*:\s*([a-z]+)$")
_YES = {"yes": True, "y": True, "true": True, "1": True, "no": False, "n": False, "false": False, "0": False}


@dataclass(frozen=True)
class Building:
    """A building's end-game points: `points` flat, or `points` per `per` (terrain word, "tower", "knight")."""

    text: str
    points: int
    per: str | None = None


@dataclass(frozen=True)
class QueendominoExtras:
    coins: int = 0
    knights: int | None = None  # None: not given
    towers: int | None = None
    queen: bool = False
    buildings: tuple[Building, ...] = ()


def parse_building(text: str) -> Building:
    item = text.strip().lower()
    if DIGITS.fullmatch(item):  # ASCII only: '²' passes isdigit()
        return Building(item, checked("buildings", item))
    match = _BUILDING.match(item)
    if match and match.group(2) in _COUNTED:
        return Building(item, checked("buildings", match.group(1)), _COUNTED[match.group(2)])
    raise ExtrasError(
        "buildings",
        f"cannot read {shown(text)}: a building is its points (5) or N points per "
        f"territory of a terrain, per tower or per knight (2x:forest, 1x:tower, 1x:knight)",
    )


def parse_extras(extras: Mapping[str, str]) -> QueendominoExtras:
    """Read a kingdom's Queendomino lines (other keys are not this module's business)."""
    coins = whole_number("coins", extras["coins"]) if "coins" in extras else 0
    knights = whole_number("knights", extras["knights"]) if "knights" in extras else None
    towers = whole_number("towers", extras["towers"]) if "towers" in extras else None
    queen = False
    if "queen" in extras:
        word = extras["queen"].strip().lower()
        if word not in _YES:
            raise ExtrasError("queen", f"expected yes or no, got {shown(extras['queen'])}")
        queen = _YES[word]
    buildings: tuple[Building, ...] = ()
    if "buildings" in extras:
        buildings = tuple(parse_building(item) for item in extras["buildings"].split(",") if item.strip())
    for counted, given in (("tower", towers), ("knight", knights)):
        if given is None and any(b.per == counted for b in buildings):
            raise ExtrasError(
                "buildings", f"a building scores per {counted} but the kingdom has no `{counted}s:` line ({counted}s: 0 if none)"
            )
    return QueendominoExtras(coins, knights, towers, queen, buildings)


def coins_line(extras: QueendominoExtras) -> ScoreLine:
    points = extras.coins // COINS_PER_POINT
    return ScoreLine("coins", "coins", points, f"{extras.coins} coins // {COINS_PER_POINT} = {points}")


def building_line(kingdom: Kingdom, building: Building, extras: QueendominoExtras) -> ScoreLine:
    if building.per is None:
        return ScoreLine("building", "building", building.points, f"{building.text}: printed points {building.points}")
    if building.per == "tower":
        n, what = extras.towers or 0, count(extras.towers or 0, "tower")
    elif building.per == "knight":
        n, what = extras.knights or 0, count(extras.knights or 0, "knight")
    else:
        n = sum(1 for t in find_territories(kingdom) if t.terrain.value == building.per)
        what = count(n, f"{building.per} territory", f"{building.per} territories")
    points = building.points * n
    return ScoreLine("building", "building", points, f"{building.text}: {building.points} x {what} = {points}")


def queen_line(kingdom: Kingdom) -> ScoreLine:
    """The queen's extra crown on the largest territory: + its size."""
    territory = largest_territory(kingdom)
    if territory is None:
        return ScoreLine("queen", "queen", 0, "no territory to put the queen on")
    return ScoreLine(
        "queen",
        "queen",
        territory.size,
        f"one extra crown on the largest territory, {territory.describe()}: {territory.size} x 1 = {territory.size}",
    )


def queendomino_lines(kingdom: Kingdom) -> list[ScoreLine]:
    """Coins, each building, and the queen (when hosted), from the kingdom's extras."""
    extras = parse_extras(kingdom.extras)
    lines = [coins_line(extras)] if "coins" in kingdom.extras else []
    lines += [building_line(kingdom, b, extras) for b in extras.buildings]
    if extras.queen:
        lines.append(queen_line(kingdom))
    return lines


def as_printed(kingdom: Kingdom) -> Kingdom:
    """The kingdom as the tiles print it: a village's crowns belong to its buildings, not to the tile.

    The box checks (tiles.md lists village halves as `T`, no crowns) must not
    see building crowns, or every crowned village would be "impossible".
    """
    if not any(s.terrain is Terrain.VILLAGE and s.crowns for _, s in kingdom.squares()):
        return kingdom
    rows = [[replace(s, crowns=0, giants=0) if s.terrain is Terrain.VILLAGE else s for s in row] for row in kingdom.rows]
    return Kingdom.from_rows(kingdom.name, rows, kingdom.extras)


def tiebreak_key(kingdom: Kingdom) -> tuple[int]:
    """Higher is better among equal totals: the largest territory; equal keys share the victory."""
    territory = largest_territory(kingdom)
    return (territory.size if territory else 0,)
