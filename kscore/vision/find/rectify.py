"""Cut a found kingdom out of the photo as a square, top-down board image.

The recogniser reads boards where the grid fills the image exactly at 100 px
per square (a 5x5 board is 500x500, like the labelled boards it learnt from).
"""

from __future__ import annotations

import cv2
import numpy as np

from kscore.vision.geometry import Quad, side_length
from kscore.vision.load import Photo

SQUARE_PX = 100


def rectify(photo: Photo, corners: Quad, size: int, px: int = SQUARE_PX, margin: float = 0.0) -> np.ndarray:
    """The board inside `corners` (original photo pixels, TL TR BR BL) as a size*px square.

    margin: squares of the photo kept around the board on every side (the image is then
    (size + 2 * margin) * px a side, the board at margin * px from its top left): where a
    hand-laid square's print lies past its regular cell (kscore.vision.find.settle).
    """
    quad = widened(np.asarray(corners, np.float64), size, margin) / photo.scale  # into decoded-image pixels
    image = photo.image
    side = int(round((size + 2 * margin) * px))
    # Work on the board's bounding box only, shrunk by halves while the board is
    # over twice the target size: a plain warp would alias (warpPerspective has
    # no area filter).
    h, w = image.shape[:2]
    x0, y0 = np.floor(np.maximum(quad.min(axis=0) - 2, 0)).astype(int)
    x1, y1 = np.ceil(np.minimum(quad.max(axis=0) + 3, [w, h])).astype(int)
    roi = image[y0:y1, x0:x1]
    quad = quad - [x0, y0]
    board_side = side_length(quad)
    while board_side > 2 * side and min(roi.shape[:2]) > 4:
        roi = cv2.pyrDown(roi)
        quad = quad / 2
        board_side /= 2
    dst = np.float32([[0, 0], [side, 0], [side, side], [0, side]])
    hom = cv2.getPerspectiveTransform(np.float32(quad), dst)
    return cv2.warpPerspective(roi, hom, (side, side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def widened(corners: np.ndarray, size: int, margin: float) -> np.ndarray:
    """The quad `margin` squares outside the grid's corners on every side, through the grid's own perspective."""
    if not margin:
        return corners
    lattice = np.float32([[0, 0], [size, 0], [size, size], [0, size]])
    hom = cv2.getPerspectiveTransform(lattice, np.float32(corners))
    out = np.float32([[-margin, -margin], [size + margin, -margin], [size + margin, size + margin],
                      [-margin, size + margin]])
    return cv2.perspectiveTransform(out[None], hom)[0].astype(np.float64)
