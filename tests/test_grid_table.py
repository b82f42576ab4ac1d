"""The tile mask's verdict on a grid's squares: what it says is table is read as empty (loose.grid_tables).

`holes_stone.jpg` is a synthetic kingdom laid by hand on beige speckled stone, 5x5 with four empty squares
inside it: the block finder frames it whole, and read alone the bare stone in those squares passed for
plain meadows (dev seed 7 scene 50 read 13 points for 10; two of the four carried no `?`).
"""

from __future__ import annotations

import cv2

from conftest import TEST_DATA
from kscore.game.kingdom import Terrain
from kscore.vision.find.localise import localise
from kscore.vision.find.loose import grid_tables
from kscore.vision.load import load_photo
from kscore.vision.read.reader import read_board

HOLES = TEST_DATA / "loose" / "holes_stone.jpg"
BOARD = TEST_DATA / "photo" / "board1.jpg"


def _grid_and_table(path):
    photo = load_photo(path)
    found = localise(photo)
    (board,) = [b for b in found.boards if not b.partial]
    (table,) = grid_tables(found.working, [(board.corners / (found.working.factor * photo.scale), board.size)])
    return board, table


def test_the_empty_squares_inside_a_hand_laid_kingdom_are_table():
    board, table = _grid_and_table(HOLES)
    assert board.size == 5
    assert sorted(table) == [(1, 0), (2, 2), (2, 4), (4, 2)]  # the scene's empty squares, and no tile


def test_a_tight_crop_says_nothing_of_its_squares():
    """A board cropped to its grid shows no table to learn: every square's verdict is left to the reader."""
    _, table = _grid_and_table(BOARD)
    assert table == frozenset()


def test_squares_said_table_read_empty_but_the_castle_stays():
    image = cv2.imread(str(BOARD))
    plain = read_board(image, 5)
    assert plain.kingdom[(2, 2)].terrain is Terrain.CASTLE and plain.kingdom[(0, 0)].terrain is Terrain.GRASSLAND
    told = read_board(image, 5, table=frozenset({(0, 0), (2, 2)}))
    assert told.kingdom[(0, 0)].terrain is Terrain.EMPTY
    assert told.kingdom[(2, 2)].terrain is Terrain.CASTLE
