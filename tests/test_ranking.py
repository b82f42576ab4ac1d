"""Places with the official tiebreaks, and dynasty totals."""

from __future__ import annotations

from conftest import TEST_DATA
from kscore.game.kingdom import Kingdom, Square, Terrain
from kscore.game.ranking import dynasty, rank
from kscore.game.rules import GameRules
from kscore.game.scoring import score_kingdom
from kscore.game.textformat import read_game


def line_kingdom(name: str, groups: list[tuple[str, int, int]]) -> Kingdom:
    """A 5x5 kingdom: castle at row 2, column 1; group i = (letter, squares, crowns) on row 1, 3 or 5
    from column 1, all its crowns on its first square. Rows 2 and 4 stay empty so groups never touch."""
    letters = {"W": Terrain.WHEAT, "F": Terrain.FOREST, "L": Terrain.LAKE, "M": Terrain.MINE}
    rows = [[Square(Terrain.EMPTY)] * 5 for _ in range(5)]
    rows[1][0] = Square(Terrain.CASTLE)
    for row, (letter, squares, crowns) in zip((0, 2, 4), groups):
        rows[row][:squares] = [Square(letters[letter], crowns if k == 0 else 0) for k in range(squares)]
    return Kingdom.from_rows(name, rows)


def scores(*kingdoms: Kingdom, rules: GameRules = GameRules()):
    return [score_kingdom(k, rules, check=False) for k in kingdoms]


def test_helper_builds_what_it_says():
    s = scores(line_kingdom("a", [("W", 3, 2), ("F", 2, 1)]))[0]
    assert (s.total, s.largest_property, s.crowns) == (3 * 2 + 2 * 1, 3, 3)


def test_points_decide():
    a = line_kingdom("Ann", [("W", 2, 1)])  # 2 points
    b = line_kingdom("Ben", [("W", 3, 1)])  # 3 points
    places = rank(scores(a, b))
    assert [(p.place, p.name, p.score, p.tiebreak) for p in places] == [(1, "Ben", 3, "points"), (2, "Ann", 2, "points")]


def test_tie_on_points_goes_to_the_largest_property_crowned_or_not():
    # Ann: 2 x 3 = 6, largest 4 (an uncrowned forest). Ben: 3 x 2 = 6, largest 3.
    a = line_kingdom("Ann", [("W", 2, 3), ("F", 4, 0)])
    b = line_kingdom("Ben", [("W", 3, 2)])
    places = rank(scores(a, b))
    assert [(p.place, p.name, p.tiebreak) for p in places] == [(1, "Ann", "largest property"), (2, "Ben", "largest property")]
    assert "tied on 6 points with Ben; largest property 4 vs 3" == places[0].detail


def test_then_the_most_crowns():
    a = line_kingdom("Ann", [("W", 3, 2)])  # 6 points, largest 3, 2 crowns
    b = line_kingdom("Ben", [("W", 3, 1), ("F", 3, 1)])  # 3 + 3 = 6 points, largest 3, 2 crowns
    c = line_kingdom("Cat", [("W", 1, 3), ("F", 3, 1)])  # 3 + 3 = 6 points, largest 3, 4 crowns
    places = rank(scores(a, b, c))
    assert [(p.place, p.name, p.tiebreak) for p in places] == [
        (1, "Cat", "most crowns"),
        (2, "Ann", "shared"),
        (2, "Ben", "shared"),
    ]
    assert places[1].detail.endswith("place shared")


def test_full_tie_is_a_shared_victory():
    a = line_kingdom("Ann", [("W", 2, 1)])
    b = line_kingdom("Ben", [("L", 2, 1)])
    assert [(p.place, p.tiebreak) for p in rank(scores(a, b))] == [(1, "shared"), (1, "shared")]


def test_queendomino_has_no_crowns_tiebreak():
    a = line_kingdom("Ann", [("W", 3, 2)])
    c = line_kingdom("Cat", [("W", 1, 3), ("F", 3, 1)])  # same points and largest, more crowns
    assert [p.place for p in rank(scores(a, c), "kingdomino")] == [1, 2]
    assert [(p.place, p.tiebreak) for p in rank(scores(a, c), "queendomino")] == [(1, "shared"), (1, "shared")]


def test_variant_bonuses_count_in_the_ranking():
    full = "W1 W0 W0 W0 W0\nW0 W0 W0 W0 W0\nW0 W0 C W0 W0\nW0 W0 W0 W0 W0\nW0 W0 W0 W0 W0\n"
    from kscore.game.textformat import parse_game

    a = parse_game(full, "a").kingdoms[0]  # 24 x 1 = 24, +15 with both variants
    b = line_kingdom("b", [("M", 4, 3), ("W", 3, 3)])  # 4 x 3 + 3 x 3 = 21, not full
    both = GameRules(variants=frozenset({"middle-kingdom", "harmony"}))
    assert [p.name for p in rank(scores(a, b, rules=both))] == ["a", "b"]
    assert [(p.name, p.score) for p in rank(scores(a, b, rules=both))] == [("a", 39), ("b", 21)]


def test_dynasty_sums_by_player_name_over_games():
    games = [read_game(TEST_DATA / f"dynasty{i}.kingdom") for i in (1, 2, 3)]
    per_game = [[score_kingdom(k, g.rules, check=False) for k in g.kingdoms] for g in games]
    result = dynasty(per_game, ["g1", "g2", "g3"])
    rows = {r.name: (r.games, r.total) for r in result.rows}
    # Board 1 scores 36 and board 2 scores 43 (test_scoring); game 2 plays harmony (+5, both full).
    assert rows == {
        "Alice": ((36, 43 + 5, 36), 36 + 48 + 36),
        "Bob": ((43, 36 + 5, None), 43 + 41),  # "bob" in game 2 is Bob
        "Carol": ((None, None, 43), 43),
    }
    assert [(p.place, p.name, p.score) for p in result.ranking] == [(1, "Alice", 120), (2, "Bob", 84), (3, "Carol", 43)]
    assert result.warnings == ("Bob has no kingdom in g3", "Carol has no kingdom in g1, g2")


def test_dynasty_ties_are_shared():
    a, b = line_kingdom("Ann", [("W", 2, 1)]), line_kingdom("Ben", [("W", 2, 1)])
    result = dynasty([scores(a, b), scores(b, a)])
    assert [(p.place, p.score, p.tiebreak) for p in result.ranking] == [(1, 4, "shared"), (1, 4, "shared")]
