"""A dark tile the tile mask keeps only in spots joins the kingdom where the detail outlines it
(loose.with_outlined_tiles).

`mine_on_rug.jpg` (tests/data/README.md): a 6x7 kingdom of 23 tiles on the synthetic dark striped rug,
68.3 px a square. The mine at the end of its third row is near-black on the near-black carpet: the opening
that takes the dots away leaves only its print's lighter spots, the outline less the mask was holey, and
the opening that added it took it away too. The kingdom was found with 22 of its 23 tiles (main e6e032a).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from kscore.vision.find.loose import TILE_SHARE, find_loose
from kscore.vision.load import Photo

DATA = Path(__file__).parent / "data" / "loose"
SQUARE = 68.3
#: The mine's print in the photo (TL TR BR BL, pixels), from the scene's own layout.
MINE = np.array([[705.7, 243.4], [773.2, 245.2], [771.5, 311.9], [704.0, 310.1]])


def test_the_dark_mine_beside_the_kingdom_is_surely_tile():
    image = cv2.imread(str(DATA / "mine_on_rug.jpg"))
    groups = find_loose(Photo(Path("mine_on_rug.jpg"), image, (image.shape[1], image.shape[0])))
    kingdom = max(groups, key=lambda g: g.squares)
    on_mine = [p for p, quad in kingdom.cells.items()
               if np.linalg.norm(np.asarray(quad).mean(axis=0) - MINE.mean(axis=0)) < 0.25 * SQUARE]
    assert len(on_mine) == 1
    assert kingdom.tile[on_mine[0]] >= TILE_SHARE
    assert kingdom.squares == 23 and kingdom.extent == (6, 7)
