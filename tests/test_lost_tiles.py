"""A kingdom found tile by tile takes back the squares the tile mask lost beside it (app.pipeline.with_lost_tiles).

Both photos are synthetic hand-laid kingdoms on the dark striped rug under broad glare, photographed close. The
tile mask loses a dark square at the kingdom's edge and the kingdom a row or a column with it; the count of
tile squares read says so (a castle and whole dominoes make an odd count), and the recogniser, shown the
squares beside the kingdom, sees a tile on exactly what is missing.

`lost_mine_rug.jpg`: a 6x6 kingdom of a 7x7 game, 18 points; its bottom row is one mine with 3 crowns. On
main 8d75f42 it was read 5x6 without that mine (24 tile squares, an even count): 15 points.

`lost_domino_rug.jpg`: a 5x5 kingdom, 5 points; its right column is one domino, a forest with a crown over
a mine. On main 8d75f42 it was read 5x4 without that domino (11 tile squares, odd): 4 points.

`outward_domino_dotted.jpg`: a 3x5 kingdom on the dotted carpet, 4 points; its two left squares are one
forest domino laid outward, off the end of a row. The mask loses both halves; beside the kingdom only the
near half reads as a tile (the far one is not beside it). On main ec3cc72 it was read 3x3.

`lost_row_rug.jpg`: a 5x5 kingdom on the rug, its top row a swamp and two grassland squares. The mask loses
a domino of that row; beside the kingdom its squares read P(empty) 0.001 and 0.011, the second just over the
bar that marks a square `?` (0.01). On main 344df27 it was read 4x5 (15 tile squares).

`outward_along_rug.jpg`: a 5x5 kingdom on the rug, 9 points; its top row is one forest domino laid along the
row, one half above the wheat beside the castle, the other above table. The mask loses both; the near half
taken, the far one lies inside the grown extent, not beside it, and was never read: on main 14eb065 it was
read 4x5.

`wood_read_as_tile.jpg`: a 4x3 kingdom on wood, 2 points. The recogniser reads one square of wood beside it
as a tile (P(empty) 0.002) and the one beyond it too (0.004), and six more beside the kingdom between tile and
table (0.03-0.35). Taken as a domino laid outward, the kingdom was read 4x5 (with CLEARLY_TABLE, the rule that
every other square beside it read as table, left out).

`lost_forest_dotted.jpg`: a 5x5 kingdom on the dotted carpet from a chair, 4 points, two stray dominoes
beside it; at its bottom left a dark forest lies beside a lake the mask was unsure of (0.4 of its cell
tile: left to the recogniser, which reads it as lake). Only the squares beside the cells the mask called
tile were read: on main 689fd82 the kingdom was read 5x4 without that forest.

`dark_forest_inside_dotted.jpg`: a 5x5 kingdom on the dotted carpet from a chair, 11 points. The mask calls a
dark forest inside its extent table (0.02 of its cell) and misses the crowned forest beside it and the
grass past that: on main bafab77 it was read 4x5, 16 tile squares, the two forests read as table without the
recogniser being asked. Both read as tile (an even count: part of what is lost), the grass is seen beside them.

`wood_holes_read_as_tile.jpg`: a 5x5 kingdom on wood from a chair, 7 points, four squares of its extent empty.
The recogniser reads such a hole as a tile (P(empty) 0.00-0.01) and the wood past the kingdom too: taken
against the mask, the kingdom read 25 tile squares.
"""

from __future__ import annotations

import pytest

from conftest import TEST_DATA
from kscore.app.pipeline import read_photo, tile_squares
from kscore.game.kingdom import Terrain
from kscore.game.scoring import score_kingdom

LOST_MINE = TEST_DATA / "loose" / "lost_mine_rug.jpg"
LOST_DOMINO = TEST_DATA / "loose" / "lost_domino_rug.jpg"
OUTWARD_DOMINO = TEST_DATA / "loose" / "outward_domino_dotted.jpg"
WOOD_READ_AS_TILE = TEST_DATA / "loose" / "wood_read_as_tile.jpg"
LOST_ROW = TEST_DATA / "loose" / "lost_row_rug.jpg"
OUTWARD_ALONG = TEST_DATA / "loose" / "outward_along_rug.jpg"
LOST_FOREST = TEST_DATA / "loose" / "lost_forest_dotted.jpg"
DARK_FOREST_INSIDE = TEST_DATA / "loose" / "dark_forest_inside_dotted.jpg"
WOOD_HOLES = TEST_DATA / "loose" / "wood_holes_read_as_tile.jpg"


