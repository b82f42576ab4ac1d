"""Where each square of a found grid truly lies: a hand-laid kingdom read square by square.

localise finds a whole 5x5 or 7x7 grid as one quad, and rectify cuts it with
one homography. Players lay dominoes by hand: a domino shifted 0.1-0.3 of a
square off the grid's regular cell puts part of its print (a crown by its
edge) in the neighbour's cell. So the grid is rectified with a margin, and
each square is looked for near its regular cell, as the tile-by-tile path
(kscore.vision.find.loose) fits its cells: the square of the grid's size
within REACH of its place whose four sides lie on the most edge (tile edges
and the seams between squares), or within FAR_REACH where its sides show
clearly more edge still and its domino's other half moved alike (a domino
laid a third of a square off). It moves only when its sides there show
clearly more edge than at its regular cell (SURE_GAIN): a neat board's
squares lie where the grid says, and a square with little edge of its own
(a lake, the table) stays put.
"""

from __future__ import annotations

import cv2
import numpy as np

from kscore.vision.find.loose import SideEnergy, lab_edges

#: Squares of the photo kept around the grid, so a square shifted past its edge is cut whole.
MARGIN = 0.5
#: How far a square may lie from its regular cell, in squares (dominoes laid by hand: up to ~0.3).
REACH = 0.3
#: A square is also fitted within FAR_REACH (its move costed at that reach's scale) and lies there when its
#: sides show FAR_GAIN times the edge of its fit within REACH: a domino laid a third of a square off its cell
#: (hand-laid offsets add up along a row) was fitted short of its print, whose crown by the edge the cut
#: then lost. benchmarks/eval_loose.py --holdout, exact of 100 (README, Photos): dev seeds 580 84 -> 85,
#: 7 93 -> 93, 2 89 -> 90, 587 86 -> 87, 588 86 -> 87, no scene lost; eval_crops_empty 49 -> 49.
FAR_REACH = 0.45
FAR_GAIN = 1.15
#: ... and when a square beside it (its domino's other half) moves within this much (squares) of the same
#: way: a neat board's square pulled to a printed line moves alone (far moves there: 27 -> 13 of 1350).
FAR_TOGETHER = 0.1
#: Least ratio of the edge across a square's sides where it is fitted to the edge at its regular cell for
#: it to move there (a neat board's seams lie on the grid: the gain there is noise).
SURE_GAIN = 1.3
#: Moves shorter than this (squares) are not worth a square cut of its own.
LEAST_MOVE = 0.06
#: Pixels a square has where the squares are fitted.
FIT_PX = 50
#: Step of the moves tried, in squares.
STEP = 0.03
#: Sizes of the print tried, as shares of the grid's square: the grid's pitch is a tile's side and the
#: gap between tiles, so a tile's print is a few % smaller (its sides then lie on its own edges).
SCALES = (0.9, 0.95, 1.0)


def edge_energy(image: np.ndarray) -> SideEnergy:
    """Running sums of a BGR image's edge strength, in Lab as loose fits its cells (loose.lab_edges)."""
    return SideEnergy(*lab_edges(cv2.cvtColor(image, cv2.COLOR_BGR2LAB)))


def square_shifts(wide: np.ndarray, size: int, px: int, margin: float = MARGIN) -> np.ndarray:
    """(size, size, 2) where each square's print lies against its regular cell, (dx, dy) in pixels of `wide`.

    wide: the grid rectified with `margin` squares around it at px a square (rectify(..., margin=)).
    Every square is fitted at once (as loose.fit_cell fits one: a move costs up to half the edge at
    the reach's end, so a square with little edge of its own stays near its cell), squares kept square.
    """
    # Fitted at half the reading's resolution (50 px a square: a move of 0.03 is still 1.5 px there).
    shrink = FIT_PX / px
    energy = edge_energy(cv2.resize(wide, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA))
    px = FIT_PX
    offset = margin * px
    rows, cols = np.mgrid[0:size, 0:size]
    cx = (offset + (cols + 0.5) * px)[..., None, None, None]  # (row, col, dy, dx, scale)
    cy = (offset + (rows + 0.5) * px)[..., None, None, None]
    # The edge across every square's sides at every move and size within FAR_REACH, once; the fit within
    # REACH is the best of its central moves.
    d = np.arange(-FAR_REACH * px, FAR_REACH * px + 1e-6, STEP * px)
    side = np.asarray(SCALES) * px
    there = energy.rect(cx + d[None, :, None] - side / 2, cy + d[:, None, None] - side / 2, side, side)
    near = np.abs(d) <= REACH * px + 1e-6
    moves, gained = _best(there[:, :, near][:, :, :, near], d[near], px, REACH)
    far_moves, far_gained = _best(there, d, px, FAR_REACH)
    farther = far_gained > FAR_GAIN * np.maximum(gained, 1e-6)
    farther &= _moved_with_a_neighbour(far_moves, FAR_TOGETHER * px)
    moves, gained = np.where(farther[..., None], far_moves, moves), np.where(farther, far_gained, gained)
    here = energy.rect(cx[..., 0, 0, 0] - px / 2, cy[..., 0, 0, 0] - px / 2, px, px)
    sure = (np.hypot(moves[..., 0], moves[..., 1]) >= LEAST_MOVE * px) & (gained >= SURE_GAIN * np.maximum(here, 1e-6))
    return np.where(sure[..., None], moves / shrink, 0.0)


