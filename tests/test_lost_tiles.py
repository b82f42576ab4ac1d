"""A kingdom found tile by tile takes back the squares the tile mask lost beside it (app.pipeline.with_lost_tiles).

Both photos are synthetic hand-laid kingdoms on the dark striped rug under broad glare, photographed close. The
tile mask loses a dark square at the kingdom's edge and the kingdom a row or a column with it; the count of
tile squares read says so (a castle and whole dominoes make an odd count), and the recogniser, shown the
squares beside the kingdom, sees a tile on exactly what is missing.

`lost_mine_rug.jpg`: a 6x6 kingdom of a 7x7 game, 18 points; its bottom row is one mine with 3 crowns. On
main 8d75f42 it was read 5x6 without that mine (24 tile squares, an even count): 15 points.

`lost_domino_rug.jpg`: a 5x5 kingdom, 5 points; its right column is one domino, a forest with a crown over
a mine. On main 8d75f42 it was read 5x4 without that domino (11 tile squares, odd): 4 points.
"""

from __future__ import annotations

from conftest import TEST_DATA
from kscore.app.pipeline import read_photo, tile_squares
from kscore.game.kingdom import Terrain
from kscore.game.scoring import score_kingdom

LOST_MINE = TEST_DATA / "loose" / "lost_mine_rug.jpg"
LOST_DOMINO = TEST_DATA / "loose" / "lost_domino_rug.jpg"


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
