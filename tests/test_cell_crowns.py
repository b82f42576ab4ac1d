"""Crowns counted on cells seen with a margin, each owned by the cell it lies deepest in
(kscore.vision.read.cell_crowns).

`gapped_3x4_felt.jpg` (tests/data/README.md) is a hand-laid synthetic kingdom whose grassland at row 2,
column 1 holds two crowns by its tile's lower edge; the tile finder fitted its cell a little above the print
(until 2026-12-07; the test now moves it there), and the cell cut alone (as read before 2026-12-04) shows
halves of them: 0 crowns, P 0.51.

A crown just past a tile cell's side, inside a cell read as table, is the tile's (cell_crowns._owned, `table`):
a cell fitted a sixth of a square inside its print left the crowns by the print's outer side in the table
cell beside it, and they were lost with its reading (eval_loose --tilt 25 --seed 630 --holdout, scene 10: a
mine with two crowns read with none). The cell is table where cells.cell_probabilities says so: not surely
tile, and read empty by the recogniser.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from conftest import TEST_DATA
from kscore.app.pipeline import frame_size
from kscore.vision.find.loose import TILE_SHARE, find_loose
from kscore.vision.load import load_photo
from kscore.vision.read import cell_crowns
from kscore.vision.read.cells import _crown_probabilities, _prepared, cell_probabilities, cut_cells
from kscore.vision.read.crowns import Candidates
from kscore.vision.read.features import CELL
from kscore.vision.read.reader import default_models

LOOSE = TEST_DATA / "loose"


def _both_counts(name: str, moved: dict | None = None):
    """Per tile square of the photo's largest group of tiles: crowns counted on the cell cut alone and in place.
    moved: (row, col) -> a shift (x, y, in squares) of that cell off where the finder fitted it."""
    photo = load_photo(LOOSE / name)
    group = max((g for g in find_loose(photo) if not g.partial), key=lambda g: g.squares)  # not a stray
    size = frame_size(group.extent)
    cells = {p: q / photo.scale for p, q in group.cells.items()}
    for p, shift in (moved or {}).items():
        cells[p] = cells[p] + np.float64(shift) * group.pitch / photo.scale
    tiles = [p for p, t in group.tile.items() if t >= TILE_SHARE]
    models = default_models()
    prepared, _, _ = _prepared(cut_cells(photo.image, cells, size), size, tiles, 100)
    cut = _crown_probabilities(prepared, size, models).argmax(axis=-1)
    _, in_place = cell_probabilities(photo.image, cells, size, tiles, models)
    return {p: (int(cut[p]), int(in_place[p].argmax())) for p in tiles}


def test_crowns_by_the_edge_of_a_cell_fitted_off_its_print_are_counted():
    # The finder fitted this cell a sixth of a square above its print until 2026-12-07 (loose._lattice_squared
    # since meets its sides): moved there, as a cell fitted off its print is.
    counts = _both_counts("gapped_3x4_felt.jpg", moved={(1, 0): (0.1, -0.16)})
    cut, in_place = counts[(1, 0)]
    assert cut < 2  # the cut alone loses them: the test tests something
    assert in_place == 2
    # Every other square of the kingdom counts as the cut did, but the castle (row 2, column 1): it bears no
    # crown, and in place it counts none where its cut alone, fitted since 2026-12-07, took in a neighbour's.
    assert counts[(2, 1)][1] == 0
    assert all(a == b for p, (a, b) in counts.items() if p not in ((1, 0), (2, 1)))


@pytest.mark.parametrize("name", ["holes_stone.jpg", "mine_on_rug.jpg", "stray_across_top_wood.jpg"])
def test_squares_whose_crowns_lie_inside_their_cells_count_as_before(name):
    assert all(a == b for a, b in _both_counts(name).values())


def _found_in(cut: tuple[int, int], points) -> Candidates:
    """Candidates found in `cut`'s place of the mosaic at (x, y) of its cell's own square (0..1 inside it)."""
    pad, block = cell_crowns._PAD, cell_crowns._BLOCK
    xs = np.array([cut[1] * block + pad + round(x * CELL) for x, _ in points])
    ys = np.array([cut[0] * block + pad + round(y * CELL) for _, y in points])
    n = len(points)
    return Candidates(ys, xs, np.ones(n), np.zeros(n, int), np.zeros(n, int), np.zeros((n, 4, 1), np.float32))


def _two_cells(right_at: float):
    """Two cells side by side, 100 px a square, the right one `right_at` px right of the left's (under 100:
    overlapping it)."""
    unit = cell_crowns._UNIT
    quads = {(0, 0): unit * 100, (0, 1): unit * 100 + [right_at, 0]}
    return quads, {p: cv2.getPerspectiveTransform(unit, np.float32(q)) for p, q in quads.items()}


def test_a_candidate_belongs_to_the_cell_it_lies_deepest_in():
    # Two cells side by side in the photo, 100 px a square, a gap of 10 px between them.
    quads, to_photo = _two_cells(110)
    # Found in the left cell's cut: inside it; just past its right side, in the gap; inside the right cell;
    # below it, farther than REACH with no cell there; just below it, within REACH.
    found = _found_in((0, 0), [(0.5, 0.5), (1.04, 0.5), (1.2, 0.5), (0.5, 1.25), (0.5, 1.1)])
    keep, ys, xs = cell_crowns._owned(found, list(quads), to_photo)
    assert keep.tolist() == [True, True, False, False, True]
    # Where the counter sees them: in the left square of a board cut on the grid, one outside kept on its side.
    assert (xs < CELL).all() and (ys < CELL).all()
    assert xs[1] == CELL - 1 and ys[2] == CELL - 1


def test_a_crown_past_a_cells_side_into_a_table_cell_is_the_tiles():
    quads, to_photo = _two_cells(90)  # the right cell overlapping the left by a tenth of a square
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
    quads, to_photo = _two_cells(90)
    found = _found_in((0, 0), [(1.3, 0.5), (0.5, 0.5)])
    keep, _, _ = cell_crowns._owned(found, list(quads), to_photo, table=[(0, 1)])
    assert keep.tolist() == [False, True]
