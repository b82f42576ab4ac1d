"""A grid in doubt whose squares are far smaller than every tile found in the photo frames no kingdom, even
with none of those tiles under it (pipeline.squares_of_tiles).

On a patterned carpet, from a chair, the block finder laid a 5x5 grid of 43 px squares over the carpet's
printed squares, apart from the kingdom; the tile path had found only the kingdom's domino there (186 px a
square, its castle across a gap), so no tile lay under the grid to measure it by, and the grid was scored
with one castle (`benchmarks/eval_loose.py --close --tilt 25 --seed 636 --holdout` scene 53, which a JPEG
saved again no longer shows: the grids here are laid on a real photo's group by hand). Every tile in the
box is one size.
"""

from pathlib import Path

import numpy as np
import pytest

from kscore.app.pipeline import SAME_SQUARE, grid_side, squares_of_tiles
from kscore.vision.find.loose import find_loose
from kscore.vision.load import load_photo

PHOTO = Path(__file__).parent / "data" / "loose" / "double_pitch_wood.jpg"


def _grid(left: float, top: float, side: float, size: int) -> np.ndarray:
    """A size x size grid's corners TL, TR, BR, BL, its squares `side` px."""
    span = side * size
    return np.float32([[left, top], [left + span, top], [left + span, top + span], [left, top + span]])


@pytest.fixture(scope="module")
def group():
    (found,) = find_loose(load_photo(PHOTO))  # a 5x4 kingdom filling x 104-755 of the 1000 px photo
    assert found.corners[:, 0].max() < 780
    return found


def test_a_fine_grid_apart_from_every_tile_frames_none(group):
    fine = _grid(790, 100, 40, 5)  # 200 px to the kingdom's right, over the table alone
    assert grid_side(fine, 5) < SAME_SQUARE * group.pitch
    assert not squares_of_tiles(fine, 5, [group])


def test_a_grid_of_the_tiles_size_apart_from_them_is_measured_as_before(group):
    like = _grid(790, 100, 100, 2)  # squares 0.64 of the tiles': the grid may frame a kingdom the tiles missed
    assert grid_side(like, 2) >= SAME_SQUARE * group.pitch
    assert squares_of_tiles(like, 2, [group])


def test_a_grid_with_no_tile_found_anywhere_is_not_judged(group):
    assert squares_of_tiles(_grid(790, 100, 40, 5), 5, [])


def test_a_fine_grid_over_the_tiles_is_measured_by_them_alone(group):
    over = _grid(200, 200, 40, 5)  # inside the kingdom
    assert not squares_of_tiles(over, 5, [group])
