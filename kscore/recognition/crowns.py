"""Crown candidates: one template search over four orientations, one NMS, patch features.

Crowns can sit anywhere in a square and face any of four ways (the domino's
orientation), so the board is matched against the crown template turned 0, 90,
180 and 270 degrees, the four responses are merged by a per-pixel maximum, and a
single non-maximum suppression runs over that merged map: a crown seen in two
orientations is one candidate, never two. Each candidate is then cut out turned
upright (by its best orientation) and described by a small colour patch, which a
learned classifier turns into P(crown). Counting per square is done in
counting.py from those probabilities.

Work happens at half resolution (50 px per square): crowns are still ~14 px
wide, and the search costs a quarter.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .features import SQUARE_PX

SCALE = 0.5
CELL = int(SQUARE_PX * SCALE)  # pixels per square at the search scale
#: Template size at search scale (rows, cols); the crown is wider than tall.
TEMPLATE_SHAPE = (13, 17)
#: Half-size of the NMS window: two crowns side by side are ~13 px apart here.
_NMS_RADIUS = 4
_MIN_RESPONSE = 0.25
#: Patch cut around a candidate (rows, cols) and the size it is described at.
_PATCH = (17, 21)
_PATCH_DESC = (6, 8)


@dataclass(frozen=True)
class Candidates:
    """Crown candidates of one image at search scale."""

    ys: np.ndarray  # centre row, search-scale pixels
    xs: np.ndarray
    response: np.ndarray  # template correlation, -1..1
    rotation: np.ndarray  # k of np.rot90 that matched best
    patches: np.ndarray  # (n, d) float32 patch descriptors


def search_image(grid_bgr: np.ndarray) -> np.ndarray:
    """The half-resolution colour image the search runs on (brightness-normalised)."""
    small = cv2.resize(grid_bgr, None, fx=SCALE, fy=SCALE, interpolation=cv2.INTER_AREA)
    gain = 110.0 / (float(small.mean()) + 1.0)
    return np.clip(small.astype(np.float32) * gain, 0, 255).astype(np.uint8)


def find_candidates(small_bgr: np.ndarray, template: np.ndarray) -> Candidates:
    """Template search in 4 orientations, merged, one NMS; template is float32 gray."""
    gray = cv2.cvtColor(small_bgr, cv2.COLOR_BGR2GRAY).astype(np.float32)
    h, w = gray.shape
    best = np.full((h, w), -1.0, np.float32)
    rot = np.zeros((h, w), np.int8)
    for k in range(4):
        t = np.ascontiguousarray(np.rot90(template, k), dtype=np.float32)
        th, tw = t.shape
        r = cv2.matchTemplate(gray, t, cv2.TM_CCOEFF_NORMED)
        oy, ox = th // 2, tw // 2
        sub = best[oy : oy + r.shape[0], ox : ox + r.shape[1]]
        better = r > sub
        sub[better] = r[better]
        rot[oy : oy + r.shape[0], ox : ox + r.shape[1]][better] = k
    size = 2 * _NMS_RADIUS + 1
    peaks = (best >= cv2.dilate(best, np.ones((size, size), np.uint8))) & (best > _MIN_RESPONSE)
    ys, xs = np.nonzero(peaks)
    rotation = rot[ys, xs]
    return Candidates(ys, xs, best[ys, xs], rotation, describe(small_bgr, ys, xs, rotation, best[ys, xs]))


def describe(small_bgr: np.ndarray, ys: np.ndarray, xs: np.ndarray, rotation: np.ndarray, response: np.ndarray) -> np.ndarray:
    """Upright colour patch around each candidate, in Lab, shrunk to a small descriptor."""
    ph, pw = _PATCH
    half = max(ph, pw) // 2 + 1
    padded = cv2.copyMakeBorder(small_bgr, half, half, half, half, cv2.BORDER_REFLECT)
    lab = cv2.cvtColor(padded, cv2.COLOR_BGR2Lab)
    out = np.zeros((len(ys), _PATCH_DESC[0] * _PATCH_DESC[1] * 3 + 4), np.float32)
    for i, (y, x, k) in enumerate(zip(ys, xs, rotation)):
        y0, x0 = y + half, x + half
        # Cut a square big enough for either orientation, then turn upright.
        big = lab[y0 - half : y0 + half + 1, x0 - half : x0 + half + 1]
        upright = np.rot90(big, -int(k))
        c = half
        patch = upright[c - ph // 2 : c + ph // 2 + 1, c - pw // 2 : c + pw // 2 + 1].astype(np.float32)
        small = cv2.resize(patch, (_PATCH_DESC[1], _PATCH_DESC[0]), interpolation=cv2.INTER_AREA)
        centre = patch[ph // 4 : ph - ph // 4, pw // 4 : pw - pw // 4].reshape(-1, 3)
        out[i, :-4] = small.reshape(-1) / 255.0
        out[i, -4] = response[i]
        out[i, -3:] = centre.std(axis=0) / 64.0
    return out


def square_of(candidates: Candidates, size: int) -> np.ndarray:
    """Index (row * size + col) of the square each candidate's centre lies in."""
    r = np.clip(candidates.ys // CELL, 0, size - 1)
    c = np.clip(candidates.xs // CELL, 0, size - 1)
    return (r * size + c).astype(np.int64)