def test_a_kingdom_read_with_an_even_count_takes_the_one_square_seen_as_a_tile_beside_it():
    (found,) = read_photo(LOST_MINE).found
    assert found.extent == (6, 6) and found.kingdom.size == 7
    mine = found.kingdom[(5, 5)]
    assert (mine.terrain, mine.crowns) == (Terrain.MINE, 3)
    assert tile_squares(found.kingdom) == 25
    assert score_kingdom(found.kingdom).total == 18


def test_a_kingdom_read_with_an_odd_count_takes_a_lost_domino_seen_beside_it():
    (found,) = read_photo(LOST_DOMINO).found
    assert found.extent == (5, 5) and found.kingdom.size == 5
    forest, mine = found.kingdom[(3, 4)], found.kingdom[(4, 4)]
    assert (forest.terrain, forest.crowns) == (Terrain.FOREST, 1)
    assert mine.terrain is Terrain.MINE
    assert tile_squares(found.kingdom) == 13
    assert score_kingdom(found.kingdom).total == 5


@pytest.mark.parametrize("photo, extent, squares, tiles", [
    # An odd count, one square seen beside it: the near half of a domino laid outward; its far half is seen
    # beside that one.
    (OUTWARD_DOMINO, (3, 5), {(1, 0): Terrain.FOREST, (1, 1): Terrain.FOREST}, 9),
    # A domino one of whose squares reads P(empty) 0.011, just over the bar that marks a square `?`.
    (LOST_ROW, (5, 5), {(0, 0): Terrain.EMPTY, (0, 1): Terrain.SWAMP, (0, 2): Terrain.GRASSLAND,
                        (0, 3): Terrain.GRASSLAND, (0, 4): Terrain.EMPTY}, 17),
    # Laid outward along the kingdom's side: the near half taken, the far half lies inside the grown extent.
    (OUTWARD_ALONG, (5, 5), {(0, 1): Terrain.EMPTY, (0, 2): Terrain.FOREST, (0, 3): Terrain.FOREST,
                             (0, 4): Terrain.EMPTY}, 13),
], ids=["laid outward", "just over the question mark bar", "laid outward along a side"])
def test_a_lost_domino_is_taken_back(photo, extent, squares, tiles):
    (found,) = read_photo(photo).found
    assert found.extent == extent
    assert {p: found.kingdom[p].terrain for p in squares} == squares
    assert tile_squares(found.kingdom) == tiles


def test_nothing_is_taken_where_squares_beside_the_kingdom_read_between_tile_and_table():
    (found,) = read_photo(WOOD_READ_AS_TILE).found
    assert found.extent == (4, 3)
    assert tile_squares(found.kingdom) == 7
    assert score_kingdom(found.kingdom).total == 2


def test_the_squares_beside_a_tile_only_the_recogniser_saw_are_read_too():
    (found,) = read_photo(LOST_FOREST).found
    assert found.extent == (5, 5)
    assert found.kingdom[(4, 0)].terrain is Terrain.FOREST
    assert found.kingdom[(4, 1)].terrain is Terrain.LAKE
    assert len(found.kingdom.castles()) == 1


def test_a_dark_tile_the_mask_called_table_inside_the_extent_is_read_and_taken():
    (found,) = read_photo(DARK_FOREST_INSIDE).found
    assert found.extent == (5, 5)
    assert found.kingdom[(1, 2)].terrain is Terrain.FOREST
    assert found.kingdom[(0, 3)].terrain is Terrain.GRASSLAND
    assert tile_squares(found.kingdom) == 19
    assert score_kingdom(found.kingdom).total == 11


def test_holes_read_as_tile_are_not_taken_where_the_table_beside_the_kingdom_reads_as_tile_too():
    (found,) = read_photo(WOOD_HOLES).found
    assert found.extent == (5, 5)
    assert tile_squares(found.kingdom) == 21
    assert [found.kingdom[p].terrain for p in ((0, 0), (0, 4), (3, 4), (4, 2))] == [Terrain.EMPTY] * 4
    assert score_kingdom(found.kingdom).total == 7
