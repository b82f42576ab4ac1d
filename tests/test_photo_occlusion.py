"""Squares hidden behind a standing castle: the camera from the board's corners, the hidden squares, the reading."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from kscore.vision.load import Photo
from kscore.vision.find.occlusion import board_homography, camera_from_homography, hidden_squares
from kscore.lab.synth import Camera, background, paste_board
from kscore.app.pipeline import read_board_in_photo
from kscore.game.tileset import KINGDOMINO
from photo_helpers import labelled_boards

WIDTH, HEIGHT = 1600, 1200


def chair_camera(tilt_deg: float, yaw_deg: float = 0.0, distance: float = 1.8, side: float = 600.0) -> Camera:
    """A real camera (principal point at the photo's centre) looking at the board centre, tilted from vertical."""
    yaw = np.deg2rad(yaw_deg)
    turn = np.array([[np.cos(yaw), -np.sin(yaw), 0], [np.sin(yaw), np.cos(yaw), 0], [0, 0, 1]])
    tilt, _ = cv2.Rodrigues(np.array([np.deg2rad(tilt_deg), 0.0, 0.0]))
    return Camera(tilt @ turn, distance, np.zeros(2), side * distance, np.array([WIDTH / 2, HEIGHT / 2]))


def eye_on_table(camera: Camera, size: int) -> np.ndarray:
    """Where the camera stands over the table, in squares (x along columns, y along rows)."""
    eye = camera.rotation.T @ np.array([0, 0, -camera.distance]) * [1, 1, -1] + [0.5, 0.5, 0]
    return eye[:2] * size


@pytest.mark.parametrize("tilt, yaw", [(20, 0), (35, 70), (45, 200), (30, 300)])
def test_the_camera_is_recovered_from_the_board_corners(tilt, yaw):
    camera, size = chair_camera(tilt, yaw), 5
    found = camera_from_homography(board_homography(camera.quad(), size), (WIDTH / 2, HEIGHT / 2), np.hypot(WIDTH, HEIGHT))
    assert found is not None and found.tilt_deg == pytest.approx(tilt, abs=0.5)
    points = np.array([[2.5, 2.5, 1.2], [0, 5, 0.8], [4, 1, 2.0]])  # in squares, z up
    assert np.allclose(found.project(points), camera.project(points / size), atol=0.5)


def test_from_straight_above_nothing_is_called_hidden():
    camera = chair_camera(0)
    assert hidden_squares(camera.quad(), 5, (2, 2), (WIDTH, HEIGHT)) == {}


@pytest.mark.parametrize("yaw", [0, 90, 180, 270, 45])
def test_hidden_squares_lie_behind_the_castle_as_the_camera_sees_it(yaw):
    camera, size, castle = chair_camera(45, yaw), 5, (2, 2)
    hidden = hidden_squares(camera.quad(), size, castle, (WIDTH, HEIGHT))
    assert hidden, "a castle seen at 45 degrees hides something"
    eye = eye_on_table(camera, size)
    castle_centre = np.array([castle[1] + 0.5, castle[0] + 0.5])
    for (r, c), share in hidden.items():
        assert 0.2 <= share <= 1.0
        assert np.linalg.norm(np.array([c + 0.5, r + 0.5]) - eye) > np.linalg.norm(castle_centre - eye)


def test_a_photo_with_a_standing_castle_marks_the_squares_behind_it():
    board = next(b for b in labelled_boards() if b.kingdom.size == 5)
    camera = chair_camera(45, 20)
    rng = np.random.default_rng(3)
    image = background("wood", rng, HEIGHT, WIDTH)
    truth = paste_board(image, board, camera.quad(), rng, camera)
    photo = Photo(Path("table.jpg"), np.clip(image, 0, 255).astype(np.uint8), (WIDTH, HEIGHT))
    castle = truth.kingdom.castles()[0]
    hidden = hidden_squares(truth.corners, 5, castle, photo.size)
    assert hidden

    reading = read_board_in_photo(photo, truth.corners, 5, KINGDOMINO, "table")
    assert reading.kingdom.castles() == [castle]
    assert all(reading.kingdom[p].uncertain for p in hidden)
    assert any("standing castle hides" in change for change in reading.changes)

    plain = read_board_in_photo(photo, truth.corners, 5, KINGDOMINO, "table", occlusion=False)
    assert not any("standing castle" in change for change in plain.changes)
