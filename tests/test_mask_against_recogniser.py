"""A cell the tile mask calls table but the recogniser sees as a tile is marked `?`: the two disagree.

Board 2 (tests/data/recognition) is read through the tile-by-tile reader (cells.read_cells) at its true grid,
with the mask saying "table" (share 0) on one wheat square and on one grassland square, as a mask that lost
tiles to a table of their colour does. The squares are still read as table (the mask wins: on a busy table the
recogniser often sees a tile in a square of carpet), but marked for the player to look at; the squares the
mask keeps as tiles are not marked for it.
"""

from __future__ import annotations

import json

import cv2
import numpy as np

from conftest import TEST_DATA
from kscore.game.kingdom import Terrain
from kscore.game.tileset import KINGDOMINO
from kscore.vision.read.cells import SEEN_AS_TILE, cell_probabilities, read_cells
from kscore.vision.read.classes import EMPTY
from kscore.vision.read.reader import default_models

BOARDS = TEST_DATA / "recognition"
LABELS = json.loads((BOARDS / "labels.json").read_text())["boards"]
LOST = [(0, 0), (4, 4)]  # the squares the mask calls table


def _board():
    image = cv2.imread(str(BOARDS / LABELS["2"]["image"]))
    side = image.shape[0] / 5
    cells = {(r, c): np.array([[c, r], [c + 1, r], [c + 1, r + 1], [c, r + 1]], float) * side
             for r in range(5) for c in range(5)}
    return image, cells


def test_the_recogniser_sees_the_lost_squares_as_tiles():
    image, cells = _board()
    terrain, _ = cell_probabilities(image, cells, 5, list(cells), default_models())
    assert all(LABELS["2"]["terrain"][r][c] not in ("e", "empty", ".") for r, c in LOST)
    assert all(terrain[p][EMPTY] < SEEN_AS_TILE for p in LOST)


def test_a_tile_the_mask_lost_is_read_as_table_and_marked():
    image, cells = _board()
    tile = {p: 0.0 if p in LOST else 1.0 for p in cells}
    reading = read_cells(image, cells, tile, 5, KINGDOMINO)
    assert all(reading.kingdom[p].terrain is Terrain.EMPTY for p in LOST)
    assert all(reading.kingdom[p].uncertain for p in LOST)
    assert reading.decoder_doubts() == len(reading.kingdom.uncertain()) - len(reading.marked_by_bars)
    assert set(LOST) <= reading.marked_by_bars  # asks the player to look; not the decoder's doubt


def test_with_every_square_kept_as_tile_none_is_marked():
    image, cells = _board()
    assert read_cells(image, cells, {p: 1.0 for p in cells}, 5, KINGDOMINO).kingdom.uncertain() == []
