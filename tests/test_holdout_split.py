"""The held-out split of the synthetic benchmarks (kscore.lab.holdout) really holds things out.

`eval_loose.py --holdout` is the issue's target measure: its scenes must show
kingdoms and flat castles the fitted recogniser never saw.
"""

from __future__ import annotations

from kscore.lab.dataset import load_boards
from kscore.lab.holdout import PHONE_PER_CLASS, UNSEEN_CASTLES, held_out_kingdoms


def test_a_third_of_the_kingdoms_are_held_out_and_both_crops_of_each_go_together(kingdomino_data):
    boards = load_boards(kingdomino_data)
    groups = {b.group for b in boards}
    held = held_out_kingdoms(b.group for b in boards)
    assert len(held) == -(-len(groups) // 3)
    fitted = [b for b in boards if b.group not in held]
    shown = [b for b in boards if b.group in held]
    assert fitted and shown
    assert not {b.image for b in fitted} & {b.image for b in shown}
    assert not {b.group for b in fitted} & {b.group for b in shown}


def test_the_scenes_flat_castles_are_ones_the_fit_never_loaded(tiles_phone_data):
    import cv2
    import numpy as np

    from kscore.lab.loose_scenes import SquareBank

    # What load_phone_samples takes of the label: its first PHONE_PER_CLASS files in name order.
    fitted = [cv2.imread(str(p)) for p in sorted((tiles_phone_data / "castle").glob("*.jpg"))[:PHONE_PER_CLASS]]
    shown = SquareBank.from_boards([], tiles_phone_data / "castle", first=UNSEEN_CASTLES).flat_castles
    assert shown
    assert not any(a.shape == b.shape and np.array_equal(a, b) for a in shown for b in fitted)
