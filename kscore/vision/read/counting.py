"""From crown candidates to P(0..3 crowns) per square.

Each candidate has P(crown) from the patch classifier; a square's count
probabilities come from a small learned model over a fixed-length summary of
its candidates (the four best probabilities, their sum, how many pass 0.5), so
the counting learns how sure "two good candidates and a weak third" is.
"""

from __future__ import annotations

import numpy as np

from kscore.vision.read.crowns import Candidates, square_of

_TOP = 4


def square_summaries(candidates: Candidates, p_crown: np.ndarray, size: int) -> np.ndarray:
    """(size*size, 6) summary of each square's candidates' crown probabilities."""
    squares = square_of(candidates, size)
    out = np.zeros((size * size, _TOP + 2), np.float32)
    order = np.lexsort((-p_crown, squares))
    for sq in range(size * size):
        p = p_crown[order][squares[order] == sq][:_TOP]
        out[sq, : len(p)] = p
    mine = np.bincount(squares, weights=p_crown, minlength=size * size)
    out[:, _TOP] = mine
    out[:, _TOP + 1] = np.bincount(squares, weights=(p_crown > 0.5).astype(np.float64), minlength=size * size)
    return out
