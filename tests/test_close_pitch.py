"""A kingdom in its first rounds, photographed close, is read at its squares' size, not a third of it.

Players frame their kingdom's 5x5 frame to fill the photo (`benchmarks/eval_loose.py --close`). A castle and
one domino then show few seams, and the edges' autocorrelation falls slowly from lag 0 through the blurred
print: a ripple on that slope, at a third of a square, stood higher than the tiles' own period and was taken
(the highest peak in the box's bounds), so a 2x2 kingdom was read 6x6 or 7x7 with table squares as tiles.
loose.prominence takes the peak that rises from troughs. The photos are scenes 13 and 30 of
`benchmarks/eval_loose.py --scenes 60 --seed 605 --close --dominoes 1-3 --holdout` (tests/data/README.md),
at the finder's 800 px working size: squares of 121 and 111 px.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kscore.vision.find.loose import _period, find_loose
from kscore.vision.load import load_photo

DATA = Path(__file__).parent / "data" / "loose"


@pytest.mark.parametrize("name, side", [("close_2x2_mat.jpg", 121.3), ("close_2x2_table.jpg", 111.3)])
def test_a_castle_and_a_domino_photographed_close_are_read_2x2_at_their_square(name, side):
    groups = find_loose(load_photo(DATA / name))
    assert len(groups) == 1
    group = groups[0]
    assert group.extent == (2, 2) and not group.partial
    assert abs(group.pitch / side - 1) < 0.08
    assert sum(share >= 0.6 for share in group.tile.values()) == 3  # the castle and the domino's two squares


def test_a_ripple_on_the_slope_loses_to_a_period_that_rises_from_a_trough():
    lags = np.arange(300, dtype=float)
    slope = np.exp(-lags / 40)  # the print's blur: the edges' likeness falls slowly from lag 0
    ripple = 0.08 * np.exp(-((lags - 35) / 3) ** 2)  # a bump on it, higher than the period's peak
    period = 0.3 * np.exp(-((lags - 112) / 6) ** 2)
    ac = slope + ripple + period
    assert ac[35] > ac[112]
    assert abs(_period(ac, 250.0, 250.0, 250.0 ** 2 * 0.75) - 112) < 1
