"""Who won: places with the official tiebreaks, and dynasty totals over several games.

Kingdomino (rules.md section 1): points, then the largest property (squares,
crowned or not), then the most crowns, else a shared place. Queendomino: points,
then the largest territory, else shared. Each place records the tiebreak that
decided it: "points" when no one had the same total, else the first tiebreak
that set it apart from everyone on its total, or "shared".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from kscore.game.scoring import KingdomScore

POINTS, SHARED = "points", "shared"

#: Tiebreak keys by name, and the order each game applies them in.
TIEBREAK_KEYS: dict[str, Callable[[KingdomScore], int]] = {
    "largest property": lambda s: s.largest_property,
    "most crowns": lambda s: s.crowns,
}
TIEBREAKS: dict[str, tuple[str, ...]] = {
    "kingdomino": ("largest property", "most crowns"),
    "queendomino": ("largest property",),
}


@dataclass(frozen=True)
class Place:
    place: int  # 1 = winner; shared places repeat the number
    name: str
    score: int
    tiebreak: str  # "points", a TIEBREAK_KEYS name, or "shared"
    detail: str  # a sentence for people, e.g. "tied on 45 points with Bob; largest property 8 vs 6"


#: A tie's detail names at most this many of the others (a file of 5,000 kingdoms can tie thousands).
LISTED = 3


def _rank(names: Sequence[str], keys: Sequence[tuple[int, ...]], levels: Sequence[str]) -> list[Place]:
    """keys[i] = (points, tiebreak 1, tiebreak 2, ...); levels = their names.

    Linear but for sorting: players are grouped by each prefix of their key, and a
    player's detail reads only its groups' sizes, first members and extreme values."""
    count = len(names)
    groups: list[dict[tuple[int, ...], list[int]]] = [{} for _ in levels]  # level -> key prefix -> players
    for i, key in enumerate(keys):
        for level in range(len(levels)):
            groups[level].setdefault(key[: level + 1], []).append(i)
    # [level - 1][prefix of `level` values]: the sorted values at `level` of those sharing that prefix
    sorted_values = [{prefix: sorted(keys[j][level + 1] for j in members) for prefix, members in groups[level].items()}
                     for level in range(len(levels) - 1)]
    order = sorted(range(count), key=lambda i: keys[i], reverse=True)
    place_of, above = [0] * count, 0
    for position, i in enumerate(order):
        if position and keys[i] != keys[order[position - 1]]:
            above = position
        place_of[i] = above + 1
    places = []
    for i, name in enumerate(names):
        tiebreak, detail = POINTS, ""
        tied = groups[0][keys[i][:1]]
        if len(tied) > 1:
            tiebreak = SHARED
            detail = f"tied on {keys[i][0]} points with {_others(tied, i, names)}"
            for level in range(1, len(levels)):
                mine = keys[i][level]
                detail += f"; {levels[level]} {mine} vs {_other_values(tied, i, keys, level, sorted_values)}"
                tied = groups[level][keys[i][: level + 1]]
                if len(tied) == 1:
                    tiebreak = levels[level]
                    break
            if tiebreak == SHARED:
                detail += "; place shared"
        places.append(Place(place_of[i], name, keys[i][0], tiebreak, detail))
    return sorted(places, key=lambda p: p.place)  # stable: equal places keep input order


def _others(group: list[int], me: int, names: Sequence[str]) -> str:
    """The other players of a group: all of them when few, else the first and how many more."""
    shown = [names[j] for j in group[: LISTED + 1] if j != me][:LISTED]
    more = len(group) - 1 - len(shown)
    return ", ".join(shown) + (f" and {more:,} others" if more else "")


def _other_values(group: list[int], me: int, keys, level: int, sorted_values) -> str:
    """The others' values at a tiebreak level: each when few, else their range."""
    if len(group) - 1 <= LISTED:
        return ", ".join(str(keys[j][level]) for j in group if j != me)
    values, mine = sorted_values[level - 1][keys[me][:level]], keys[me][level]
    low = values[1] if values[0] == mine else values[0]  # one copy of mine left out
    high = values[-2] if values[-1] == mine else values[-1]
    return f"{low}-{high} ({len(group) - 1:,} others)" if low != high else f"{low} ({len(group) - 1:,} others)"


def rank(scores: Sequence[KingdomScore], game: str | None = None) -> list[Place]:
    """Places for the kingdoms of one game, with the game's tiebreaks."""
    game = game or (scores[0].rules.game if scores else "kingdomino")
    levels = (POINTS, *TIEBREAKS.get(game, TIEBREAKS["kingdomino"]))
    keys = [(s.total, *(TIEBREAK_KEYS[name](s) for name in levels[1:])) for s in scores]
    return _rank([s.kingdom.name for s in scores], keys, levels)


@dataclass(frozen=True)
class DynastyRow:
    name: str
    games: tuple[int | None, ...]  # the player's total in each game, None if absent
    total: int


@dataclass(frozen=True)
class Dynasty:
    rows: tuple[DynastyRow, ...]  # in first-appearance order
    ranking: tuple[Place, ...]  # by summed totals; ties are shared
    warnings: tuple[str, ...]


def _player_key(name: str) -> str:
    return " ".join(name.split()).casefold()


def dynasty(games: Sequence[Sequence[KingdomScore]], game_names: Sequence[str] | None = None) -> Dynasty:
    """Sum each player's totals over several games; players match by name (case and spacing ignored)."""
    game_names = list(game_names or [f"game {i + 1}" for i in range(len(games))])
    order: dict[str, str] = {}  # key -> name as first written
    per_game: list[dict[str, int]] = []
    for scores in games:
        totals: dict[str, int] = {}
        for score in scores:
            key = _player_key(score.kingdom.name)
            order.setdefault(key, score.kingdom.name)
            totals[key] = score.total
        per_game.append(totals)
    rows = tuple(
        DynastyRow(name, tuple(t.get(key) for t in per_game), sum(t.get(key, 0) for t in per_game))
        for key, name in order.items()
    )
    warnings = tuple(
        f"{row.name} has no kingdom in {', '.join(g for g, v in zip(game_names, row.games) if v is None)}"
        for row in rows
        if None in row.games
    )
    ranking = _rank([r.name for r in rows], [(r.total,) for r in rows], (POINTS,))
    return Dynasty(rows, tuple(ranking), warnings)
