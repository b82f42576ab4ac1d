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


def _rank(names: Sequence[str], keys: Sequence[tuple[int, ...]], levels: Sequence[str]) -> list[Place]:
    """keys[i] = (points, tiebreak 1, tiebreak 2, ...); levels = their names."""
    places = []
    for i, name in enumerate(names):
        place = 1 + sum(1 for k in keys if k > keys[i])
        tied = [j for j in range(len(names)) if j != i and keys[j][0] == keys[i][0]]
        tiebreak, detail = POINTS, ""
        if tied:
            tiebreak = SHARED
            detail = f"tied on {keys[i][0]} points with " + ", ".join(names[j] for j in tied)
            for level in range(1, len(levels)):
                others = ", ".join(str(keys[j][level]) for j in tied)
                detail += f"; {levels[level]} {keys[i][level]} vs {others}"
                same = [j for j in tied if keys[j][level] == keys[i][level]]
                if not same:
                    tiebreak = levels[level]
                    break
                tied = same
            if tiebreak == SHARED:
                detail += "; place shared"
        places.append(Place(place, name, keys[i][0], tiebreak, detail))
    return sorted(places, key=lambda p: p.place)  # stable: equal places keep input order


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
