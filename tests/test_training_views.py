"""The synthetic views training learns from: castles that stand up, boards that soften.

Real board images from tests/data/recognition (boards 2 and 12), and the cut at the found grid.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from conftest import TEST_DATA
from kscore.lab.dataset import load_boards
from kscore.game.kingdom import Terrain
from kscore.lab.synth import Camera, draw_standing_castle
from kscore.vision.read.crowns import find_candidates, square_of
from kscore.vision.read.features import CELL
from kscore.vision.read.reader import default_models, read_board
from kscore.lab.train import CROWN_SOFTENING, _mine, _softened, _transferred_crowns, board_sample, cut_to_found_grid, soften
from kscore.game.tileset import KINGDOMINO


@pytest.fixture(scope="module")
def boards():
    return {b.board_id: (b, cv2.imread(str(b.image))) for b in load_boards(TEST_DATA / "recognition")}


def _camera(tilt_deg: float, side_px: float = 400.0, centre=(450.0, 450.0)) -> Camera:
    """A camera tilted about the board's x axis, scaled so the board is about side_px wide."""
    rotation, _ = cv2.Rodrigues(np.array([np.deg2rad(tilt_deg), 0.0, 0.0]))
    unit = Camera(rotation, 2.0, np.zeros(2), 1.0, np.zeros(2)).quad()
    return Camera(rotation, 2.0, unit.mean(axis=0), side_px / np.linalg.norm(unit[1] - unit[0]), np.asarray(centre))


def _lean_in_squares(camera: Camera) -> float:
    """How far the top of a one-square-tall post on the board's centre shows from its foot, in squares."""
    foot, top = camera.project(np.array([[0.5, 0.5, 0.0], [0.5, 0.5, 0.2]]))
    square = np.linalg.norm(camera.quad()[1] - camera.quad()[0]) / 5
    return float(np.linalg.norm(top - foot) / square)


def test_a_standing_castle_leans_by_the_view_angle():
    assert _lean_in_squares(_camera(0.0)) < 0.05  # from straight above: no lean
    assert 0.5 < _lean_in_squares(_camera(45.0)) < 1.5  # from a chair: about its height


def test_a_standing_castle_seen_from_a_chair_reads_as_the_castle(boards):
    board, image = boards["12"]
    (castle,) = board.kingdom.castles()
    camera = _camera(40.0)
    quad = camera.quad().astype(np.float32)
    src = np.float32([[0, 0], [500, 0], [500, 500], [0, 500]])
    hom = cv2.getPerspectiveTransform(src, quad)
    view = cv2.warpPerspective(cv2.resize(image, (500, 500)), hom, (900, 900)).astype(np.float32)
    before = view.copy()
    draw_standing_castle(view, camera, castle, 5, np.random.default_rng(1))
    assert np.abs(view - before).sum() > 0  # the castle was drawn
    board_view = cv2.warpPerspective(view.astype(np.uint8), hom, (500, 500), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)
    read = read_board(board_view, 5, KINGDOMINO).kingdom
    assert read.castles() == [castle]
    assert read[castle].terrain is Terrain.CASTLE


def test_crowns_learn_from_their_own_number_of_softened_copies(boards):
    board, image = boards["2"]
    sample = board_sample(image, board)
    copies = _softened([sample], CROWN_SOFTENING)
    assert len(copies) == CROWN_SOFTENING.copies

    def detail(prepared):  # fine detail: Laplacian energy
        return cv2.Laplacian(cv2.cvtColor(prepared, cv2.COLOR_BGR2GRAY), cv2.CV_64F).var()

    # Softer than the board, and no two copies alike.
    softened = [detail(c.prepared) for c in copies]
    assert max(softened) < detail(sample.prepared)
    assert len({round(d, 3) for d in softened}) == len(copies)


def test_softened_board_keeps_its_crowns_where_the_clean_board_has_them(boards):
    board, image = boards["2"]
    sample = board_sample(image, board)
    template = default_models().crown_template
    clean = find_candidates(sample.prepared, template, 5)
    label = _mine(clean, clean.response, sample)
    assert label.sum() == sample.crowns_y.sum()  # board 2's crowns all mined

    soft = find_candidates(soften(sample.prepared, np.random.default_rng(3), CROWN_SOFTENING), template, 5)
    soft_label, _turn = _transferred_crowns(clean, label, clean.rotation, soft)
    assert 0.7 * label.sum() <= soft_label.sum() <= label.sum()
    crowns_yx = np.stack([clean.ys[label], clean.xs[label]], axis=1)
    for y, x, square in zip(soft.ys[soft_label], soft.xs[soft_label], square_of(soft, 5)[soft_label]):
        assert np.min(np.hypot(*(crowns_yx - [y, x]).T)) <= 3.0
        assert sample.crowns_y[square] > 0
    assert soft.ys.max() < 5 * CELL  # candidates live on the prepared board


@pytest.mark.parametrize("board_id", ["2", "12"])
def test_a_board_cropped_with_table_showing_is_cut_back_to_its_grid(boards, board_id):
    # The labelled boards are hand crops; training re-cuts each at the grid the
    # localiser finds, as photos are cut. Here 25 px of table (5% of the side)
    # are added on the left and top: the cut must take them off again.
    _, image = boards[board_id]
    h, w = image.shape[:2]
    cropped = cv2.copyMakeBorder(image, 25, 0, 25, 0, cv2.BORDER_CONSTANT, value=(60, 90, 120))
    cropped = cv2.resize(cropped, (w, h), interpolation=cv2.INTER_AREA)
    cut, reference = cut_to_found_grid(cropped), cut_to_found_grid(image)
    assert cut.shape == image.shape

    def off(candidate):  # mean grey difference from the board cut at its grid, borders aside
        a, b = (cv2.cvtColor(x, cv2.COLOR_BGR2GRAY)[20:-20, 20:-20].astype(float) for x in (candidate, reference))
        return float(np.abs(a - b).mean())

    assert off(cut) < off(cropped) / 3
