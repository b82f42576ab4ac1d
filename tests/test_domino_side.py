"""The square's side from the lone dominoes of a photo (loose.domino_side): a domino is two squares by one, so
its outline's long side less its short is a square's side, whatever rim the tile mask gives it.

Two scenes of kscore.lab.loose_scenes at their working size (tests/data/README.md), where the edges'
autocorrelation alone set the pitch wrong and the kingdom gained rows and columns (main cc2471b):
- `kingdom_and_domino_cloth.jpg`: a 2x3 kingdom (5 tiles) and a stray domino on a cloth, square 58.9 px;
  the pitch was 0.6 of it, the kingdom read 3x5 and the domino 2x3.
- `gapped_3x4_felt.jpg`: a 3x4 kingdom (7 tiles) laid with a wide gap in its top row, on felt, square 65.5 px;
  the pitch was 9% short and its four top squares spanned five cells: read 3x5.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from kscore.vision.find import loose
from kscore.vision.find.loose import TILE_SHARE, domino_side, find_loose
from kscore.vision.load import Photo

DATA = Path(__file__).parent / "data" / "loose"


def _photo(name: str) -> Photo:
    image = cv2.imread(str(DATA / name))
    return Photo(Path(name), image, (image.shape[1], image.shape[0]))


def _pieces(photo: Photo):
    """The tile mask's pieces as find_loose first sees them (before the pitch is known)."""
    fg = loose.tile_foreground(photo.image)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(loose.tile_mask(fg))
    return labels, stats


@pytest.mark.parametrize("name, square", [("kingdom_and_domino_cloth.jpg", 58.9), ("gapped_3x4_felt.jpg", 65.5)])
def test_the_lone_dominoes_say_the_square(name, square):
    side = domino_side(*_pieces(_photo(name)))
    assert side is not None and abs(side / square - 1) < 0.05


def test_a_kingdom_and_a_stray_domino_keep_their_extents():
    groups = find_loose(_photo("kingdom_and_domino_cloth.jpg"))
    assert sorted(sorted(g.extent) for g in groups) == [[1, 2], [2, 3]]  # were 2x3 and 3x5
    kingdom = max(groups, key=lambda g: g.squares)
    assert kingdom.squares == 5 and all(abs(g.pitch / 58.9 - 1) < 0.08 for g in groups)


def test_a_gap_in_a_row_gains_no_column():
    (group,) = find_loose(_photo("gapped_3x4_felt.jpg"))
    assert sorted(group.extent) == [3, 4]  # was 3x5
    tiles = {cell for cell, share in group.tile.items() if share >= TILE_SHARE}
    assert len(tiles) == 7
    # One row of four tiles, whichever way the lattice is laid.
    rows = {r for r, _ in tiles}
    assert max(sum(1 for t in tiles if t[0] == r) for r in rows) == 4 or \
        max(sum(1 for t in tiles if t[1] == c) for c in {c for _, c in tiles}) == 4


def test_a_block_of_three_by_five_is_no_domino():
    # Its sides' ratio is a domino's, but its rim would be a whole square: no side is said.
    mask = np.zeros((400, 600), np.uint8)
    mask[50:230, 50:350] = 1  # 3x5 squares of 60 px
    _, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    assert domino_side(labels, stats) is None
