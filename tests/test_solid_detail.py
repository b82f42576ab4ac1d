"""solid_detail: a tile's outline broken by a few pixels (a rug's stripe across it) still encloses the tile;
a carpet's wedge, outlined all round by its own edges, is no tile once the pitch bounds the holes filled."""

from __future__ import annotations

import cv2
import numpy as np

from kscore.vision.find.loose import OUTLINE_HOLES, solid_detail


def _outlined_square(gap: int) -> np.ndarray:
    """A 300x400 detail map holding one 60 px square's outline, 3 px wide, its top side broken by `gap` px."""
    texture = np.zeros((300, 400), np.float32)
    cv2.rectangle(texture, (100, 100), (160, 160), 1.0, 3)
    texture[97:104, 130:130 + gap] = 0.0
    return texture


def test_a_closed_outline_is_solid():
    assert solid_detail(_outlined_square(0))[130, 130] == 1


def test_an_outline_broken_by_a_few_pixels_is_still_solid():
    assert solid_detail(_outlined_square(4))[130, 130] == 1


def test_a_wide_opening_encloses_nothing():
    assert solid_detail(_outlined_square(20))[130, 130] == 0


def test_a_line_of_detail_is_no_tile():
    texture = np.zeros((300, 400), np.float32)
    cv2.line(texture, (20, 250), (380, 40), 1.0, 3)
    assert solid_detail(texture).sum() == 0


def test_a_wedge_outlined_all_round_is_no_tile_once_the_square_is_known():
    """A 60 px square and a triangle of about 5 such squares beside it, both outlined (dev rug seed 14 scene 15:
    the blue wedge joined the kingdom into a piece 11 squares wide, and it was not found)."""
    texture = np.zeros((300, 400), np.float32)
    cv2.rectangle(texture, (20, 100), (80, 160), 1.0, 3)
    cv2.polylines(texture, [np.int32([[120, 60], [380, 120], [120, 200]])], True, 1.0, 3)
    assert solid_detail(texture)[150, 200] == 1  # with no pitch known, anything enclosed is filled
    bounded = solid_detail(texture, OUTLINE_HOLES * 60 * 60)
    assert bounded[130, 50] == 1
    assert bounded[130, 200] == 0
