"""benchmarks/eval_loose.py --scale reads each scene as a messenger app would send it: resized, saved again."""

from __future__ import annotations

import argparse
import importlib.util

import cv2
import numpy as np
import pytest

from conftest import PROJECT

_spec = importlib.util.spec_from_file_location("eval_loose", PROJECT / "benchmarks" / "eval_loose.py")
eval_loose = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(eval_loose)

PHOTO = PROJECT / "tests" / "data" / "loose" / "mine_on_rug.jpg"


def test_a_photo_sent_smaller_has_fewer_pixels_and_the_same_scene():
    image = cv2.imread(str(PHOTO))
    sent = eval_loose.as_sent(image, 0.6)
    h, w = image.shape[:2]
    assert sent.shape == (round(h * 0.6), round(w * 0.6), 3)
    # The same scene: scaled back up, it differs from the photo only by the detail lost (a few grey levels).
    back = cv2.resize(sent, (w, h), interpolation=cv2.INTER_LINEAR)
    assert float(np.abs(back.astype(int) - image.astype(int)).mean()) < 12
    # Saved again as a JPEG: not merely resized.
    resized = cv2.resize(image, (sent.shape[1], sent.shape[0]), interpolation=cv2.INTER_AREA)
    assert not np.array_equal(sent, resized)


def test_at_scale_one_the_photo_is_read_as_it_is():
    image = cv2.imread(str(PHOTO))
    assert eval_loose.as_sent(image, 1.0) is image


def test_a_scale_outside_its_range_or_not_a_number_is_refused_in_one_line():
    assert eval_loose.scale_factor("0.6") == 0.6
    for text in ("9", "0", "x"):
        with pytest.raises(argparse.ArgumentTypeError):
            eval_loose.scale_factor(text)
