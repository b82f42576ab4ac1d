"""Two kingdoms laid by hand in one photo: both are found and scored, neither is said to be cut.

`two_kingdoms_carpet.jpg` is two real photos stacked (carpet_step2 above carpet_step5): two players'
kingdoms on one dotted carpet. The block finder frames the 4x5 kingdom as a 5x5 grid, and lays a 5x5
frame over the 1x5 row that runs off the photo's top and right edges, though the row's tiles lie
well inside the photo. On main f93dbb8 the row was reported "cut by the photo's right and top edge"
and went unscored; tile by tile its group is whole and reads its castle (pipeline.kingdoms_beside_grids).
"""

from __future__ import annotations

import numpy as np

from conftest import TEST_DATA
from kscore.app.pipeline import (PartialKingdom, PhotoKingdom, _tileset, kingdoms_beside_grids, loose_readings,
                                  read_photo)
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
    assert kingdoms_beside_grids(kingdoms, set(), (far,)) == ([], (far,))
    # A group already standing in for a grid is not added twice.
    assert kingdoms_beside_grids(kingdoms, {row}, (on_row,)) == ([], (on_row,))
    whole, left = kingdoms_beside_grids(kingdoms, set(), (on_row, far))
    assert [sorted(k.extent) for k in whole] == [[1, 5]] and left == (far,)


def test_a_group_apart_from_the_grids_is_taken_when_its_castle_is_sure():
    from dataclasses import replace

    kingdoms, _, _ = loose_readings(load_photo(PHOTO), _tileset(GameRules()), with_partial=True)
    (row,) = [k for k in kingdoms if sorted(k[1].extent) == [1, 5]]
    (ragged,) = [k for k in kingdoms if sorted(k[1].extent) == [4, 5]]
    grid = PhotoKingdom(ragged[2].kingdom, tuple(map(tuple, ragged[0].tolist())), (), ragged[1].extent)
    # Given the grids kept (the block finder saw tiles outside them), the row, apart from them, is taken;
    # the 4x5 kingdom, under a grid already, is not taken twice.
    whole, _ = kingdoms_beside_grids([row, ragged], set(), (), [grid])
    assert [sorted(k.extent) for k in whole] == [[1, 5]]
    # Its castle marked `?` (in doubt), it is left out: beside a kingdom that is more often a stray read wrong.
    castle = row[2].kingdom.castles()[0]
    doubted = row[2].kingdom.with_square(castle, replace(row[2].kingdom[castle], uncertain=True))
    assert kingdoms_beside_grids([(row[0], row[1], replace(row[2], kingdom=doubted))], set(), (), [grid]) == ([], ())
    # Without the grids (no tiles seen outside them), it is not looked at.
    assert kingdoms_beside_grids([row], set(), ()) == ([], ())


def test_the_block_finder_says_when_tiles_lie_outside_the_grids_it_kept():
    from kscore.vision.find.localise import localise

    # Two kingdoms: the row outside the 4x5 kingdom's grid holds 5 squares of tile (less what the opening takes).
    assert localise(load_photo(PHOTO)).elsewhere >= 3
    # One neat 7x7 kingdom on a lined cutting mat: nothing outside its grid (a castle and a domino would be 3).
    assert localise(load_photo(TEST_DATA / "photo" / "mat_7x7.jpg")).elsewhere < 1
