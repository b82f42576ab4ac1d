"""read_board and the square classifiers on real board images (tests/data/recognition)."""

from __future__ import annotations

import subprocess
import sys

import cv2
import numpy as np
import pytest

from conftest import PROJECT, TEST_DATA
from kscore.lab.dataset import load_boards
from kscore.game.kingdom import Terrain
from kscore.vision.read.classes import TERRAIN_CLASSES
from kscore.vision.read.reader import read_board, square_probabilities
from kscore.game.scoring import score_kingdom

FOLDER = TEST_DATA / "recognition"


@pytest.fixture(scope="module")
def boards():
    return {b.board_id: (b, cv2.imread(str(b.image))) for b in load_boards(FOLDER)}


@pytest.fixture(scope="module")
def models():
    from kscore.vision.read.reader import default_models

    return default_models()


def _cells(kingdom):
    return [[(s.terrain, s.crowns) for s in row] for row in kingdom.rows]


def test_terrain_classifier_on_real_squares(boards, models):
    # Board 12: castle off centre, two empty squares (the table shows).
    board, image = boards["12"]
    terrain_probs, _ = square_probabilities(image, 5, models)
    read = [[TERRAIN_CLASSES[i] for i in row] for row in terrain_probs.argmax(axis=2)]
    assert read == [[s.terrain for s in row] for row in board.kingdom.rows]
    assert np.allclose(terrain_probs.sum(axis=2), 1.0, atol=1e-4)


def test_crown_counter_on_real_squares(boards, models):
    # Board 2 holds squares with 0, 1, 2 and 3 crowns; castle crowns are not counted.
    board, image = boards["2"]
    _, crown_probs = square_probabilities(image, 5, models)
    assert crown_probs.shape == (5, 5, 4)
    for position, square in board.kingdom.squares():
        if square.terrain is not Terrain.CASTLE:
            assert int(crown_probs[position].argmax()) == square.crowns, position


@pytest.mark.parametrize("board_id", ["2", "12"])
def test_read_board_reads_the_kingdom_and_its_score(boards, board_id):
    board, image = boards[board_id]
    reading = read_board(image, name=f"board {board_id}")
    assert _cells(reading.kingdom) == _cells(board.kingdom)
    assert score_kingdom(reading.kingdom).total == score_kingdom(board.kingdom).total
    assert reading.terrain_probs.shape == (5, 5, 8)
    assert reading.kingdom.name == f"board {board_id}"


def test_read_board_turned_a_quarter_turn_reads_the_turned_kingdom(boards):
    # Crowns face all four ways on a real board; turning the photo must not change the count.
    board, image = boards["2"]
    turned = cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
    reading = read_board(turned, tileset=None)
    assert _cells(reading.kingdom) == _cells(board.kingdom.rotated())


def test_read_board_accepts_other_resolutions(boards):
    board, image = boards["12"]
    smaller = cv2.resize(image, (350, 350), interpolation=cv2.INTER_AREA)
    assert _cells(read_board(smaller).kingdom) == _cells(board.kingdom)


def test_no_tileset_reading_keeps_castle_crownless(boards):
    board, image = boards["2"]
    reading = read_board(image, tileset=None)
    (castle,) = reading.kingdom.castles()
    assert reading.kingdom[castle].crowns == 0


def test_scoring_a_text_grid_never_loads_the_models():
    grid = TEST_DATA / "alice.kingdom"
    code = (
        "import sys\n"
        "from kscore.app.cli import main\n"
        f"try:\n    main([{str(grid)!r}])\nexcept SystemExit:\n    pass\n"
        "loaded = [m for m in sys.modules if m.startswith('kscore.vision.read')]\n"
        "print('LOADED', loaded, file=sys.stderr)\n"
        "assert not loaded, loaded\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=PROJECT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
