"""A crown cut in two by a cell laid off its print is marked `?`, not silently dropped.

Boards 2 and 12 (tests/data/recognition) are read through the tile-by-tile reader (cells.read_cells) at
their true grid, then with every cell moved 0.18 of a square off the print, as a finder's fit can be on
a kingdom laid by hand. Moved, the counter misreads some crowns at 0.99; before cells.counted_again one
of them on each board came out with no `?` (a wrong score the player had no reason to check).
"""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from conftest import TEST_DATA
from kscore.game.kingdom import Terrain
from kscore.game.tileset import KINGDOMINO
from kscore.vision.read.cells import read_cells

BOARDS = TEST_DATA / "recognition"
LABELS = json.loads((BOARDS / "labels.json").read_text())["boards"]


def _read(name: str, move: tuple[float, float]):
    image = cv2.imread(str(BOARDS / LABELS[name]["image"]))
    side = image.shape[0] / 5
    cells = {(r, c): (np.array([[c, r], [c + 1, r], [c + 1, r + 1], [c, r + 1]], float) + move) * side
             for r in range(5) for c in range(5)}
    return read_cells(image, cells, {p: 1.0 for p in cells}, 5, KINGDOMINO).kingdom


@pytest.mark.parametrize("name", ["2", "12"])
def test_at_the_true_grid_no_square_is_in_doubt(name):
    assert _read(name, (0.0, 0.0)).uncertain() == []


@pytest.mark.parametrize("name", ["2", "12"])
def test_every_crown_count_misread_off_the_print_is_marked(name):
    kingdom = _read(name, (-0.18, 0.0))  # every cell 0.18 of a square to the left of its print
    crowns = LABELS[name]["crowns"]
    misread = [p for p, square in kingdom.squares()
               if square.terrain not in (Terrain.EMPTY, Terrain.CASTLE) and square.crowns != crowns[p[0]][p[1]]]
    assert misread  # the move does cost crowns: the test tests something
    assert all(kingdom[p].uncertain for p in misread)
