"""Per-square terrain features from a board image rectified to its grid.

Why these features: the boards come from one camera and one lamp, the phone
squares from another camera in warm light, and kscore is judged on photos from
neither. So colour is taken in perceptual spaces (Lab, hue weighted by
saturation) after a per-board white balance, and texture from gradient
statistics, which both survive light changes better than raw RGB. Only the
central part of each square is used: seams, neighbours and the leaning 3D castle
live at the edges.

Bump FEATURE_VERSION whenever the numbers this module produces change: models
record it, and a mismatch is refused instead of giving garbage.
"""

from __future__ import annotations

import cv2
import numpy as np

FEATURE_VERSION = 1

#: Every square is resampled to this many pixels a side before anything else.
SQUARE_PX = 100
#: The central window used for terrain (pixels cut from each side of a 100 px square).
_MARGIN = 16
_HUE_BINS = 12


def to_grid_image(image_bgr: np.ndarray, size: int) -> np.ndarray:
    """Resample a rectified board so each square is SQUARE_PX pixels (no-op at 100 px/square)."""
    side = size * SQUARE_PX
    if image_bgr.shape[:2] == (side, side):
        return image_bgr
    h, w = image_bgr.shape[:2]
    interpolation = cv2.INTER_AREA if h > side or w > side else cv2.INTER_LINEAR
    return cv2.resize(image_bgr, (side, side), interpolation=interpolation)


def white_balance(image_bgr: np.ndarray, reference: np.ndarray | None = None, strength: float = 0.0) -> np.ndarray:
    """Bring a board to a fixed brightness, optionally removing part of its colour cast.

    A full gray-world balance was tried and hurt (a board that is mostly lake
    turns its lakes grey), so by default only brightness is normalised and the
    phone squares (another camera, warm light) teach the colour casts.
    reference: the pixels to measure on (default: the image itself); the phone
    squares pass all squares of one photo.
    """
    ref = image_bgr if reference is None else reference
    means = ref.reshape(-1, 3).astype(np.float32).mean(axis=0) + 1.0
    gain = (means.mean() / means) ** strength
    gain *= 110.0 / means.mean()
    return np.clip(image_bgr.astype(np.float32) * gain, 0, 255).astype(np.uint8)


def _square_views(plane: np.ndarray, size: int, margin: int, step: int) -> np.ndarray:
    """(size*size, h, w[, c]) central windows of each square, subsampled by `step`."""
    views = []
    for r in range(size):
        for c in range(size):
            y, x = r * SQUARE_PX, c * SQUARE_PX
            views.append(plane[y + margin : y + SQUARE_PX - margin : step, x + margin : x + SQUARE_PX - margin : step])
    return np.stack(views)


def terrain_features(balanced_bgr: np.ndarray, size: int) -> np.ndarray:
    """Feature matrix (size*size, n) for a white-balanced grid image of size*SQUARE_PX pixels."""
    lab = cv2.cvtColor(balanced_bgr, cv2.COLOR_BGR2Lab).astype(np.float32)
    hsv = cv2.cvtColor(balanced_bgr, cv2.COLOR_BGR2HSV)
    light = lab[..., 0]
    gx = cv2.Sobel(light, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(light, cv2.CV_32F, 0, 1, ksize=3)
    grad = cv2.magnitude(gx, gy)
    blurred = cv2.GaussianBlur(light, (0, 0), 3)
    coarse = np.abs(light - blurred)

    step = 2
    lab_v = _square_views(lab, size, _MARGIN, step).reshape(size * size, -1, 3)
    hsv_v = _square_views(hsv, size, _MARGIN, step).reshape(size * size, -1, 3).astype(np.float32)
    grad_v = _square_views(grad, size, _MARGIN, step).reshape(size * size, -1)
    coarse_v = _square_views(coarse, size, _MARGIN, step).reshape(size * size, -1)

    mean = lab_v.mean(axis=1)
    std = lab_v.std(axis=1)
    lq = np.percentile(lab_v[..., 0], [10, 50, 90], axis=1).T
    aq = np.percentile(lab_v[..., 1], [10, 90], axis=1).T
    bq = np.percentile(lab_v[..., 2], [10, 90], axis=1).T

    hue = hsv_v[..., 0]  # 0..180 in OpenCV
    sat = hsv_v[..., 1] / 255.0
    bins = np.minimum((hue * _HUE_BINS / 180.0).astype(np.int32), _HUE_BINS - 1)
    hist = np.zeros((size * size, _HUE_BINS), np.float32)
    for i in range(size * size):
        hist[i] = np.bincount(bins[i], weights=sat[i], minlength=_HUE_BINS)
    hist /= hue.shape[1]
    sat_mean = sat.mean(axis=1, keepdims=True)
    dark = (lab_v[..., 0] < 60).mean(axis=1, keepdims=True)  # Lab L is 0..255 in OpenCV uint8 scale
    bright = (lab_v[..., 0] > 200).mean(axis=1, keepdims=True)

    texture = np.stack(
        [grad_v.mean(axis=1), grad_v.std(axis=1), np.percentile(grad_v, 90, axis=1), coarse_v.mean(axis=1), (grad_v > 60).mean(axis=1)],
        axis=1,
    )
    return np.hstack([mean, std, lq, aq, bq, hist, sat_mean, dark, bright, np.log1p(texture)]).astype(np.float32)
