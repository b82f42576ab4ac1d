"""A 5x5 grid with a tile square past it is checked tile by tile, however sure its reading (pipeline).

`grid_inside_7x6_table.jpg`: a 7x6 kingdom of a 7x7 game laid by hand on a plain table, 15 points. The
block finder frames a 5x5 block inside it and reads it surely (one castle, few doubts); the foreground
shows one square of tile in the ring just past that grid (`lattice.squares_beyond`), though more of the
kingdom lies past it, off the grid's lattice. Main 10493e5 kept the grid without looking further and
scored 11; the kingdom found tile by tile, 7x6 with its castle, now replaces it.
"""

from __future__ import annotations

from conftest import TEST_DATA
from kscore.app.pipeline import read_photo, tile_squares
from kscore.game.scoring import score_kingdom

GRID_INSIDE = TEST_DATA / "loose" / "grid_inside_7x6_table.jpg"


def test_a_grid_with_a_tile_past_it_gives_way_to_the_larger_kingdom_found_tile_by_tile():
    (found,) = read_photo(GRID_INSIDE).found
    assert found.extent == (7, 6) and found.kingdom.size == 7
    assert len(found.kingdom.castles()) == 1
    assert tile_squares(found.kingdom) == 23
    assert score_kingdom(found.kingdom).total == 15
