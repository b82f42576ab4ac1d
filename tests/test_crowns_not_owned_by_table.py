"""A crown just past a tile cell's side, inside a cell read as table, is the tile's (cell_crowns._owned).

A cell fitted a sixth of a square inside its print leaves the crowns by the print's outer side in the cell
beside it; where that cell is table (the kingdom's edge), it took them and they were lost with its reading
(eval_loose --tilt 25 --seed 630 --holdout, scene 10: a mine with two crowns read with none). The cell is
table where cells.cell_probabilities says so: not surely tile, and read empty by the recogniser.
"""

from __future__ import annotations

import cv2
import numpy as np

from kscore.vision.read import cell_crowns
from kscore.vision.read.crowns import Candidates
from kscore.vision.read.features import CELL

_UNIT = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])


def _found_in(cut: tuple[int, int], points) -> Candidates:
    """Candidates found in `cut`'s place of the mosaic at (x, y) of its cell's own square (0..1 inside it)."""
    pad, block = cell_crowns._PAD, cell_crowns._BLOCK
    xs = np.array([cut[1] * block + pad + round(x * CELL) for x, _ in points])
    ys = np.array([cut[0] * block + pad + round(y * CELL) for _, y in points])
    n = len(points)
    return Candidates(ys, xs, np.ones(n), np.zeros(n, int), np.zeros(n, int), np.zeros((n, 4, 1), np.float32))


def _two_cells():
    """Two cells side by side, 100 px a square, the right one overlapping the left by a tenth of a square."""
    quads = {(0, 0): _UNIT * 100, (0, 1): _UNIT * 100 + [90, 0]}
    return quads, {p: cv2.getPerspectiveTransform(_UNIT, np.float32(q)) for p, q in quads.items()}


def test_a_crown_past_a_cells_side_into_a_table_cell_is_the_tiles():
    quads, to_photo = _two_cells()
    # Found in the left cut 0.1 past its right side (0.2 inside the right cell), and the same crown found again
    # in the right cut.
    found = _found_in((0, 0), [(1.1, 0.5)])
    right = _found_in((0, 1), [(0.2, 0.5)])
    both = Candidates(*(np.concatenate([getattr(found, f), getattr(right, f)])
                        for f in ("ys", "xs", "response", "rotation", "scale", "patches")))
    keep, _, _ = cell_crowns._owned(both, list(quads), to_photo)
    assert keep.tolist() == [False, True]  # two tiles: the right one's, as before
    keep, ys, xs = cell_crowns._owned(both, list(quads), to_photo, table=[(0, 1)])
    assert keep.tolist() == [True, False]  # the right cell is table: the left tile's, once
    assert xs[0] == CELL - 1  # kept on the left cell's side


def test_a_table_cell_takes_nothing_past_reach():
    quads, to_photo = _two_cells()
    found = _found_in((0, 0), [(1.3, 0.5), (0.5, 0.5)])
    keep, _, _ = cell_crowns._owned(found, list(quads), to_photo, table=[(0, 1)])
    assert keep.tolist() == [False, True]
