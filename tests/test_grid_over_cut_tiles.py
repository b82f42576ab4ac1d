"""A grid at half the size of the tiles under it frames no kingdom, when those tiles' kingdom is cut by the photo's
edge too.

The photo is scene 16 of `benchmarks/eval_loose.py --scenes 40 --seed 611 --cut --holdout` (tests/data/README.md):
a 5x5 kingdom on the synthetic wood, turned, the photo's right edge through its last column. The block finder
lays a 5x5 grid of 48 px squares over its lower left part; the tile finder finds its tiles at 103 px, one group
said cut. Every tile in the box is one size, so grid_or_tiles already refused a grid of squares under half the
tiles' under it, but counted only the groups found whole: until 2026-12-05 the grid was scored (0 points, most
squares `?`) beside the cut kingdom.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kscore.app.pipeline import grid_side, read_photo
from kscore.errors import NothingRecognisedError
from kscore.vision.find.localise import localise
from kscore.vision.find.loose import find_loose
from kscore.vision.load import load_photo

PHOTO = Path(__file__).parent / "data" / "loose" / "cut_under_small_grid.jpg"


def test_the_grid_is_at_half_the_cut_tiles_size():
    photo = load_photo(PHOTO)
    found = localise(photo)
    grids = [b for b in found.boards if not b.partial]
    cut = [g for g in find_loose(photo, found.working) if g.partial]
    assert len(grids) == 1 and len(cut) == 1
    assert grid_side(grids[0].corners, grids[0].size) < 0.5 * cut[0].pitch


def test_no_kingdom_is_scored_and_the_cut_one_is_said():
    with pytest.raises(NothingRecognisedError, match="cut by the photo's right edge"):
        read_photo(PHOTO)
