"""From crown candidates to P(0..3 crowns) per square.

Each candidate has P(crown) from the patch classifier; a square's count
probabilities come from a small learned model over a fixed-length summary of
its candidates (the four best probabilities, their sum, how many pass 0.5), so
the counting learns how sure "two good candidates and a weak third" is.

Two more columns say what lies at the square's border: the best candidate of
the square within EDGE_BAND of its edge, and the best of its neighbours' within
EDGE_BAND outside it. On a hand-laid kingdom the square cut is often a fifth of
a square off its print, so a crown by the border may be the neighbour's, and
one just past it may be this square's (issue 13: the counter was ~0.995 sure of
such wrong counts); trained on hand-laid copies of the boards
(kscore.lab.hand_laid) the count model learns to doubt them.
"""

from __future__ import annotations

import numpy as np

from kscore.vision.read.crowns import Candidates, square_of
from kscore.vision.read.features import CELL

_TOP = 4
#: How near a square's border (share of a square) a crown is "at the edge".
EDGE_BAND = 0.12


def square_summaries(candidates: Candidates, p_crown: np.ndarray, size: int) -> np.ndarray:
    """(size*size, 8) summary of each square's candidates' crown probabilities (see the module's doc)."""
    squares = square_of(candidates, size)
    out = np.zeros((size * size, _TOP + 4), np.float32)
    order = np.lexsort((-p_crown, squares))
    for sq in range(size * size):
        p = p_crown[order][squares[order] == sq][:_TOP]
        out[sq, : len(p)] = p
    mine = np.bincount(squares, weights=p_crown, minlength=size * size)
    out[:, _TOP] = mine
    out[:, _TOP + 1] = np.bincount(squares, weights=(p_crown > 0.5).astype(np.float64), minlength=size * size)
    out[:, _TOP + 2], out[:, _TOP + 3] = _at_the_border(candidates, p_crown, size)
    return out


def _at_the_border(candidates: Candidates, p_crown: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Per square: the best P of its own candidates within EDGE_BAND of its border, and of others' just outside."""
    inside, outside = np.zeros(size * size, np.float32), np.zeros(size * size, np.float32)
    if len(p_crown) == 0:
        return inside, outside
    band = EDGE_BAND * CELL
    y, x = candidates.ys.astype(np.float64) + 0.5, candidates.xs.astype(np.float64) + 0.5  # pixel centres
    own = square_of(candidates, size)
    for r in range(size):
        for c in range(size):
            top, left = r * CELL, c * CELL
            # Distance outside the square's box (0 inside), and inside it to its nearest edge.
            dy = np.maximum(np.maximum(top - y, y - top - CELL), 0)
            dx = np.maximum(np.maximum(left - x, x - left - CELL), 0)
            mine = own == r * size + c
            near_edge = mine & (np.minimum(np.minimum(y - top, top + CELL - y), np.minimum(x - left, left + CELL - x)) < band)
            just_out = ~mine & (np.maximum(dy, dx) < band)
            if near_edge.any():
                inside[r * size + c] = p_crown[near_edge].max()
            if just_out.any():
                outside[r * size + c] = p_crown[just_out].max()
    return inside, outside
