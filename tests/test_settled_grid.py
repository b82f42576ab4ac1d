"""A whole grid's squares read where their prints lie (kscore.vision.find.settle, pipeline.settled_reading).

Dominoes laid by hand lie 0.1-0.3 of a square off the grid localise finds; read in its regular cells, a
crown by a print's edge was lost or counted in the neighbour's square (`benchmarks/eval_wrong_squares.py
--scenes 100 --seed 13 --crowns`). Scene 75 of that run (a 5x5 kingdom on wood, found as a whole grid): the crown of
a lake whose domino lies 0.12 of a square up and left of its cell was lost (13 for 15); scene 46 (a 5x5 on
felt): a crowned wheat square whose domino lies 0.2 of a square up read as forest (26 for 19). Both fail on
the main before this and pass here. A neat board (a labelled 500x500 one) keeps its squares where the grid says.
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
#: Before scene 75 of `--seed 13`: a 5x5 kingdom (15 points) on wood, two strays.
WOOD_75 = generator_state(164560111568131625374126457079669332832, SEED13_INC, 1, 431926166)
#: Before scene 46 of `--seed 13`: a 5x5 kingdom (19 points) on felt, three strays.
FELT_46 = generator_state(59004091783451513210549632608358703982, SEED13_INC, 0, 2031537953)


@pytest.fixture(scope="module")
def scenes(kingdomino_data, tiles_phone_data):
    return {"wood75": loose_scene(kingdomino_data, tiles_phone_data, WOOD_75),
            "felt46": loose_scene(kingdomino_data, tiles_phone_data, FELT_46)}


def _read(scene, name: str):
    game = read_loaded_photo(Photo(Path(name), scene.image, (scene.image.shape[1], scene.image.shape[0])))
    truth = LabelledExtent(scene.rows, scene.score)
    best = max(game.found, key=lambda k: extent_squares_right(truth, k.kingdom))
    return best, truth


def _crowns(squares, terrain: Terrain) -> int:
    return sum(sq.crowns for sq in squares if sq.terrain is terrain)


def test_the_scenes_are_the_ones_described(scenes):
    described = {"wood75": ("wood", 5, 5, 2, 15), "felt46": ("felt", 5, 5, 3, 19)}
    for name, scene in scenes.items():
        assert (scene.surface, len(scene.rows), len(scene.rows[0]), scene.strays, scene.score) == described[name]


@pytest.mark.parametrize("name, terrain", [("wood75", Terrain.LAKE), ("felt46", Terrain.WHEAT)])
def test_a_shifted_domino_is_read_where_it_lies(scenes, name, terrain):
    found, truth = _read(scenes[name], f"{name}.jpg")
    assert found.extent is None  # read on the grid localise found, not tile by tile
    assert extent_squares_right(truth, found.kingdom) == truth.squares
    assert _crowns([sq for _, sq in found.kingdom.squares()], terrain) == _crowns(
        [sq for row in truth.rows for sq in row], terrain)
    assert kingdom_points(found.kingdom) == truth.score


def test_a_neat_board_keeps_its_squares_in_their_cells(kingdomino_data):
    """The labelled boards' tiles touch and their seams lie on the grid: few squares move, hardly any far.

    (On the 54 boards at this change: 18% of squares moved, 9 of 1350 by over 0.15 of a square; a square
    moved wrongly is read on 85% of its print, and the kingdom's reading is kept unless the settled one
    is as plausible: pipeline.settled_reading.)
    """
    from kscore.vision.find.settle import MARGIN, square_shifts

    moved, far, squares = 0, 0, 0
    px = 100
    margin = int(MARGIN * px)
    for board in load_boards(kingdomino_data):
        image = cv2.resize(cv2.imread(str(board.image)), (5 * px, 5 * px), interpolation=cv2.INTER_AREA)
        wide = cv2.copyMakeBorder(image, margin, margin, margin, margin, cv2.BORDER_REPLICATE)
        length = np.hypot(*square_shifts(wide, 5, px).reshape(-1, 2).T) / px
        squares += length.size
        moved += int(np.sum(length > 0))
        far += int(np.sum(length > 0.15))
    assert far <= 0.01 * squares
    assert moved < 0.25 * squares
