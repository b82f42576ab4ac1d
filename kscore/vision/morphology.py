"""Morphology with a disc, as OpenCV's elliptic structuring element gives it, about twice as fast when large.

OpenCV erodes and dilates with a non-rectangular element point by point; with a
rectangle it runs row then column passes. The disc is a union of rectangles
(one per distinct half-width of its rows), and dilating by a union is the
maximum of the dilations by its parts (eroding: the minimum), so the result is
the same image, pixel for pixel, borders included. The tile finder opens and
joins its masks with discs a quarter to half a square wide (30-65 px on a
kingdom filling an 800 px working image), where this halves the time.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

#: Under this width the element itself is as fast (a few rows).
_SMALL = 9


def disc(k: int) -> np.ndarray:
    """OpenCV's elliptic structuring element k x k (uint8 0/1)."""
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))


@lru_cache(maxsize=64)
def _rectangles(k: int) -> tuple[np.ndarray, ...]:
    """The rectangles (ones, h x w) whose union, centred, is disc(k); one per distinct half-width of its rows."""
    element = disc(k)
    r = k // 2
    tallest: dict[int, int] = {}  # half-width -> the largest row offset having at least that half-width's row
    for i in range(k):
        columns = np.nonzero(element[i])[0]
        if len(columns):
            half = int(columns.max()) - r
            tallest[half] = max(tallest.get(half, 0), abs(i - r))
    return tuple(np.ones((2 * h + 1, 2 * w + 1), np.uint8) for w, h in tallest.items())


def with_disc(image: np.ndarray, op: int, k: int) -> np.ndarray:
    """cv2.morphologyEx(image, op, disc(k)) for op MORPH_ERODE, MORPH_DILATE, MORPH_OPEN or MORPH_CLOSE.

    >>> mask = np.zeros((40, 60), np.uint8); mask[5:30, 10:50] = 1; mask[0, 0] = 1
    >>> all(np.array_equal(with_disc(mask, op, 15), cv2.morphologyEx(mask, op, disc(15)))
    ...     for op in (cv2.MORPH_ERODE, cv2.MORPH_DILATE, cv2.MORPH_OPEN, cv2.MORPH_CLOSE))
    True
    """
    k = int(k)
    if k < _SMALL or k % 2 == 0:
        return cv2.morphologyEx(image, op, disc(k))
    if op == cv2.MORPH_OPEN:
        return with_disc(with_disc(image, cv2.MORPH_ERODE, k), cv2.MORPH_DILATE, k)
    if op == cv2.MORPH_CLOSE:
        return with_disc(with_disc(image, cv2.MORPH_DILATE, k), cv2.MORPH_ERODE, k)
    if op not in (cv2.MORPH_ERODE, cv2.MORPH_DILATE):
        raise ValueError(f"with_disc: morphology op {op} is not erode, dilate, open or close")
    one, combine = (cv2.dilate, cv2.max) if op == cv2.MORPH_DILATE else (cv2.erode, cv2.min)
    parts = _rectangles(k)
    out = one(image, parts[0])
    for part in parts[1:]:
        out = combine(out, one(image, part))
    return out
