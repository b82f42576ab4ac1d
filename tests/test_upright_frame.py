"""A group is fitted in its own upright frame cut round it (loose._upright_frame), not in the whole turned photo:
the cut frame shows exactly what the whole one shows there, with the group and `margin` round it inside.

Real photos (tests/data/loose: photos-loose's carpet and hand-laid scenes), real OpenCV warps.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from kscore.vision.find.localise import working_image
from kscore.vision.find.loose import _upright_frame, tile_foreground, tile_mask

DATA = Path(__file__).parent / "data" / "loose"


def _largest_piece(work: np.ndarray) -> tuple[np.ndarray, tuple[float, float]]:
    """The tile mask's largest piece of a working image (uint8 0/1) and its centre."""
    count, labels, stats, centres = cv2.connectedComponentsWithStats(tile_mask(tile_foreground(work)))
    j = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    return (labels == j).astype(np.uint8), tuple(float(v) for v in centres[j])


@pytest.mark.parametrize("name", ["carpet_step2.jpg", "kingdom_and_domino_cloth.jpg", "holes_stone.jpg"])
@pytest.mark.parametrize("theta", [-31.0, 7.5])
def test_the_cut_frame_is_the_whole_turned_photo_there(name, theta):
    work, _ = working_image(cv2.imread(str(DATA / name)))
    blob, centre = _largest_piece(work)
    h, w = blob.shape
    margin = 20
    whole, size = _upright_frame(blob, centre, theta, None)
    cut, (cw, ch) = _upright_frame(blob, centre, theta, margin)
    assert size == (w, h)
    assert cw * ch < w * h  # a piece of the photo, not all of it
    turned_whole = cv2.warpAffine(work, whole, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    turned_cut = cv2.warpAffine(work, cut, (cw, ch), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    x0, y0 = np.round(whole[:, 2] - cut[:, 2]).astype(int)  # where the cut frame lies in the whole one
    window = turned_whole[y0:y0 + ch, x0:x0 + cw].astype(int)
    # The same pixels, to a level of rounding in the warp's sub-pixel steps.
    assert np.abs(window - turned_cut).max() <= 1
    assert np.mean(window != turned_cut) < 0.01
    # Every pixel of the group is in the cut frame, `margin` clear of its sides (or at the whole frame's).
    ys, xs = np.nonzero(cv2.warpAffine(blob, cut, (cw, ch), flags=cv2.INTER_NEAREST))
    whole_ys, _ = np.nonzero(cv2.warpAffine(blob, whole, (w, h), flags=cv2.INTER_NEAREST))
    assert len(ys) == len(whole_ys)
    assert xs.min() >= min(margin, x0 + xs.min()) and ys.min() >= min(margin, y0 + ys.min())
    assert cw - 1 - xs.max() >= min(margin, w - 1 - (x0 + xs.max()))
    assert ch - 1 - ys.max() >= min(margin, h - 1 - (y0 + ys.max()))
