"""The score pad of one game, filled in: a column per player, a row per thing that scores.

Pure data from KingdomScores and the ranking; report.py prints it on the terminal,
sheet_image.py draws it as a picture and batch.py writes its rows as CSV columns.
Rows, top to bottom as on the paper pads of Queendomino and Origins: points per
terrain (the terrains any player has), then every other line in the order the
rules produce them (a variant, quest or expansion line in play shows its points,
+0 when missed; its reason goes to a footnote), then the total, the place and the
tiebreak that decided it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from kscore.game.kingdom import Terrain
from kscore.game.ranking import POINTS, SHARED, Place
from kscore.game.scoring import KingdomScore

#: The sheet's short word for each tiebreak (the ranking's detail says the rest).
TIEBREAK_WORD = {POINTS: "points", "largest property": "largest", "most crowns": "crowns", SHARED: "shared"}


@dataclass(frozen=True)
class Row:
    key: str  # a stable column name for CSV: the terrain, or the line's name
    label: str  # what the sheet shows in its first column
    values: tuple[int | None, ...]  # per player; None: the line does not exist for that player
    kind: str  # "terrain", or the ScoreLine kind ("bonus", "quest", "giants", "coins", ...)


@dataclass(frozen=True)
class Note:
    player: str
    label: str
    points: int
    reason: str


@dataclass(frozen=True)
class Sheet:
    title: str
    players: tuple[str, ...]
    rows: tuple[Row, ...]
    totals: tuple[int, ...]
    places: tuple[Place, ...]  # per player, in column order
    tiebreaks: tuple[str, ...]  # per player: what decided the place, in a word and a number
    notes: tuple[Note, ...]  # why a line in play scored 0 for a player
    unsure: tuple[int, ...]  # squares marked ? per player
    warnings: tuple[int, ...]  # plausibility warnings per player

    @property
    def ranked(self) -> bool:
        """Places worth showing: a player alone has no one to beat."""
        return bool(self.places) and len(self.players) > 1

    @property
    def winners(self) -> list[int]:
        """Column indexes of the first place (several when it is shared)."""
        return [i for i, p in enumerate(self.places) if p.place == 1] if self.ranked else []


def ordinal(place: int) -> str:
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def place_word(place: Place) -> str:
    """`1st`, or `=2nd` for a shared place."""
    return ("=" if place.tiebreak == SHARED else "") + ordinal(place.place)


def tiebreak_word(place: Place, score: KingdomScore) -> str:
    """The short form of what decided a place: `points`, `largest 11`, `crowns 7`, `shared`."""
    if place.tiebreak == "largest property":
        return f"largest {score.largest_property}"
    if place.tiebreak == "most crowns":
        return f"crowns {score.crowns}"
    return TIEBREAK_WORD.get(place.tiebreak, place.tiebreak)


def _places_by_column(scores: Sequence[KingdomScore], ranking: Sequence[Place]) -> list[Place]:
    """The ranking's Place of each score in column order; each Place used once (two players may share a name)."""
    left = list(ranking)
    out = []
    for s in scores:
        i = next(i for i, p in enumerate(left) if (p.name, p.score) == (s.kingdom.name, s.total))
        out.append(left.pop(i))
    return out


def _giants_cost(score: KingdomScore) -> int:
    """Points the giants took (already missing from the terrain rows): squares x crowns under giants."""
    k = score.kingdom
    return sum(p.squares * sum(k[pos].giants for pos in p.positions) for p in score.properties)


_LINE_LABELS = {"building": "buildings", "totem": "totems", "caveman": None}  # None: label by the line's name


def build_sheet(scores: Sequence[KingdomScore], ranking: Sequence[Place], title: str = "") -> Sheet:
    """The game's sheet; `scores` in the order the players were given (their columns)."""
    players = tuple(s.kingdom.name for s in scores)
    terrains: list[Terrain] = []
    for s in scores:  # terrains in the order the game's letters list them, as any player has them
        for p in s.properties:
            if p.terrain not in terrains:
                terrains.append(p.terrain)
    order = [t for t in Terrain if t in terrains]
    rows = [Row(t.value, t.value, tuple(sum(p.points for p in s.properties if p.terrain is t) for s in scores),
                "terrain") for t in order]
    # Every other line, grouped by what it is: several buildings make one `buildings` row.
    keys: dict[str, tuple[str, str]] = {}  # key -> (label, kind)
    per_player: list[dict[str, int]] = []
    notes: list[Note] = []
    for s in scores:
        sums: dict[str, int] = {}
        for line in s.lines:
            if line.kind == "giants":
                continue  # information only: one `giants cost` row below
            label = _LINE_LABELS.get(line.kind) or line.name
            keys.setdefault(label, (label, line.kind))
            sums[label] = sums.get(label, 0) + line.points
            if line.points == 0 and line.kind in ("bonus", "quest", "queen"):
                notes.append(Note(s.kingdom.name, label, 0, line.reason))
        per_player.append(sums)
    rows += [Row(key, label, tuple(p.get(key) for p in per_player), kind) for key, (label, kind) in keys.items()]
    costs = tuple(_giants_cost(s) for s in scores)
    if any(costs):
        rows.append(Row("giants-cost", "giants took", tuple(-c for c in costs), "giants"))
    places = tuple(_places_by_column(scores, ranking)) if ranking else ()
    return Sheet(
        title=title,
        players=players,
        rows=tuple(rows),
        totals=tuple(s.total for s in scores),
        places=places,
        tiebreaks=tuple(tiebreak_word(p, s) for p, s in zip(places, scores)),
        notes=tuple(notes),
        unsure=tuple(len(s.kingdom.uncertain()) for s in scores),
        warnings=tuple(len(s.warnings) for s in scores),
    )


def winner_sentence(sheet: Sheet) -> str:
    """`Alice wins with 67 points (tied on 67 points with Bob; largest property 11 vs 8)`."""
    if not sheet.ranked:
        return ""
    first = [sheet.places[i] for i in sheet.winners]
    if len(first) > 1:
        names = ", ".join(p.name for p in first[:-1]) + " and " + first[-1].name
        return f"{names} share first place with {first[0].score} points ({first[0].detail})"
    p = first[0]
    return f"{p.name} wins with {p.score} points" + (f" ({p.detail})" if p.detail else "")
