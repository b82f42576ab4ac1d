"""Age of Giants quests: the 17 quest tiles of tiles.md, scored exactly.

The quests in play are named in the file's header by their slugs
(`quests: folie-des-grandeurs, lost-corner`). Each quest in play gives one
score line, with 0 points when the kingdom does not fulfil it, so a player
sees it was checked. kscore's readings, where tiles.md leaves room:

- The frame is the kingdom's grid as written (5x5, or 7x7), as for the
  Middle Kingdom variant (rules.md section 2): when a whole edge row or
  column is empty the photo/grid does not fix where the frame is, so the
  quests that need it (middle-kingdom, lost-corner, four-corners-*) score 0
  and say so, unless the kingdom says `frame: given`.
- harmony (5): no empty square in the frame.
- middle-kingdom (10): the castle is on the centre square of the frame.
- lost-corner (20): the castle is on one of the four corner squares.
- four-corners-<terrain> (5 per corner): each corner square of that terrain.
- local-business-<terrain> (5 per square): each of the castle's 8 neighbours
  (edge and diagonal, inside the frame) of that terrain.
- bleak-king (10 per property): each wheat, forest, grassland or lake
  property of at least 5 squares with no uncovered crown. A crown under a
  giant is covered, so a giant *can* earn this quest (the only way giants
  raise a score); a property with no crowns at all qualifies too.
- Castle quests with no castle, or several, score 0 and say why.
- folie-des-grandeurs (10 per alignment): an alignment is three *consecutive*
  crowned squares along a row, a column or a diagonal (either direction); a
  square is crowned when at least one of its crowns is not under a giant.
  Two alignments may share at most one square. Two alignments on different
  lines meet in at most one square anyway (two distinct lines cross at most
  once), so the rule only binds alignments on the same line: there their
  start squares must be at least 2 apart. The exact maximum is therefore the
  sum over lines of a per-line maximum, which dynamic programming gives
  (`best_starts`); for a run of L crowned squares it is floor((L-1)/2), e.g.
  a full 5x5 of crowned squares holds 32 alignments (rows 5x2, columns 5x2,
  each diagonal direction 2+1+1+1+1), a 3x3 block 8.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from kscore.game.kingdom import BASE_TERRAINS, Kingdom, Position, Terrain, square_name
from kscore.game.properties import empty_edges, frame_given
from kscore.game.scoreline import ScoreLine, count
from kscore.game.expansions.errors import QuestError
from kscore.game.expansions.territories import find_territories

Line = tuple[Position, ...]
Alignment = tuple[Position, Position, Position]

BLEAK_TERRAINS = (Terrain.WHEAT, Terrain.FOREST, Terrain.GRASSLAND, Terrain.LAKE)
BLEAK_MIN_SIZE = 5


@dataclass(frozen=True)
class Quest:
    slug: str
    title: str
    points: int  # per unit (corner, square, property, alignment), or once if flat
    check: Callable[[Kingdom], tuple[int, str]]  # -> (units met, reason); flat quests: 0 or 1
    flat: bool = False


# ---------------------------------------------------------------- castle quests


def _single_castle(kingdom: Kingdom) -> Position | None:
    castles = kingdom.castles()
    return castles[0] if len(castles) == 1 else None


def _no_castle_reason(kingdom: Kingdom) -> str:
    n = len(kingdom.castles())
    return "the kingdom has no castle" if n == 0 else f"the kingdom has {n} castles, not one"


def _frame_unknown(kingdom: Kingdom) -> str | None:
    """Why the grid cannot be taken as the frame, or None when it can."""
    if frame_given(kingdom):
        return None
    edges = empty_edges(kingdom)
    return f"the frame is not determined (empty {', '.join(edges)}; write `frame: given`)" if edges else None


def _harmony(kingdom: Kingdom) -> tuple[int, str]:
    empty = [p for p, s in kingdom.squares() if s.terrain is Terrain.EMPTY]
    if not empty:
        return 1, "no empty square in the frame"
    return 0, f"{count(len(empty), 'empty square')}, first at {square_name(empty[0])}"


def _middle_kingdom(kingdom: Kingdom) -> tuple[int, str]:
    castle = _single_castle(kingdom)
    if castle is None:
        return 0, _no_castle_reason(kingdom)
    if unknown := _frame_unknown(kingdom):
        return 0, unknown
    centre = (kingdom.size // 2, kingdom.size // 2)
    if castle == centre:
        return 1, f"the castle is on the centre square ({square_name(centre)})"
    return 0, f"the castle is at {square_name(castle)}, not on the centre ({square_name(centre)})"


def corners(size: int) -> tuple[Position, ...]:
    last = size - 1
    return ((0, 0), (0, last), (last, 0), (last, last))


def _lost_corner(kingdom: Kingdom) -> tuple[int, str]:
    castle = _single_castle(kingdom)
    if castle is None:
        return 0, _no_castle_reason(kingdom)
    if unknown := _frame_unknown(kingdom):
        return 0, unknown
    if castle in corners(kingdom.size):
        return 1, f"the castle is on a corner ({square_name(castle)})"
    return 0, f"the castle is at {square_name(castle)}, not on a corner"


def _four_corners(terrain: Terrain) -> Callable[[Kingdom], tuple[int, str]]:
    def check(kingdom: Kingdom) -> tuple[int, str]:
        if unknown := _frame_unknown(kingdom):
            return 0, unknown
        hits = [p for p in corners(kingdom.size) if kingdom[p].terrain is terrain]
        where = ", ".join(square_name(p) for p in hits) or "none"
        return len(hits), f"{len(hits)} of 4 corner squares are {terrain.value} ({where})"

    return check



def _local_business(terrain: Terrain) -> Callable[[Kingdom], tuple[int, str]]:
    def check(kingdom: Kingdom) -> tuple[int, str]:
        castle = _single_castle(kingdom)
        if castle is None:
            return 0, _no_castle_reason(kingdom)
        hits = [p for p in kingdom.ring(castle) if kingdom[p].terrain is terrain]
        return len(hits), f"{len(hits)} of the castle's neighbours are {terrain.value}"

    return check


def _bleak_king(kingdom: Kingdom) -> tuple[int, str]:
    bleak = [
        t
        for t in find_territories(kingdom)
        if t.terrain in BLEAK_TERRAINS and t.size >= BLEAK_MIN_SIZE and t.counted_crowns == 0
    ]
    if not bleak:
        return 0, f"no wheat, forest, grassland or lake property of {BLEAK_MIN_SIZE}+ squares without an uncovered crown"
    return len(bleak), "without an uncovered crown: " + "; ".join(t.describe() for t in bleak)


# ---------------------------------------------------------- folie des grandeurs


def lines(size: int) -> list[Line]:
    """Every row, column and diagonal (both directions) of at least 3 squares."""
    found: list[Line] = []
    found += [tuple((r, c) for c in range(size)) for r in range(size)]
    found += [tuple((r, c) for r in range(size)) for c in range(size)]
    for d in range(-(size - 3), size - 2):  # down-right diagonals: c - r = d
        found.append(tuple((r, r + d) for r in range(size) if 0 <= r + d < size))
    for s in range(2, 2 * size - 3):  # up-right diagonals: r + c = s
        found.append(tuple((r, s - r) for r in range(size) if 0 <= s - r < size))
    return found


def best_starts(crowned: Sequence[bool]) -> list[int]:
    """A maximum set of alignment starts along one line (exact, by DP).

    An alignment starting at i covers i, i+1, i+2 (all crowned). Two on the
    same line share at most one square iff their starts differ by >= 2, so
    best(i) = max(best(i+1), 1 + best(i+2) if an alignment starts at i).
    """
    n = len(crowned)
    fits = [i + 2 < n and crowned[i] and crowned[i + 1] and crowned[i + 2] for i in range(n)]
    best = [0] * (n + 2)
    for i in range(n - 1, -1, -1):
        best[i] = max(best[i + 1], 1 + best[i + 2] if fits[i] else 0)
    starts, i = [], 0
    while i < n:  # walk the table back to one optimal choice
        if fits[i] and best[i] == 1 + best[i + 2]:
            starts.append(i)
            i += 2
        else:
            i += 1
    return starts


def is_crowned(kingdom: Kingdom, position: Position) -> bool:
    return kingdom[position].counted_crowns > 0


def max_alignments(kingdom: Kingdom) -> list[Alignment]:
    """One maximum set of alignments (see the module doc for why per line is exact)."""
    chosen: list[Alignment] = []
    for line in lines(kingdom.size):
        for i in best_starts([is_crowned(kingdom, p) for p in line]):
            chosen.append((line[i], line[i + 1], line[i + 2]))
    return chosen


def _describe_alignment(a: Alignment) -> str:
    (r0, c0), _, (r2, c2) = a
    return f"({r0 + 1},{c0 + 1})-({r2 + 1},{c2 + 1})"


def _folie(kingdom: Kingdom) -> tuple[int, str]:
    found = max_alignments(kingdom)
    if not found:
        return 0, "no three crowned squares in a line"
    return len(found), (
        f"{count(len(found), 'alignment')} of three crowned squares, as (row,column) from-to: "
        + ", ".join(_describe_alignment(a) for a in found)
    )


# --------------------------------------------------------------------- registry


def _build() -> dict[str, Quest]:
    quests = [
        Quest("harmony", "Harmony", 5, _harmony, flat=True),
        Quest("middle-kingdom", "Middle Kingdom", 10, _middle_kingdom, flat=True),
        Quest("lost-corner", "Lost Corner", 20, _lost_corner, flat=True),
    ]
    for terrain in BASE_TERRAINS:
        quests.append(Quest(f"four-corners-{terrain.value}", f"Four Corners ({terrain.value})", 5, _four_corners(terrain)))
    for terrain in BASE_TERRAINS:
        quests.append(
            Quest(f"local-business-{terrain.value}", f"Local Business ({terrain.value})", 5, _local_business(terrain))
        )
    quests.append(Quest("bleak-king", "Bleak King", 10, _bleak_king))
    quests.append(Quest("folie-des-grandeurs", "Folie des Grandeurs", 10, _folie))
    return {q.slug: q for q in quests}


QUESTS: dict[str, Quest] = _build()


def parse_quests(text: str) -> tuple[str, ...]:
    """Read a `quests:` header value: slugs separated by commas."""
    slugs = tuple(word.strip().lower() for word in text.split(",") if word.strip())
    for slug in slugs:
        if slug not in QUESTS:
            close = difflib.get_close_matches(slug, list(QUESTS), n=1)
            hint = f" (did you mean {close[0]}?)" if close else f"; known quests: {', '.join(QUESTS)}"
            raise QuestError(f"unknown quest {slug!r}{hint}")
    twice = sorted({s for s in slugs if slugs.count(s) > 1})
    if twice:
        raise QuestError(f"quest named twice: {', '.join(twice)}")
    return slugs


def quest_line(kingdom: Kingdom, slug: str) -> ScoreLine:
    quest = QUESTS[slug]
    units, reason = quest.check(kingdom)
    points = units * quest.points
    arithmetic = "" if quest.flat else f" ({units} x {quest.points} = {points})"
    return ScoreLine("quest", slug, points, f"{quest.title}: {reason}{arithmetic}")


def quest_lines(kingdom: Kingdom, slugs: Iterable[str]) -> list[ScoreLine]:
    return [quest_line(kingdom, slug) for slug in slugs]
