"""Which squares a standing 3D castle hides from the camera.

A photo taken from a chair sees the castle lean away from the camera: the
squares behind it are not in the photo at all, whatever the recogniser says
about them. The board's homography (grid corners in the photo) gives the
camera, up to its focal length, once the principal point is taken at the
photo's centre (phones don't crop off-centre): the board plane's two axes must
be perpendicular and equally long in space, which fixes the focal length when
the board is seen at an angle. From the camera, the castle (a box with a roof,
standing on its square) projects to a silhouette; mapped back onto the board
plane, that silhouette is the area hidden behind it.

Seen from nearly straight above, the focal length cannot be recovered and the
castle leans by an amount nobody can tell from the board alone; it hides
little then, so no square is called hidden (`MIN_TILT_DEG`).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from kscore.game.kingdom import Position
from kscore.vision.geometry import Quad

#: A Kingdomino castle, in squares: a tower about 0.7 wide, walls about 0.8 high
#: and a roof to about 1.2. The silhouette is the hull of these points.
CASTLE_HALF_WIDTH = 0.35
CASTLE_WALL_HEIGHT = 0.8
CASTLE_TOP_HEIGHT = 1.2
#: Below this tilt from vertical the camera is not recovered (see module doc).
MIN_TILT_DEG = 12.0
#: A phone's focal length ranges about 0.5-2 times the photo's diagonal (wide to
#: 2x zoom); an estimate outside that is a corner error, not a camera.
FOCAL_RANGE = (0.4, 2.5)
#: A square hidden this much or more is read as unseen. benchmarks/eval_castle.py
#: (camera-true scenes, tilt 15-50 degrees, castle standing, 60 boards): 0.2 leaves
#: 1 wrong square unmarked against 7 when nothing is hidden; 0.3 left 3 in a
#: first run, and blending squares hidden less than 0.2 changed right readings.
HIDDEN_SHARE = 0.2


@dataclass(frozen=True)
class BoardCamera:
    """A pinhole camera in board coordinates (x along columns, y along rows, z up; units: squares)."""

    matrix: np.ndarray  # (3, 4) projection
    tilt_deg: float  # angle between the camera's axis and the table's vertical

    def project(self, points: np.ndarray) -> np.ndarray:
        p = np.c_[np.asarray(points, float), np.ones(len(points))] @ self.matrix.T
        return p[:, :2] / p[:, 2:3]


def board_homography(corners: Quad, size: int) -> np.ndarray:
    """Board plane (in squares) -> photo pixels, from the grid's corners TL, TR, BR, BL."""
    board = np.float32([[0, 0], [size, 0], [size, size], [0, size]])
    return cv2.getPerspectiveTransform(board, np.float32(corners)).astype(np.float64)


def camera_from_homography(homography: np.ndarray, principal: tuple[float, float], diagonal: float) -> BoardCamera | None:
    """The camera that sees the board plane through `homography`, or None when it cannot be told.

    principal: the principal point (the photo's centre); diagonal: the photo's
    diagonal in pixels, which bounds a plausible focal length.
    """
    shift = np.array([[1, 0, -principal[0]], [0, 1, -principal[1]], [0, 0, 1]], float)
    h = shift @ homography
    a, b = h[:, 0], h[:, 1]
    # K^-1 a and K^-1 b are perpendicular and of equal length; both are linear in w = 1/f^2.
    rows = np.array([[a[0] * b[0] + a[1] * b[1], a[2] * b[2]],
                     [a[0] ** 2 + a[1] ** 2 - b[0] ** 2 - b[1] ** 2, a[2] ** 2 - b[2] ** 2]])
    scale = np.linalg.norm(rows[:, 0])
    if scale == 0:
        return None
    w = -float(rows[:, 0] @ rows[:, 1]) / scale**2
    if w <= 0:
        return None
    focal = 1.0 / np.sqrt(w)
    if not FOCAL_RANGE[0] * diagonal <= focal <= FOCAL_RANGE[1] * diagonal:
        return None
    k = np.diag([focal, focal, 1.0])
    m = np.linalg.inv(k) @ h
    m /= np.linalg.norm(m[:, 0])
    r1, r2 = m[:, 0], m[:, 1] / np.linalg.norm(m[:, 1])
    r3 = np.cross(r1, r2)
    t = m[:, 2]
    if t[2] < 0:  # the board must lie in front of the camera
        r1, r2, t = -r1, -r2, -t
        r3 = np.cross(r1, r2)
    rotation = np.c_[r1, r2, r3]
    if (-rotation.T @ t)[2] < 0:  # z must point up, towards the camera
        rotation[:, 2] = -r3
    tilt = float(np.degrees(np.arccos(min(1.0, abs(rotation[2, 2])))))
    if tilt < MIN_TILT_DEG:
        return None
    unshift = np.linalg.inv(shift)
    return BoardCamera(unshift @ k @ np.c_[rotation, t], tilt)


def castle_silhouette(camera: BoardCamera, square: Position) -> np.ndarray:
    """The standing castle's outline in the photo (convex hull, pixels)."""
    r, c = square
    cx, cy, s = c + 0.5, r + 0.5, CASTLE_HALF_WIDTH
    foot = np.array([[cx - s, cy - s], [cx + s, cy - s], [cx + s, cy + s], [cx - s, cy + s]])
    points = np.r_[np.c_[foot, np.zeros(4)], np.c_[foot, np.full(4, CASTLE_WALL_HEIGHT)], [[cx, cy, CASTLE_TOP_HEIGHT]]]
    return cv2.convexHull(np.float32(camera.project(points))).reshape(-1, 2).astype(np.float64)


def castle_shadow(corners: Quad, size: int, castle: Position, photo_size: tuple[int, int]) -> np.ndarray | None:
    """The board area (convex polygon, in squares) a castle standing on `castle` would hide; None when unknown.

    corners: the grid in the photo's pixels (TL, TR, BR, BL); photo_size: (width, height) of that photo.
    """
    homography = board_homography(corners, size)
    w, h = photo_size
    camera = camera_from_homography(homography, (w / 2, h / 2), float(np.hypot(w, h)))
    if camera is None:
        return None
    outline = castle_silhouette(camera, castle)
    return cv2.perspectiveTransform(outline.reshape(-1, 1, 2), np.linalg.inv(homography)).reshape(-1, 2)


def square_shares(shadow: np.ndarray, size: int, castle: Position) -> dict[Position, float]:
    """Share of each square other than the castle's that `shadow` covers (only shares over 1%)."""
    shares = {}
    for r in range(size):
        for c in range(size):
            if (r, c) != tuple(castle):
                cell = np.float32([[c, r], [c + 1, r], [c + 1, r + 1], [c, r + 1]])
                area, _ = cv2.intersectConvexConvex(np.float32(shadow), cell)
                if area > 0.01:
                    shares[(r, c)] = float(area)
    return shares


def hidden_squares(corners: Quad, size: int, castle: Position, photo_size: tuple[int, int]) -> dict[Position, float]:
    """Squares a castle standing on `castle` hides by HIDDEN_SHARE or more, with the share hidden.

    Whether the castle stands is not asked: the box comes with 3D castles, and a
    `?` on a square behind a flat one costs a glance, while a square read through
    a standing one would be a silent error.
    """
    shadow = castle_shadow(corners, size, castle, photo_size)
    if shadow is None:
        return {}
    return {p: share for p, share in square_shares(shadow, size, castle).items() if share >= HIDDEN_SHARE}


__all__ = ["BoardCamera", "board_homography", "camera_from_homography", "castle_silhouette", "castle_shadow",
           "square_shares", "hidden_squares"]
