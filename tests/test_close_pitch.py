"""A kingdom in its first rounds, photographed close, is read at its squares' size, not a third of it.

Players frame their kingdom's 5x5 frame to fill the photo (`benchmarks/eval_loose.py --close`). A castle and
one domino then show few seams, and the edges' autocorrelation falls slowly from lag 0 through the blurred
print: a ripple on that slope, at a third of a square, stood higher than the tiles' own period and was taken
(the highest peak in the box's bounds), so a 2x2 kingdom was read 6x6 or 7x7 with table squares as tiles.
loose.prominence takes the peak that rises from troughs. The photos are scenes 13 and 30 of
`benchmarks/eval_loose.py --scenes 60 --seed 605 --close --dominoes 1-3 --holdout` (tests/data/README.md),
at the finder's 800 px working size: squares of 121 and 111 px.

A kingdom photographed from a chair (`eval_loose.py --tilt`): its near rows are larger than its far ones, so
the period smears into small peaks round the square's side and none of them stood out; the most prominent
peak was then a bump in the negative tail (the table between the tiles, a lag of anticorrelation) and the
pitch came out as none: no kingdom found. A period is a positive peak. `from_chair_5x5_dotted.jpg` is scene
54 of `benchmarks/eval_loose.py --scenes 100 --seed 629 --close --tilt 25 --holdout`.

From a chair, a kingdom's seams also drift a little from square to square, the peak at one square smears,
and the one at two squares (every second seam lining up) stood prouder: a 7x7 was read 3x3 and a 5x5 2x3
at twice their pitch. A higher peak near half the proudest one's lag, standing at least half as proud, is
the square (loose.SUBHARMONIC_*). `from_chair_7x7_wood.jpg` and `from_chair_5x5_stone.jpg` are scenes 61
and 90 of the same run.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kscore.app.pipeline import read_photo
from kscore.game.kingdom import Terrain
from kscore.game.scoring import score_kingdom
from kscore.vision.find.loose import _period, find_loose, prominence
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


def test_a_period_is_a_peak_of_likeness_not_a_bump_in_the_unlike_tail():
    lags = np.arange(400, dtype=float)
    ac = np.exp(-lags / 30) + 0.06 * np.exp(-((lags - 90) / 8) ** 2)  # the side's peak, smeared by perspective
    ac -= 0.15 * np.exp(-((lags - 170) / 40) ** 2)  # the tail: the table between the tiles
    ac += 0.05 * np.exp(-((lags - 170) / 4) ** 2)  # a bump there, more prominent than the smeared peak
    assert ac[170] < 0
    assert abs(_period(ac, 450.0, 450.0, 450.0 ** 2 * 0.75) - 90) < 3


def test_a_kingdom_photographed_from_a_chair_is_found_and_scored():
    (found,) = read_photo(DATA / "from_chair_5x5_dotted.jpg").found
    assert found.extent == (5, 5)
    assert score_kingdom(found.kingdom, check=False).total == 10


def test_a_period_read_at_two_squares_gives_way_to_the_higher_peak_at_one():
    lags = np.arange(500, dtype=float)
    ac = np.exp(-lags / 30)  # the print's blur
    ac += 0.12 * np.exp(-((lags - 100) / 5) ** 2)  # the square's seams, smeared by perspective, on that slope
    ac += 0.13 * np.exp(-((lags - 200) / 6) ** 2)  # every second seam lining up: lower, but prouder
    ac -= 0.1 * np.exp(-((lags - 150) / 15) ** 2) + 0.1 * np.exp(-((lags - 250) / 15) ** 2)  # the table between
    proud = prominence(ac, np.array([100, 200]))
    assert proud[1] > proud[0] and ac[100] > ac[200]
    assert abs(_period(ac, 450.0, 450.0, 450.0 ** 2 * 0.75) - 100) < 1


def test_a_lower_ripple_near_half_the_period_is_not_taken_for_the_square():
    lags = np.arange(500, dtype=float)
    ac = np.exp(-lags / 30) + 0.15 * np.exp(-((lags - 200) / 6) ** 2)  # the square's side
    ac += 0.03 * np.exp(-((lags - 100) / 4) ** 2)  # a seam printed inside every square: lower than the side
    ac -= 0.1 * np.exp(-((lags - 150) / 15) ** 2) + 0.1 * np.exp(-((lags - 250) / 15) ** 2)
    assert abs(_period(ac, 450.0, 450.0, 450.0 ** 2 * 0.75) - 200) < 1


@pytest.mark.parametrize("name, extent", [("from_chair_7x7_wood.jpg", (7, 7)), ("from_chair_5x5_stone.jpg", (5, 5))])
def test_a_kingdom_from_a_chair_is_read_at_one_square_not_two(name, extent):
    # The squares read as tiles span the kingdom, whether it was found tile by tile or as a grid (the stone one
    # is a grid since its cells are fitted where the lattice is square: loose._lattice_squared).
    (found,) = read_photo(DATA / name).found
    tiles = [p for p, square in found.kingdom.squares() if square.terrain is not Terrain.EMPTY]
    rows, cols = {r for r, _ in tiles}, {c for _, c in tiles}
    assert (max(rows) - min(rows) + 1, max(cols) - min(cols) + 1) == extent
