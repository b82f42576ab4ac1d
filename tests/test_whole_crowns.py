"""The benchmarks' square bank leaves out squares whose crowns cross their board's grid line.

A labelled board cropped a little off its tiles cuts a crown by a square's side in two: the square cut on
the grid shows half a crown, which no tile on a table does (loose_scenes.crowns_across_grid). Boards 2 and 12
(tests/data/recognition) are neat crops; moved 0.12 of a square, their grid cuts through crowns.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from conftest import TEST_DATA
from kscore.lab.dataset import load_boards
from kscore.lab.loose_scenes import SquareBank, crowns_across_grid

BOARDS = {b.board_id: b for b in load_boards(TEST_DATA / "recognition")}


def _moved(board, dx: float, dy: float) -> np.ndarray:
    """The board's image moved by (dx, dy) squares, its edges repeated: the grid no longer on its tiles."""
    image = cv2.imread(str(board.image))
    side = image.shape[0] / board.kingdom.size
    shift = np.float32([[1, 0, dx * side], [0, 1, dy * side]])
    return cv2.warpAffine(image, shift, (image.shape[1], image.shape[0]), borderMode=cv2.BORDER_REPLICATE)


@pytest.mark.parametrize("name", ["2", "12"])
def test_a_neat_crop_has_no_crown_across_its_grid(name):
    board = BOARDS[name]
    assert crowns_across_grid(cv2.imread(str(board.image)), board.kingdom) == set()


@pytest.mark.parametrize("name", ["2", "12"])
def test_a_crop_off_its_tiles_cuts_crowned_squares_only(name):
    board = BOARDS[name]
    crowned = {p for p, square in board.kingdom.squares() if square.crowns}
    cut = crowns_across_grid(_moved(board, 0.12, 0.0), board.kingdom)
    assert cut and cut <= crowned


def test_the_bank_leaves_out_squares_with_a_crown_across_the_grid(tmp_path):
    board = BOARDS["12"]
    moved = tmp_path / "12.jpg"
    cv2.imwrite(str(moved), _moved(board, 0.12, 0.0), [cv2.IMWRITE_JPEG_QUALITY, 95])
    moved_board = replace(board, image=moved)
    cut = crowns_across_grid(cv2.imread(str(moved)), board.kingdom)
    every = sum(len(v) for v in SquareBank.from_boards([moved_board]).squares.values())
    whole = sum(len(v) for v in SquareBank.from_boards([moved_board], whole_crowns=True).squares.values())
    assert cut and whole == every - len(cut)
