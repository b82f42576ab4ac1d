"""Kingdomino Origins: fires, volcanoes, Totem mode and Tribe mode.

Terrains and letters (game: origins): G grassland, J jungle, L lake,
Q quarry, D desert, V volcano, plus C for the start tile and . for empty.
The digit after a letter is the fires on that square, printed flames and
fire tokens together: fire plays the role of the crown, so a property scores
size x fires in the core engine. Volcano squares never score and carry no
fires (write `V` alone).

Per-kingdom lines (all optional), by mode:

Totem mode
    resources: 7                 each resource left is worth 1 point
    totems: mammoth, flint       totem tiles held: mammoth 3, fish 4, mushroom 5, flint 6

Tribe mode
    cavemen: hunter:lake@2,3; warrior:2@1,1; warrior:3@1,2

rules.md section 5 says only that hunter-gatherers score "by what surrounds
them" and that warriors "score as groups: group size x sum of their values".
kscore's reading, where it is silent:
- A caveman stands on one square, named `@row,column` (1-based, row 1 at
  the top); one caveman per square, never on an empty square. Cavemen are
  separated by `;` (commas are taken by the positions).
- A hunter-gatherer (`hunter:<terrain>` or `gatherer:<terrain>`) scores
  1 point for each of its 8 neighbours (edge and diagonal, inside the frame)
  of that terrain: `hunter:lake@2,3` with 3 lake squares around it scores 3.
- A warrior (`warrior:<value>`, value 1 or more) belongs to a group with
  every warrior edge-adjacent to it (as squares join a property; diagonal
  does not join). A group scores size x sum of its values: warriors of
  values 2 and 3 side by side score 2 x (2 + 3) = 10; alone each scores
  1 x value.
- A kingdom's lines are either Totem or Tribe: mixing them is an error; the
  mode is taken from the lines when the header does not give it
  (`variants: totem` or `variants: tribe`).
- Ties: rules.md gives no Origins tiebreak; kscore applies Kingdomino's
  (largest property, then most fires, else shared).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Mapping

from kscore.game.kingdom import Kingdom, Position, Terrain, square_name
from kscore.game.scoreline import ScoreLine, count
from kscore.game.expansions.errors import ExtrasError
from kscore.game.expansions.numbers import checked, shown, whole_number

ORIGINS_LETTERS: Mapping[str, Terrain] = {
    "G": Terrain.GRASSLAND,
    "J": Terrain.JUNGLE,
    "L": Terrain.LAKE,
    "Q": Terrain.QUARRY,
    "D": Terrain.DESERT,
    "V": Terrain.VOLCANO,
    "C": Terrain.CASTLE,
    ".": Terrain.EMPTY,
}
ORIGINS_TERRAINS = tuple(t for t in ORIGINS_LETTERS.values() if t not in (Terrain.CASTLE, Terrain.EMPTY))
TOTEM_POINTS = {"mammoth": 3, "fish": 4, "mushroom": 5, "flint": 6}
TOTEM_KEYS = ("resources", "totems")
TRIBE_KEYS = ("cavemen",)
EXTRAS_KEYS = TOTEM_KEYS + TRIBE_KEYS
MODES = ("totem", "tribe")

_HUNTER = re.compile(r"^(hunter|gatherer)\s*:\s*([a-z]+)\s*@\s*([0-9]+)\s*,\s*([0-9]+)$")
_WARRIOR = re.compile(r"^warrior\s*:\s*([0-9]+)\s*@\s*([0-9]+)\s*,\s*([0-9]+)$")


@dataclass(frozen=True)
class Caveman:
    kind: str  # "hunter" (hunter-gatherer) or "warrior"
    position: Position  # 0-based (row, col)
    terrain: Terrain | None = None  # hunters: the terrain they gather from
    value: int = 0  # warriors: printed value


@dataclass(frozen=True)
class OriginsExtras:
    mode: str | None
    resources: int = 0
    totems: tuple[str, ...] = ()
    cavemen: tuple[Caveman, ...] = ()


def _parse_caveman(item: str, size: int) -> Caveman:
    text = item.strip().lower()
    hunter, warrior = _HUNTER.match(text), _WARRIOR.match(text)
    if hunter:
        word, row, col = hunter.group(2), checked("cavemen", hunter.group(3)), checked("cavemen", hunter.group(4))
        terrains = {t.value: t for t in ORIGINS_TERRAINS}
        if word not in terrains:
            raise ExtrasError("cavemen", f"{shown(item)}: {shown(word)} is not an Origins terrain ({', '.join(terrains)})")
        caveman = Caveman("hunter", (row - 1, col - 1), terrain=terrains[word])
    elif warrior:
        value, row, col = (checked("cavemen", g) for g in warrior.groups())
        if value < 1:
            raise ExtrasError("cavemen", f"{shown(item)}: a warrior's value is 1 or more")
        caveman = Caveman("warrior", (row - 1, col - 1), value=value)
    else:
        raise ExtrasError(
            "cavemen",
            f"cannot read {shown(item)}: write hunter:<terrain>@row,column or warrior:<value>@row,column, "
            "separated by ';' (e.g. hunter:lake@2,3; warrior:2@1,1)",
        )
    if not (1 <= row <= size and 1 <= col <= size):
        raise ExtrasError("cavemen", f"{shown(item)}: square outside the {size}x{size} frame")
    return caveman


def parse_extras(extras: Mapping[str, str], size: int, mode: str | None = None) -> OriginsExtras:
    """Read a kingdom's Origins lines. mode: from the header, or None to infer it from the lines.

    Other keys are not this module's business (the text parser owns the list).
    """
    totem_keys = [k for k in TOTEM_KEYS if k in extras]
    tribe_keys = [k for k in TRIBE_KEYS if k in extras]
    if totem_keys and tribe_keys:
        raise ExtrasError(tribe_keys[0], f"Tribe mode line in a kingdom with Totem mode lines ({', '.join(totem_keys)})")
    if mode == "totem" and tribe_keys:
        raise ExtrasError(tribe_keys[0], "a Tribe mode line, but the game is in Totem mode")
    if mode == "tribe" and totem_keys:
        raise ExtrasError(totem_keys[0], "a Totem mode line, but the game is in Tribe mode")
    mode = mode or ("totem" if totem_keys else "tribe" if tribe_keys else None)

    resources = 0
    if "resources" in extras:
        resources = whole_number("resources", extras["resources"])
    totems: list[str] = []
    for word in (w.strip().lower() for w in extras.get("totems", "").split(",")):
        if not word:
            continue
        if word not in TOTEM_POINTS:
            raise ExtrasError("totems", f"unknown totem {shown(word)} (known: {', '.join(TOTEM_POINTS)})")
        if word in totems:
            raise ExtrasError("totems", f"totem {shown(word)} named twice: there is one tile of each")
        totems.append(word)
    cavemen = tuple(_parse_caveman(item, size) for item in extras.get("cavemen", "").split(";") if item.strip())
    taken: dict[Position, Caveman] = {}
    for caveman in cavemen:
        if caveman.position in taken:
            raise ExtrasError("cavemen", f"two cavemen on {square_name(caveman.position)}")
        taken[caveman.position] = caveman
    return OriginsExtras(mode, resources, tuple(totems), cavemen)


def totem_lines(extras: OriginsExtras) -> list[ScoreLine]:
    lines = [ScoreLine("resources", "resources", extras.resources, f"{extras.resources} resources x 1")]
    lines += [ScoreLine("totem", "totem", TOTEM_POINTS[name], f"{name} totem tile: {TOTEM_POINTS[name]}") for name in extras.totems]
    return lines



def warrior_groups(cavemen: tuple[Caveman, ...]) -> list[list[Caveman]]:
    """Warriors joined edge to edge, each group in reading order."""
    at = {c.position: c for c in cavemen if c.kind == "warrior"}
    seen: set[Position] = set()
    groups = []
    for start in sorted(at):
        if start in seen:
            continue
        seen.add(start)
        group, stack = [], [start]
        while stack:
            row, col = stack.pop()
            group.append(at[(row, col)])
            for other in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
                if other in at and other not in seen:
                    seen.add(other)
                    stack.append(other)
        groups.append(sorted(group, key=lambda c: c.position))
    return groups


def tribe_lines(kingdom: Kingdom, extras: OriginsExtras) -> list[ScoreLine]:
    for caveman in extras.cavemen:
        if kingdom[caveman.position].terrain is Terrain.EMPTY:
            raise ExtrasError("cavemen", f"a caveman on the empty square {square_name(caveman.position)}")
    lines = []
    for c in extras.cavemen:
        if c.kind != "hunter":
            continue
        assert c.terrain is not None
        n = sum(1 for p in kingdom.ring(c.position) if kingdom[p].terrain is c.terrain)
        lines.append(
            ScoreLine("caveman", "hunter-gatherer", n, f"at {square_name(c.position)}: {count(n, c.terrain.value + ' neighbour')} x 1")
        )
    for group in warrior_groups(extras.cavemen):
        values = [c.value for c in group]
        points = len(group) * sum(values)
        where = ", ".join(square_name(c.position) for c in group)
        lines.append(
            ScoreLine(
                "caveman",
                "warriors",
                points,
                f"group of {len(group)} at {where}: {len(group)} x ({' + '.join(map(str, values))}) = {points}",
            )
        )
    return lines


def origins_lines(kingdom: Kingdom, mode: str | None = None) -> list[ScoreLine]:
    """Totem or Tribe mode lines from the kingdom's extras (none when it has none)."""
    extras = parse_extras(kingdom.extras, kingdom.size, mode)
    if extras.mode == "totem":
        return totem_lines(extras)
    if extras.mode == "tribe":
        return tribe_lines(kingdom, extras)
    return []
