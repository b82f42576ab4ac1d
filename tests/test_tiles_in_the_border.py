"""A stray domino lying across the photo's edge does not set the table's detail bar.

The texture foreground's bar is twice the 99th percentile of the detail in the photo's border strip,
where the table shows. A stray across the strip puts its edges and print there (10-80x the strip's
median detail): the bar rose, and a kingdom's dark squares (forests on brown wood) fell out of the tile
mask. The colour's pieces of tiles reaching into the strip, printed there and no larger than the largest
inside (loose.strays_across), are now left out of the bar. The scene: `benchmarks/eval_loose.py --seed 433
--holdout` scene 36, at its working size (tests/data/README.md); a 5x4 kingdom scoring 7, one stray across
the top edge, another beside it. A carpet's wedge reaching the strip stays in the bar: test_rug_carpet.py.
"""

from __future__ import annotations

import numpy as np

from conftest import TEST_DATA
from kscore.app.pipeline import read_photo
from kscore.lab.measures import kingdom_points
from kscore.vision.find.loose import (colour_foreground, strays_across, texture_foreground, tile_mask,
                                      without_specks)

SCENE = TEST_DATA / "loose" / "stray_across_top_wood.jpg"


def _image():
    import cv2

    return cv2.imread(str(SCENE))


def test_the_stray_across_the_top_edge_is_left_out_of_the_table_and_nothing_else():
    work = _image()
    h, w = work.shape[:2]
    out = strays_across(work, colour_foreground(work))
    strip = int(0.04 * min(h, w))
    top = out[:strip]
    # The stray lies across the top strip, turned, between x ~535 and ~680; the other three sides are table.
    assert top[:, 560:660].mean() > 0.5
    assert not top[:, :500].any() and not top[:, 720:].any()
    assert not out[-strip:].any() and not out[:, :strip].any() and not out[:, -strip:].any()


def test_the_kingdom_s_tiles_are_one_piece_of_the_tile_mask():
    import cv2

    work = _image()
    colour = colour_foreground(work)
    plain = without_specks(work)
    before = tile_mask(np.maximum(texture_foreground(plain), colour))
    after = tile_mask(np.maximum(texture_foreground(plain, tiles=strays_across(work, colour)), colour))
    # The kingdom lies within x 190-480, y 90-490. Under the stray's bar only the colour and the print held
    # its dominoes, each apart (dark rims and seams between them): four pieces, read as a 4x3 kingdom and
    # two strays. With the table's own bar the seams' detail joins them: one piece (and a speck).
    kingdom = (slice(90, 490), slice(190, 480))
    pieces = lambda mask: cv2.connectedComponentsWithStats(mask[kingdom].copy())[2][1:, cv2.CC_STAT_AREA]  # noqa: E731
    assert (pieces(before) > 5000).sum() == 4
    assert (pieces(after) > 5000).sum() == 1


def test_the_kingdom_is_read_whole():
    game = read_photo(SCENE)
    scores = [kingdom_points(k.kingdom) for k in game.found]
    assert scores == [7]
    assert sorted(game.found[0].extent) == [4, 5]
