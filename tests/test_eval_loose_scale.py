"""benchmarks/eval_loose.py --scale reads each scene as a messenger app would send it: resized, saved again;
--true-mask reads it with the tile finder given the scene's true tile mask."""

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


def test_the_true_mask_covers_every_tile_drawn_and_only_while_asked(bank):
    """--true-mask: inside, the tile finder's colour foreground is the scene's tiles (strays' too) at the working
    image's scale and nothing else; outside, the colour model again."""
    import kscore.vision.find.loose as loose
    from kscore.lab.loose_scenes import make_loose_scene
    from kscore.vision.find.localise import working_image

    scene = make_loose_scene(bank, np.random.default_rng(3), strays=2)
    work, factor = working_image(scene.image)
    own = loose.colour_foreground
    with eval_loose.true_tile_mask(scene):
        mask = loose.colour_foreground(work)
    assert loose.colour_foreground is own
    drawn = np.zeros(scene.image.shape[:2], np.uint8)
    for outline in scene.outlines:
        cv2.fillConvexPoly(drawn, np.round(np.asarray(outline)).astype(np.int32), 1)
    drawn = cv2.resize(drawn, (work.shape[1], work.shape[0]), interpolation=cv2.INTER_NEAREST)
    assert mask.dtype == np.float32 and mask.shape == work.shape[:2]
    assert scene.strays == 2  # the strays are in the mask too: every outline drawn
    agree = float(((mask > 0) == (drawn > 0)).mean())
    assert agree > 0.99 and 0.05 < float(mask.mean()) < 0.9
    for quad in scene.quads.values():  # every square of the kingdom lies in it
        x, y = np.asarray(quad).mean(axis=0) / factor
        assert mask[int(y), int(x)] == 1.0


def test_the_true_mask_with_a_cut_photo_is_refused_in_one_line(capsys):
    with pytest.raises(SystemExit) as stop:
        eval_loose.main(["--cut", "--true-mask", "--scenes", "1"])
    assert stop.value.code == 2
    assert "--true-mask reads whole scenes" in capsys.readouterr().err
