"""A kingdom is read at its square's pitch, not at twice it, when every second seam lines up better.

double_pitch_wood.jpg (tests/data/README.md): a 5x4 kingdom laid by hand on the synthetic wood, photographed
close from a chair at 148 px a square. The edges' autocorrelation has the square's peak (0.13) and, at two
squares, a peak barely above zero (0.005) over a deep trough (the table between tiles); measured from that
trough it stood five times prouder and the tile path read the kingdom 3x3 at twice its pitch.
"""

from pathlib import Path

import numpy as np

from kscore.vision.find.loose import _period, find_loose
from kscore.vision.load import load_photo

PHOTO = Path(__file__).parent / "data" / "loose" / "double_pitch_wood.jpg"
SQUARE_PX = 148  # the scene's pitch (178 px drawn at 1200 px), at the file's 1000 px


def test_the_kingdom_is_found_whole_at_its_square():
    (group,) = find_loose(load_photo(PHOTO))
    assert sorted(group.extent) == [4, 5]
    assert abs(group.pitch / SQUARE_PX - 1) < 0.12


def test_a_peak_barely_above_zero_over_a_deep_trough_is_not_the_period():
    lags = np.arange(500, dtype=float)
    ac = np.exp(-lags / 30) + 0.10 * np.exp(-((lags - 100) / 6) ** 2)  # the square's seams
    ac -= 0.3 * np.exp(-((lags - 160) / 20) ** 2) + 0.3 * np.exp(-((lags - 250) / 20) ** 2)  # table between tiles
    ac += 0.0077 * np.exp(-((lags - 205) / 6) ** 2)  # every second seam: a bump out of the trough, just above zero
    assert 0 < ac[205] < 0.01 and ac[100] > 0.13 and ac[160] < -0.25
    assert abs(_period(ac, 450.0, 450.0, 450.0 ** 2 * 0.75) - 100) < 2
