"""A whole grid's squares read where their prints lie (kscore.vision.find.settle, pipeline.settled_reading).

Dominoes laid by hand lie 0.1-0.3 of a square off the grid localise finds; read in its regular cells, a
crown by a print's edge was lost or counted in the neighbour's square (`benchmarks/eval_wrong_squares.py
--scenes 100 --seed 13 --crowns`). Scene 49 of that run (a 7x7 kingdom on a mat, found as a whole grid):
the crown of a wheat square whose domino lies 0.1 of a square up and left was lost (score 38 of 50); scene
68 (a 5x5 on a plain table): a wheat square beside a crowned one read a crown (16 for 14). Both fail on the
main before this and pass here. A neat board (a labelled 500x500 one) keeps its squares where the grid says.
Scenes come from kscore.lab.loose_scenes and need ../shared/data (skipped visibly without it).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from kscore.app.pipeline import read_loaded_photo
from kscore.game.kingdom import Terrain
from kscore.lab.dataset import LabelledExtent, load_boards
from kscore.lab.evaluate_photos import extent_squares_right
from kscore.lab.measures import kingdom_points
from kscore.vision.load import Photo
from photo_helpers import generator_state, loose_scene

SEED13_INC = 317612346296202158696945144441957901887  # `--seed 13`'s increment: the same for the whole run
#: Before scene 49 of `--seed 13`: a 7x7 kingdom (50 points) on a mat, no strays.
MAT_49 = generator_state(142072527399862048808259017162253077562, SEED13_INC, 0, 3197665266)
#: Before scene 68 of `--seed 13`: a 5x5 kingdom (14 points) on a plain table, one stray.
TABLE_68 = generator_state(15535230874586563382533944788717211951, SEED13_INC, 1, 1864974358)


@pytest.fixture(scope="module")
def scenes(kingdomino_data, tiles_phone_data):
    return {"mat49": loose_scene(kingdomino_data, tiles_phone_data, MAT_49),
            "table68": loose_scene(kingdomino_data, tiles_phone_data, TABLE_68)}


def _read(scene, name: str):
    game = read_loaded_photo(Photo(Path(name), scene.image, (scene.image.shape[1], scene.image.shape[0])))
    truth = LabelledExtent(scene.rows, scene.score)
    best = max(game.found, key=lambda k: extent_squares_right(truth, k.kingdom))
    return best, truth


def _crowned(squares, terrain: Terrain) -> int:
    return sum(sq.crowns for sq in squares if sq.terrain is terrain)


def test_the_scenes_are_the_ones_described(scenes):
    described = {"mat49": ("mat", 7, 7, 0, 50), "table68": ("table", 5, 5, 1, 14)}
    for name, scene in scenes.items():
        assert (scene.surface, len(scene.rows), len(scene.rows[0]), scene.strays, scene.score) == described[name]


def test_a_crown_by_the_edge_of_a_shifted_domino_is_counted(scenes):
    found, truth = _read(scenes["mat49"], "mat49.jpg")
    assert found.extent is None  # read on the grid localise found, not tile by tile
    kingdom = found.kingdom
    assert extent_squares_right(truth, kingdom) >= truth.squares - 1
    wheat = _crowned([sq for row in truth.rows for sq in row], Terrain.WHEAT)
    assert _crowned([sq for _, sq in kingdom.squares()], Terrain.WHEAT) == wheat
    assert kingdom_points(kingdom) >= 49  # main read 38 of 50 (the forest crown it also misses is marked `?`)


def test_a_crown_beside_a_square_is_not_counted_in_it(scenes):
    found, truth = _read(scenes["table68"], "table68.jpg")
    assert found.extent is None
    assert extent_squares_right(truth, found.kingdom) == truth.squares
    assert kingdom_points(found.kingdom) == truth.score


def test_a_neat_board_keeps_its_squares_in_their_cells(kingdomino_data):
    """The labelled boards' tiles touch and their seams lie on the grid: few squares move, none far."""
    from kscore.vision.find.settle import MARGIN, square_shifts

    moved, far, squares = 0, 0, 0
    px = 100
    margin = int(MARGIN * px)
    for board in load_boards(kingdomino_data)[:12]:
        image = cv2.resize(cv2.imread(str(board.image)), (5 * px, 5 * px), interpolation=cv2.INTER_AREA)
        wide = cv2.copyMakeBorder(image, margin, margin, margin, margin, cv2.BORDER_REPLICATE)
        length = np.hypot(*square_shifts(wide, 5, px).reshape(-1, 2).T) / px
        squares += length.size
        moved += int(np.sum(length > 0))
        far += int(np.sum(length > 0.2))
    assert far == 0
    assert moved < 0.6 * squares
