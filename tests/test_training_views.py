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


def test_a_glare_copy_washes_part_of_the_board_pale_and_keeps_the_rest(boards):
    from kscore.lab.train import glare_veil
    from kscore.vision.read.features import prepare

    board, image = boards["2"]
    prepared = prepare(image, 5)
    veiled = glare_veil(prepared, np.random.default_rng(3))
    assert np.array_equal(veiled, glare_veil(prepared, np.random.default_rng(3)))  # seeded: training is reproducible
    sat = lambda im: cv2.cvtColor(im, cv2.COLOR_BGR2HSV)[..., 1].reshape(5, CELL, 5, CELL).mean(axis=(1, 3))
    drop = sat(prepared) - sat(veiled)
    assert drop.max() > 40  # somewhere the print is washed out
    assert (np.abs(drop) < 5).sum() >= 5  # a veil, not a filter over the whole board
    edges = lambda im: cv2.Canny(cv2.cvtColor(im, cv2.COLOR_BGR2GRAY), 50, 150) > 0
    washed = np.kron(drop > 40, np.ones((CELL, CELL), bool))
    assert (edges(veiled) & edges(prepared))[washed].sum() > 0.2 * edges(prepared)[washed].sum()  # shapes stay


def test_terrain_colours_balanced_on_their_photo_undo_a_colour_cast_and_keep_a_single_square_s_hue(boards):
    from kscore.vision.read.features import balanced, prepare

    board, image = boards["2"]
    prepared = prepare(image, 5)
    warm = np.clip(prepared.astype(np.float32) * np.float32([0.75, 0.95, 1.2]), 0, 255).astype(np.uint8)
    colour = lambda im: im.reshape(-1, 3).mean(axis=0)
    # Half a grey-world: the cast's effect on the features' colours is about halved.
    cast = np.abs(colour(warm) - colour(prepared)).sum()
    assert np.abs(colour(balanced(warm)) - colour(balanced(prepared))).sum() < 0.6 * cast
    assert np.array_equal(balanced(warm, strength=0), warm)
    # One square alone (a phone square) balanced on itself turns greyer; on its photo's squares it keeps its colour.
    r, c = next(p for p, sq in board.kingdom.squares() if sq.terrain in (Terrain.LAKE, Terrain.WHEAT, Terrain.GRASSLAND))
    square = prepared[r * CELL:(r + 1) * CELL, c * CELL:(c + 1) * CELL]
    sat = lambda im: cv2.cvtColor(im, cv2.COLOR_BGR2HSV)[..., 1].mean()
    assert sat(balanced(square, prepared)) > sat(balanced(square)) + 10
