"""A kingdom in the middle of the photo is not "cut by the photo's edge" because the table runs there.

`band_to_edge_rug.jpg` is a synthetic hand-laid kingdom (4x5 squares, 5 points) on the dark striped rug,
well inside the photo. The colour model takes a band of the rug for tiles and joins it to the kingdom
down to the photo's bottom edge. On main 3f1cec0 kscore answered "the only kingdom seen is cut by the
photo's bottom edge" (exit 3), the answer the issue saw on real photos; its tiles stop squares short of
the edge, so it is read (loose.cut_sides).
"""

from __future__ import annotations

import numpy as np

from conftest import TEST_DATA
from kscore.app.pipeline import read_photo
from kscore.vision.find.localise import working_image
from kscore.vision.find.loose import _groups_not_cut_by_table, cut_sides
from kscore.vision.load import load_photo

PHOTO = TEST_DATA / "loose" / "band_to_edge_rug.jpg"


def test_a_kingdom_whose_table_band_reaches_the_edge_is_read_not_called_cut():
    game = read_photo(PHOTO)
    assert not game.partial
    (found,) = game.found
    assert len(found.kingdom.castles()) == 1
    rows, cols = sorted(found.extent)
    assert 3 <= rows <= 4 and 4 <= cols <= 5  # the truth is 4x5; at least the tiles joined round the castle
    # Its frame lies inside the photo, squares from the bottom edge the band ran to.
    assert np.float32(found.corners)[:, 1].max() < game.photo_size[1]


def test_the_group_reaches_the_edge_through_table_but_its_tiles_do_not():
    work, _ = working_image(load_photo(PHOTO).image)
    groups, _, _ = _groups_not_cut_by_table(work)
    assert groups and not any(g.touches for g in groups)


def test_tiles_at_the_edge_are_cut_there_and_only_there():
    blob = np.zeros((300, 400), np.uint8)
    blob[100:200, :] = 1  # runs from the left edge to the right edge
    square = lambda x, y: np.float64([[x, y], [x + 50, y], [x + 50, y + 50], [x, y + 50]])  # noqa: E731
    # Tiles from 10 px off the left edge to 3 squares short of the right one: cut on the left only.
    assert cut_sides(blob, [square(10, 100), square(60, 100)], 50.0) == ["left"]
    # A square cut in half at the edge reads as table: its neighbour, 30 px in, still makes the group cut.
    assert cut_sides(blob, [square(30, 120), square(80, 120)], 50.0) == ["left"]
    assert cut_sides(blob, [], 50.0) == []
