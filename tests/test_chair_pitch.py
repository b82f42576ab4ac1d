"""From a chair the groups are found at the columns' pitch across the photo too, where the rows' spacing
down it says otherwise, and kept there where their cells lie on stronger seams.

chair_pattern_4x5.jpg (tests/data/README.md): a 4x5 kingdom scoring 6 on the synthetic patterned carpet,
photographed close from a chair at 143 px a square. Down the photo the squares are drawn shorter and the
carpet's rows of checks closer at the top: the edges' autocorrelation down the photo peaks far from the
square, and summed with the one across it set the pitch at 167 px. The tile path then read a 3x3 kingdom
(score 1). Across, each row's squares are one size: the pitch there is the square's, and the cells laid
at it lie on the tiles' sides.
"""

from pathlib import Path

from kscore.app.pipeline import read_photo
from kscore.lab.measures import kingdom_points
from kscore.vision.find.loose import find_loose
from kscore.vision.load import load_photo

PHOTO = Path(__file__).parent / "data" / "loose" / "chair_pattern_4x5.jpg"
SQUARE_PX = 143  # the scene's pitch as drawn, at the file's size


def test_the_kingdom_is_found_at_its_extent_and_its_square():
    (group,) = find_loose(load_photo(PHOTO))
    assert sorted(group.extent) == [4, 5]
    assert abs(group.pitch / SQUARE_PX - 1) < 0.1


def test_its_score_is_the_kingdoms():
    (kingdom,) = read_photo(PHOTO).kingdoms
    assert kingdom_points(kingdom) == 6
