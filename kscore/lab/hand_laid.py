"""A labelled board re-laid by hand: its squares moved and turned a little on a table, cut on the old grid.

The crown models learn from the 500x500 boards, neat crops whose squares sit
exactly on their grid. On a hand-laid kingdom the pipeline cuts squares whose
print is shifted up to a fifth of a square and turned a few degrees, with
table in the gaps and a crown sometimes by the cut's edge (issue 13: the
candidate classifier dropped such a crown, P 0.70 -> 0.002, and the count model
stayed ~0.995 sure of wrong counts). `lay_by_hand` draws the board's tiles
(dominoes or single squares) one by one on a table, each moved and turned on
its own, the whole grid a little off as well, and says where every pixel of
the board went, so labels mined on the clean board carry over.

Ranges follow kscore.lab.loose_scenes (gaps 1-6%, offsets sd 0.02-0.1 square,
turns sd 1.5 degrees up to 4) plus the localiser's own misfit (C measured grid
quads 0.1-0.2 of a square off the prints on seed 13).
"""

from __future__ import annotations

import cv2
import numpy as np

#: Sd of a tile's offset, in squares, and its bound; the grid's own misfit bound (uniform).
_OFFSET_SD, _OFFSET_MAX, _GRID_MISFIT = 0.07, 0.2, 0.08
#: Sd and bound of a tile's turn, degrees.
_TURN_SD, _TURN_MAX = 2.0, 5.0
#: A tile's print is this share of its place on the grid (the rest is gap).
_FILL = (0.92, 0.99)


def _tiles(n: int, rng: np.random.Generator, skip: set[int]) -> list[list[int]]:
    """The board's squares grouped into dominoes (two neighbours) where possible, singles otherwise."""
    free = [True] * (n * n)
    for s in skip:
        free[s] = False
    tiles = []
    for sq in range(n * n):
        if not free[sq]:
            continue
        free[sq] = False
        r, c = divmod(sq, n)
        mates = [m for m, ok in ((sq + 1, c + 1 < n), (sq + n, r + 1 < n)) if ok and free[m]]
        if mates:
            mate = mates[int(rng.integers(0, len(mates)))]
            free[mate] = False
            tiles.append([sq, mate])
        else:
            tiles.append([sq])
    return tiles


def lay_by_hand(prepared: np.ndarray, n: int, table: np.ndarray, rng: np.random.Generator,
                bare: set[int] = frozenset()) -> tuple[np.ndarray, np.ndarray]:
    """The board's tiles laid again on `table` (same shape), each shifted, turned and shrunk a little.

    bare: squares left as table (the board's empty squares). Returns the image
    and, per square (row-major), the 2x3 affine taking its clean board pixels
    to the new image (for carrying crown positions over).
    """
    side = prepared.shape[0]
    cell = side / n
    out = table.astype(np.float32).copy()
    moves = np.zeros((n * n, 2, 3), np.float64)
    grid = rng.uniform(-_GRID_MISFIT, _GRID_MISFIT, 2) * cell
    for tile in _tiles(n, rng, set(bare)):
        rows = [divmod(s, n) for s in tile]
        y0, x0 = min(r for r, _ in rows) * cell, min(c for _, c in rows) * cell
        y1, x1 = (max(r for r, _ in rows) + 1) * cell, (max(c for _, c in rows) + 1) * cell
        centre = ((x0 + x1) / 2, (y0 + y1) / 2)
        shift = np.clip(rng.normal(0, _OFFSET_SD, 2), -_OFFSET_MAX, _OFFSET_MAX) * cell + grid
        turn = float(np.clip(rng.normal(0, _TURN_SD), -_TURN_MAX, _TURN_MAX))
        move = cv2.getRotationMatrix2D(centre, turn, float(rng.uniform(*_FILL)))
        move[:, 2] += shift
        mask = np.zeros((side, side), np.float32)
        edge = max(1, round(cell / 50))  # the tile's worn dark rim, about 1 px at 50 px a square
        mask[round(y0):round(y1), round(x0):round(x1)] = 1.0
        rim = np.ones((side, side), np.float32)
        rim[round(y0):round(y1), round(x0):round(x1)] = 0.0
        rim[round(y0) + edge:round(y1) - edge, round(x0) + edge:round(x1) - edge] = 1.0
        darker = prepared.astype(np.float32) * (1.0 - (1.0 - rim[..., None]) * np.float32(rng.uniform(0.2, 0.45)))
        moved = cv2.warpAffine(darker, move, (side, side), flags=cv2.INTER_LINEAR)
        cover = cv2.warpAffine(mask, move, (side, side), flags=cv2.INTER_LINEAR)[..., None]
        out = out * (1 - cover) + moved * cover
        for s in tile:
            moves[s] = move
    return np.clip(out, 0, 255).astype(np.uint8), moves


def carried(ys: np.ndarray, xs: np.ndarray, squares: np.ndarray, moves: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Points (rows ys, cols xs, in squares `squares`) where lay_by_hand's moves put them; (ys, xs) as floats."""
    m = moves[squares]
    x = m[:, 0, 0] * xs + m[:, 0, 1] * ys + m[:, 0, 2]
    y = m[:, 1, 0] * xs + m[:, 1, 1] * ys + m[:, 1, 2]
    return y, x
