"""A kingdom cut by the photo's edge is said cut, and the stray domino beside it is not scored in its place.

The photo is scene 0 of `benchmarks/eval_loose.py --scenes 40 --seed 611 --cut --holdout` (tests/data/README.md):
a 5x5 kingdom on the synthetic patterned cloth, the photo's bottom edge through its last row, and a stray domino
of the draft line up to its right. No group reads a castle (the kingdom's is below the edge, the stray has none),
and until 2026-12-05 the largest group reading none was taken for a kingdom whose castle was misread: the stray
domino was scored, as it was beside 14 of 40 cut kingdoms of that seed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kscore.app.pipeline import read_photo
from kscore.errors import NothingRecognisedError
from kscore.vision.find.loose import find_loose
from kscore.vision.load import load_photo

PHOTO = Path(__file__).parent / "data" / "loose" / "cut_beside_stray.jpg"


def test_the_finder_sees_the_kingdom_cut_and_the_stray_whole():
    groups = sorted(find_loose(load_photo(PHOTO)), key=lambda g: -g.squares)
    assert len(groups) == 2
    kingdom, stray = groups
    assert kingdom.partial and "bottom" in kingdom.missing
    assert not stray.partial and stray.squares == 2


def test_the_stray_is_not_scored_and_the_kingdom_is_said_cut():
    with pytest.raises(NothingRecognisedError, match="the only kingdom seen is cut by the photo's bottom edge"):
        read_photo(PHOTO)
