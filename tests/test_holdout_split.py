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
    castles = sorted((tiles_phone_data / "castle").glob("*.jpg"))
    fitted = set(castles[:PHONE_PER_CLASS])  # load_phone_samples' first N of the label, in name order
    shown = set(castles[UNSEEN_CASTLES:UNSEEN_CASTLES + 60])  # SquareBank.from_boards(first=UNSEEN_CASTLES)
    assert shown
    assert not fitted & shown
