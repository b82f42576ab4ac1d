"""A grid laid over a stray domino beside a kingdom the photo's edge cuts frames no kingdom.

The photo is scene 31 of `benchmarks/eval_loose.py --scenes 40 --seed 612 --cut --holdout` (tests/data/README.md),
saved losslessly (as a JPEG it reads otherwise: the block finder's grid is a decision on a knife's edge): a 5x5
kingdom on the synthetic cloth, the photo's top edge through it, and a stray domino below it. The block finder
lays a squashed 5x5 grid over the domino and the table round it. grid_or_tiles refused a grid over strays apart
from the kingdom only when a kingdom with its castle was found whole; here the kingdom is cut (its castle may be
out of the photo), and until 2026-12-05 the grid was scored beside the cut report (18 points; 28 with the
held-out fit).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kscore.app.pipeline import read_photo
from kscore.errors import NothingRecognisedError
from kscore.vision.find.localise import localise
from kscore.vision.find.loose import find_loose
from kscore.vision.load import load_photo

PHOTO = Path(__file__).parent / "data" / "loose" / "cut_grid_over_stray.png"


def test_a_grid_lies_over_the_stray_and_the_kingdom_is_found_cut():
    photo = load_photo(PHOTO)
    found = localise(photo)
    assert any(not b.partial and b.size == 5 for b in found.boards)
    groups = find_loose(photo, found.working)
    assert any(g.partial for g in groups)
    assert any(not g.partial and g.squares == 2 for g in groups)  # the stray domino


def test_nothing_is_scored_and_the_kingdom_is_said_cut():
    with pytest.raises(NothingRecognisedError, match="cut by the photo's top edge"):
        read_photo(PHOTO)
