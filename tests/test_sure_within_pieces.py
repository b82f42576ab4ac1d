"""A castle whose sure mask is joined to a forest's spots is still surely tile.

`spotty_forest_rug.jpg` is a synthetic kingdom of the first round: a forest domino and the flat castle
(2x2 squares, 0 points) on the dark striped rug, 139 px a square. The sure mask (the tile mask opened
for a square) breaks the dark forests into spots; the castle and the spots touching it made one piece,
less solid than a tile, and it was dropped: no cell was surely tile, and on main 46f9454 the photo was
refused ("the only kingdom seen is cut by the photo's bottom edge"). The sure mask is now judged by the
kingdom's pieces it lies in (loose._groups).
"""

from __future__ import annotations

from conftest import TEST_DATA
from kscore.app.pipeline import read_photo
from kscore.lab.measures import kingdom_points
from kscore.vision.find.loose import TILE_SHARE, find_loose
from kscore.vision.load import load_photo

PHOTO = TEST_DATA / "loose" / "spotty_forest_rug.jpg"


def test_the_castle_is_surely_tile_and_the_kingdom_whole():
    (group,) = [g for g in find_loose(load_photo(PHOTO)) if not g.partial]
    assert group.extent == (2, 2)
    assert [p for p, t in group.tile.items() if t >= TILE_SHARE] == [(1, 1)]  # the castle; the forests in doubt


def test_the_first_round_is_read_and_scored():
    (found,) = read_photo(PHOTO).found
    assert found.kingdom.castles() == [(1, 1)]
    assert kingdom_points(found.kingdom) == 0
    squares = dict(found.kingdom.squares())
    assert [squares[p].terrain.name for p in ((0, 0), (0, 1))] == ["FOREST", "FOREST"]
