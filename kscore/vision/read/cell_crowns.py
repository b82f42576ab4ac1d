"""Crowns of cells cut from a photo, each seen with a margin round it and owned by the cell it lies deepest in.

The box prints most crowns by a tile's edge (on the labelled boards half of
them centred within 0.17 of a square of its side, a crown being 0.34 wide). A
cell fitted a tenth of a square off its print (kscore.vision.find.loose) cuts
such a crown in two, and where the cells are cut one by one (cells.cut_cells)
the other half is in no cell: the crown is lost, and the counter reads the
square a crown short at 0.99 (10 of the 12 crowns so lost on held-out scenes
of seed 589 read right at the square's true quad).

Here each cell is cut with MARGIN of a square round it, on its own quad's
perspective, the crown search runs on every cut, and each candidate belongs to
the cell it lies deepest in (its centre's distance inside the cell's side,
negative outside), when that cell is the one whose cut found it and the
centre lies at most REACH outside it: a crown just past a fitted cell's side,
with no other cell there or another cell's side farther away, is the cell's.
The counter then sees each cell's candidates where they lie in it (a centre
outside kept on the side: "by the border"), as on a board cut on its grid.

Cells read as table (`table`: cells.cell_probabilities passes those not surely
tile that the recogniser reads empty) own no candidate and take none from the
others: a cell fitted a sixth of a square inside its print at the kingdom's
edge left the crowns by the print's outer side deepest in the table cell
beside it, and they were lost with its reading (eval_loose --tilt 25 --seed
630 --holdout, scene 10: a mine's two crowns at 0.11 past its cell's side).
"""

from __future__ import annotations

import cv2
import numpy as np

from kscore.vision.read.classes import CROWN_CLASSES
from kscore.vision.read.counting import square_summaries
from kscore.vision.read.crowns import Candidates, crown_probability, find_candidates
from kscore.vision.read.features import CELL
from kscore.vision.read.model import Models

#: How much of a square each cell's cut shows beyond each of its sides: about REACH and half a crown, so a
#: crown that far out is searched for on its own cut, not across the next cut laid beside it in the mosaic.
MARGIN = 0.3
#: How far outside its cell (a share of a square) a candidate's centre may lie and still be counted as the cell's.
REACH = 0.15

_PAD = round(MARGIN * CELL)
_BLOCK = CELL + 2 * _PAD
_UNIT = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])


def crown_probabilities_in_place(image: np.ndarray, cells: dict, size: int, gain: float, models: Models,
                                 table=()) -> np.ndarray:
    """(size, size, len(CROWN_CLASSES)): each cell's P(0..3 crowns), its crowns found in a cut with a margin.

    image: the photo (BGR); cells: (row, col) -> quad (TL TR BR BL, image pixels); gain: the brightness
    factor the board's other readings were prepared with (features.prepare); table: cells known to be table
    (read empty whatever their crowns): they own no crown (_owned).
    """
    keys = list(cells)
    to_photo = {p: cv2.getPerspectiveTransform(_UNIT, np.float32(cells[p])) for p in keys}
    mosaic = np.zeros((size * _BLOCK, size * _BLOCK, 3), np.uint8)
    m = _PAD / CELL
    grown = np.float32([[-m, -m], [1 + m, -m], [1 + m, 1 + m], [-m, 1 + m]])
    big = 2 * _BLOCK  # cut at the boards' 100 px a square, then halved as features.prepare does
    dst = np.float32([[0, 0], [big, 0], [big, big], [0, big]])
    for (r, c) in keys:
        corners = cv2.perspectiveTransform(grown[None], to_photo[(r, c)])[0]
        hom = cv2.getPerspectiveTransform(corners, dst)
        cut = cv2.warpPerspective(image, hom, (big, big), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
        mosaic[r * _BLOCK:(r + 1) * _BLOCK, c * _BLOCK:(c + 1) * _BLOCK] = cv2.resize(
            cut, (_BLOCK, _BLOCK), interpolation=cv2.INTER_AREA)
    mosaic = cv2.convertScaleAbs(mosaic, alpha=gain)
    found = find_candidates(mosaic, models.crown_template, size, cell=_BLOCK)
    p_crown = crown_probability(models.candidate, found)
    keep, ys, xs = _owned(found, keys, to_photo, table)
    owned = Candidates(ys, xs, found.response[keep], found.rotation[keep], found.scale[keep], found.patches[keep])
    counts = models.count.predict_full(square_summaries(owned, p_crown[keep], size), len(CROWN_CLASSES))
    return counts.reshape(size, size, -1)


def _owned(found: Candidates, keys: list, to_photo: dict, table=()) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Which candidates their cell owns (see the module's doc), and where those lie on a board cut on the
    grid (row and column pixels at features.CELL a square; a centre outside its cell kept on the cell's side).

    Cells in `table` own none and take none from the others: a crown lies on a tile, and one just past a
    tile cell's side, inside a cell read as table, is the tile's, or else it is lost with that reading.
    """
    r, c = found.ys // _BLOCK, found.xs // _BLOCK
    u = ((found.xs % _BLOCK) + 0.5 - _PAD) / CELL  # within the candidate's cell: the cell is [0, 1] x [0, 1]
    v = ((found.ys % _BLOCK) + 0.5 - _PAD) / CELL
    # Every candidate's centre in the photo, then in every cell's own square.
    photo = np.zeros((len(u), 2), np.float64)
    for p in keys:
        here = (r == p[0]) & (c == p[1])
        if here.any():
            photo[here] = cv2.perspectiveTransform(np.stack([u[here], v[here]], axis=1)[None], to_photo[p])[0]
    depth = np.stack([_depth(cv2.perspectiveTransform(photo[None], np.linalg.inv(to_photo[p]))[0]) for p in keys],
                     axis=1) if len(u) else np.zeros((0, len(keys)))
    table = set(table)
    depth[:, [i for i, p in enumerate(keys) if p in table]] = -np.inf
    # A candidate in a cut's place with no cell (the mosaic is black there) belongs to none.
    index = {p: i for i, p in enumerate(keys)}
    own = np.array([-1 if p in table else index.get(p, -1) for p in zip(r.tolist(), c.tolist())], np.int64)
    keep = (own >= 0) & (depth.argmax(axis=1) == own) & (_depth(np.stack([u, v], axis=1)) > -REACH)
    ys = r * CELL + np.clip(np.floor(v * CELL), 0, CELL - 1).astype(np.int64)
    xs = c * CELL + np.clip(np.floor(u * CELL), 0, CELL - 1).astype(np.int64)
    return keep, ys[keep], xs[keep]


def _depth(points: np.ndarray) -> np.ndarray:
    """How far inside the unit square each (x, y) lies: its distance to the nearest side, negative outside.

    >>> _depth(np.array([[0.5, 0.5], [0.1, 0.9], [1.2, 0.5]])).round(2).tolist()
    [0.5, 0.1, -0.2]
    """
    x, y = points[:, 0], points[:, 1]
    return np.minimum(np.minimum(x, 1 - x), np.minimum(y, 1 - y))


__all__ = ["crown_probabilities_in_place", "MARGIN", "REACH"]
