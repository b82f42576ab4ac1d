"""Queendomino: villages, coins, buildings, the queen and the tiebreak, with the arithmetic."""

from __future__ import annotations

import pytest

from expansions_grid import grid
from kscore.game.expansions.errors import ExtrasError
from kscore.game.expansions.queendomino import building_line, coins_line, parse_extras, queen_line, queendomino_lines, tiebreak_key
from kscore.game.expansions.territories import find_territories
from kscore.game.kingdom import Terrain

# Two forest territories (top-left 3 squares, right 2), a 6-square village territory with 3 crowns.
QUEEN = """
F  F  W  W  F1
F  W  W  W  F
V1 V  C  L  L
V  V1 V1 L  L
V  S  S  S  M2
"""


def kingdom(extras=None):
    return grid(QUEEN, "queendomino", extras)


def test_village_territory_scores_size_times_building_crowns():
    village = next(t for t in find_territories(kingdom()) if t.terrain is Terrain.VILLAGE)
    # 6 village squares, buildings with 1 + 1 + 1 crowns: 6 x 3 = 18
    assert (village.size, village.crowns, village.score) == (6, 3, 18)


@pytest.mark.parametrize("coins,points", [(14, 4), (15, 5), (2, 0), (0, 0)])
def test_coins_one_point_per_three_rounded_down(coins, points):
    line = coins_line(parse_extras({"coins": str(coins)}))
    assert line.points == points  # e.g. 14 // 3 = 4
    assert line.kind == "coins" and f"{coins} coins // 3 = {points}" in line.reason


def test_buildings_worked_example():
    extras = {"towers": "2", "knights": "3", "buildings": "5, 3, 2x:forest, 1x:tower, 1x:knight"}
    lines = queendomino_lines(kingdom(extras))
    assert [line.points for line in lines] == [5, 3, 4, 2, 3]
    # 5 + 3 flat; 2 x 2 forest territories = 4; 1 x 2 towers = 2; 1 x 3 knights = 3: 17 in all
    assert sum(line.points for line in lines) == 17
    assert lines[2].reason == "2x:forest: 2 x 2 forest territories = 4"
    assert all(line.kind == "building" for line in lines)


def test_building_counts_territories_not_squares():
    # 2x:village: one village territory of 6 squares -> 2 x 1 = 2, not 2 x 6
    [line] = queendomino_lines(kingdom({"buildings": "2x:village"}))
    assert line.points == 2


def test_queen_on_the_largest_territory():
    line = queen_line(kingdom())
    # The village territory (6 squares) is the largest: one extra crown adds 6 x 1 = 6
    assert line.points == 6 and "village territory at row 3, column 1" in line.reason
    lines = queendomino_lines(kingdom({"queen": "yes", "coins": "7"}))
    assert [(l.kind, l.points) for l in lines] == [("coins", 2), ("queen", 6)]
    assert queendomino_lines(kingdom({"queen": "no"})) == []


def test_queen_on_equal_largest_names_the_first_in_reading_order():
    clear = grid("W W W L L\nW S S L L\nS S C S S\nM M M M M\nM M M M M", "queendomino")
    # wheat 4, lake 4, swamp 4 and 2, mine 10: the mine gets her, +10
    assert queen_line(clear).points == 10
    fives = grid("W W W W W\nL L C S S\nL L L M M\nF F F F F\nG G G G G", "queendomino")
    # wheat 5, lake 5, forest 5, grassland 5 tie: same +5 wherever she goes; kscore names the wheat (row 1)
    line = queen_line(fives)
    assert line.points == 5 and "wheat territory at row 1, column 1" in line.reason


def test_tiebreak_is_the_largest_territory():
    assert tiebreak_key(kingdom()) == (6,)
    assert tiebreak_key(grid("W W W W W\nS S S S S\nS S C L L\nF F F F F\nG G G G G", "queendomino")) == (7,)


@pytest.mark.parametrize(
    "extras,message",
    [
        ({"coins": "lots"}, "coins: expected a whole number, got 'lots'"),
        ({"coins": "-3"}, "coins: cannot be negative"),
        ({"queen": "maybe"}, "queen: expected yes or no"),
        ({"buildings": "5, 2x:forrest"}, "cannot read '2x:forrest'"),
        ({"buildings": "1x:knight"}, "no `knights:` line"),
        ({"buildings": "1x:tower", "knights": "2"}, "no `towers:` line"),
    ],
)
def test_extras_errors(extras, message):
    with pytest.raises(ExtrasError, match=message.replace("(", r"\(")) as error:
        parse_extras(extras)
    assert error.value.key == message.split(":")[0] or error.value.key == "buildings"


def test_building_parse_accepts_plurals_and_spaces():
    extras = parse_extras({"buildings": " 4 , 1x: towers ", "towers": "0"})
    assert [b.per for b in extras.buildings] == [None, "tower"]
    assert building_line(kingdom(), extras.buildings[1], extras).points == 0  # 1 x 0 towers