def _moved_with_a_neighbour(moves: np.ndarray, within: float) -> np.ndarray:
    """(size, size) bool: each square whose move a square beside it (its domino's other half, on a hand-laid
    kingdom) shares within `within` px."""
    size = moves.shape[0]
    out = np.zeros((size, size), bool)
    for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
        shifted = np.full_like(moves, np.inf)
        rs, cs = slice(max(dr, 0), size + min(dr, 0)), slice(max(dc, 0), size + min(dc, 0))
        rd, cd = slice(max(-dr, 0), size + min(-dr, 0)), slice(max(-dc, 0), size + min(-dc, 0))
        shifted[rd, cd] = moves[rs, cs]
        out |= np.hypot(*(moves - shifted).transpose(2, 0, 1)) <= within
    return out


def _best(there: np.ndarray, d: np.ndarray, px: int, reach: float) -> tuple[np.ndarray, np.ndarray]:
    """Each square's best move, (size, size, 2) px, from the edge `there` (size, size, dy, dx, scale) across its
    sides at moves `d` (px, both ways) within `reach` squares, a move costing up to half the edge at the reach's
    end; and the edge at that move, uncosted (size, size)."""
    size = there.shape[0]
    dy, dx = d[:, None, None], d[None, :, None]
    cost = 1.0 - 0.5 * (dx**2 + dy**2) / (reach * px) ** 2
    best = np.argmax((there * cost).reshape(size, size, -1), axis=2)
    iy, ix, _ = np.unravel_index(best, there.shape[2:])
    gained = np.take_along_axis(there.reshape(size, size, -1), best[..., None], axis=2)[..., 0]
    return np.stack([d[ix], d[iy]], axis=-1), gained


def cut_squares(wide: np.ndarray, size: int, px: int, shifts: np.ndarray, margin: float = MARGIN) -> np.ndarray:
    """The size*px board whose every square is cut from `wide` where `shifts` says its print lies."""
    board = np.empty((size * px, size * px) + wide.shape[2:], wide.dtype)
    for (r, c), (x, y) in square_corners(wide.shape[:2], size, px, shifts, margin).items():
        board[r * px:(r + 1) * px, c * px:(c + 1) * px] = wide[y:y + px, x:x + px]
    return board


def square_corners(shape: tuple[int, int], size: int, px: int, shifts: np.ndarray,
                   margin: float = MARGIN) -> dict[tuple[int, int], tuple[int, int]]:
    """(row, col) -> (x, y): the top-left pixel in `wide` (of this shape) of each square's px x px cut.

    >>> square_corners((200, 200), 1, 100, np.array([[[10.4, -3.0]]]), 0.5)
    {(0, 0): (60, 47)}
    """
    offset = int(round(margin * px))
    h, w = shape
    out = {}
    for r in range(size):
        for c in range(size):
            dx, dy = np.round(shifts[r, c]).astype(int)
            out[(r, c)] = int(np.clip(offset + c * px + dx, 0, w - px)), int(np.clip(offset + r * px + dy, 0, h - px))
    return out


def square_quads(shape: tuple[int, int], size: int, px: int, shifts: np.ndarray,
                 margin: float = MARGIN) -> dict[tuple[int, int], np.ndarray]:
    """(row, col) -> the 4x2 quad (TL TR BR BL, pixels of `wide`) cut_squares cuts each square on."""
    side = np.array([[0, 0], [px, 0], [px, px], [0, px]], float)
    return {p: side + xy for p, xy in square_corners(shape, size, px, shifts, margin).items()}


__all__ = ["MARGIN", "square_shifts", "cut_squares", "square_corners", "square_quads", "edge_energy"]
