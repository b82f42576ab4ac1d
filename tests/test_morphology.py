"""with_disc is OpenCV's morphology with its elliptic element, pixel for pixel, on any image the finder gives it
(binary masks, grey and colour images, float foregrounds), borders included, at any odd width."""

from __future__ import annotations

import cv2
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from kscore.vision.morphology import _rectangles, disc, with_disc

OPS = (cv2.MORPH_ERODE, cv2.MORPH_DILATE, cv2.MORPH_OPEN, cv2.MORPH_CLOSE)


def _image(seed: int, kind: str, h: int, w: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if kind == "mask":  # blobs of several sizes, some touching the border
        return (cv2.GaussianBlur(rng.random((h, w)).astype(np.float32), (0, 0), rng.uniform(1, 6)) > 0.5).astype(np.uint8)
    if kind == "grey":
        return (rng.random((h, w)) * 255).astype(np.uint8)
    if kind == "colour":
        return (rng.random((h, w, 3)) * 255).astype(np.uint8)
    return rng.random((h, w)).astype(np.float32)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**16), kind=st.sampled_from(["mask", "grey", "colour", "float"]),
       h=st.integers(1, 120), w=st.integers(1, 120), half=st.integers(0, 35), op=st.sampled_from(OPS))
def test_with_disc_is_opencvs_morphology(seed, kind, h, w, half, op):
    image = _image(seed, kind, h, w)
    k = 2 * half + 1
    assert np.array_equal(with_disc(image, op, k), cv2.morphologyEx(image, op, disc(k)))


def test_the_rectangles_make_the_disc():
    for k in (9, 15, 33, 65):
        union = np.zeros((k, k), np.uint8)
        for part in _rectangles(k):
            h, w = part.shape
            top, left = (k - h) // 2, (k - w) // 2
            union[top:top + h, left:left + w] = 1
        assert np.array_equal(union, disc(k)), k
        assert len(_rectangles(k)) < k  # fewer passes than the element has rows
