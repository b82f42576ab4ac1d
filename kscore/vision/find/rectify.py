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


def rectify(photo: Photo, corners: Quad, size: int, px: int = SQUARE_PX) -> np.ndarray:
    """The board inside `corners` (original photo pixels, TL TR BR BL) as a size*px square."""
    quad = np.asarray(corners, np.float64) / photo.scale  # into decoded-image pixels
    image = photo.image
    side = size * px
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
