"""A kept grid's settled squares count their crowns in place (pipeline.settled_reading, read.cell_crowns).

The settling moves a square to where its sides show the most edge; moved a little wrong (a 7x7 kingdom's
lake in `benchmarks/eval_loose.py --holdout --size 7 --seed 592`, scene 28, moved 0.09 of a square down, off
the crown by its top side), the square cut there halves the crown and the reading loses it. Here a neat board
(tests/data/recognition, 100 px a square) stands for the grid rectified with a margin, and each crowned
square alone is cut 0.2 of a square off its print each of four ways (at 0.15 one of the two boards'
44 such cuts loses a crown: the reader counts half a crown): the cut loses crowns, counted in place they stay.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from conftest import TEST_DATA
from kscore.lab.dataset import load_boards
from kscore.vision.find.settle import MARGIN, cut_squares, square_quads
from kscore.vision.read.cell_crowns import crown_probabilities_in_place
from kscore.vision.read.features import prepared_and_gain
from kscore.vision.read.reader import default_models, square_probabilities

BOARDS = {b.board_id: b for b in load_boards(TEST_DATA / "recognition")}
PX = 100
OFF = 0.2
WAYS = ((OFF, 0.0), (-OFF, 0.0), (0.0, OFF), (0.0, -OFF))


def _wide(board) -> np.ndarray:
    """The board at PX a square with MARGIN of a square round it, its edges repeated (as the grid rectified)."""
    size = board.kingdom.size
    image = cv2.resize(cv2.imread(str(board.image)), (size * PX, size * PX), interpolation=cv2.INTER_AREA)
    pad = round(MARGIN * PX)
    return cv2.copyMakeBorder(image, pad, pad, pad, pad, cv2.BORDER_REPLICATE)


def _counts(wide: np.ndarray, size: int, shifts: np.ndarray, models) -> tuple[np.ndarray, np.ndarray]:
    """Crowns of every square cut where `shifts` says (size, size), counted on the cut board and in place."""
    board = cut_squares(wide, size, PX, shifts)
    _, on_cut = square_probabilities(board, size, models)
    quads = square_quads(wide.shape[:2], size, PX, shifts)
    in_place = crown_probabilities_in_place(wide, quads, size, prepared_and_gain(board, size)[1], models)
    return on_cut.argmax(axis=-1), in_place.argmax(axis=-1)


@pytest.mark.parametrize("name", ["2", "12"])
def test_crowns_of_a_square_cut_off_its_print_are_counted_in_place(name):
    board = BOARDS[name]
    size = board.kingdom.size
    wide = _wide(board)
    models = default_models()
    crowned = [(p, sq.crowns) for p, sq in board.kingdom.squares() if sq.crowns]
    lost_on_cut = kept_in_place = 0
    for p, crowns in crowned:
        for dx, dy in WAYS:
            shifts = np.zeros((size, size, 2))
            shifts[p] = (dx * PX, dy * PX)
            on_cut, in_place = _counts(wide, size, shifts, models)
            if on_cut[p] != crowns:
                lost_on_cut += 1
                kept_in_place += in_place[p] == crowns
    assert lost_on_cut >= 2  # cut off their prints, squares lose crowns: the test tests something
    assert kept_in_place >= 0.75 * lost_on_cut


@pytest.mark.parametrize("name", ["2", "12"])
def test_squares_in_their_cells_count_as_on_the_cut(name):
    board = BOARDS[name]
    size = board.kingdom.size
    wide = _wide(board)
    on_cut, in_place = _counts(wide, size, np.zeros((size, size, 2)), default_models())
    truth = np.array([[board.kingdom[(r, c)].crowns for c in range(size)] for r in range(size)])
    assert (in_place == truth).sum() >= (on_cut == truth).sum()
