"""Two kingdoms laid by hand in one photo: both are found and scored, neither is said to be cut.

`two_kingdoms_carpet.jpg` is two real photos stacked (carpet_step2 above carpet_step5): two players'
kingdoms on one dotted carpet. The block finder frames the 4x5 kingdom as a 5x5 grid, and lays a 5x5
frame over the 1x5 row that runs off the photo's top and right edges, though the row's tiles lie
well inside the photo. On main f93dbb8 the row was reported "cut by the photo's right and top edge"
and went unscored; tile by tile its group is whole and reads its castle (pipeline.whole_where_cut).
"""

from __future__ import annotations

import numpy as np

from conftest import TEST_DATA
from kscore.app.pipeline import PartialKingdom, _tileset, loose_readings, read_photo, whole_where_cut
from kscore.game.kingdom import Terrain
from kscore.game.rules import GameRules
from kscore.vision.load import load_photo

PHOTO = TEST_DATA / "loose" / "two_kingdoms_carpet.jpg"


def test_a_second_kingdom_smaller_than_its_frame_is_read_not_called_cut():
    game = read_photo(PHOTO)
    assert not game.partial
    assert [k.name for k in game.kingdoms] == ["two_kingdoms_carpet-1", "two_kingdoms_carpet-2"]  # top to bottom
    row, ragged = game.found
    assert sorted(row.extent) == [1, 5] and sorted(ragged.extent) == [4, 5]
    assert all(len(k.kingdom.castles()) == 1 for k in game.found)
    # The row lies in the photo's top half (756 px), the 4x5 kingdom's tiles in the bottom half.
    assert np.float32(row.corners)[:, 1].min() < 756 < np.float32(ragged.corners)[:, 1].min()
    assert sum(sq.terrain is not Terrain.EMPTY for _, sq in row.kingdom.squares()) == 5


def test_only_a_kingdom_seen_cut_where_the_tiles_lie_is_taken_as_whole():
    kingdoms, _, _ = loose_readings(load_photo(PHOTO), _tileset(GameRules()), with_partial=True)
    assert len(kingdoms) == 2  # both groups read a castle
    row = next(i for i, (_, group, _) in enumerate(kingdoms) if sorted(group.extent) == [1, 5])
    on_row = PartialKingdom(tuple(map(tuple, kingdoms[row][1].corners.tolist())), "cut")
    far = PartialKingdom(((5000.0, 5000.0), (6000.0, 5000.0), (6000.0, 6000.0), (5000.0, 6000.0)), "cut")
    # A group reading a castle away from every frame seen cut is left out (beside a kept grid it is more often
    # a stray read wrong), and the cut kingdom it does not overlap stays reported.
    assert whole_where_cut(kingdoms, set(), (far,)) == ([], (far,))
    # A group already standing in for a grid is not added twice.
    assert whole_where_cut(kingdoms, {row}, (on_row,)) == ([], (on_row,))
    whole, left = whole_where_cut(kingdoms, set(), (on_row, far))
    assert [sorted(k.extent) for k in whole] == [[1, 5]] and left == (far,)
