"""Flat boards photographed from a chair: a check of the lattice's perspective apart from tiles' print.

A board of n x n squares of flat colour with dark gaps, drawn top-down, photographed by the synthetic scenes'
pinhole camera (loose_scenes.tilted_view) `tilt` degrees off straight down and turned `turn` degrees on the
table, then found tile by tile (vision.find.loose). What is measured is geometry alone: the extent read and how
far each cell's centre lies from its square's (benchmarks/eval_keystone.py; tests/test_keystone.py).

>>> extents, apart, pitch = cut_squares(20, seed=4, turn=8, n=5)
>>> extents, bool(apart.max() < 0.15)
([(5, 5)], True)
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from kscore.lab.loose_scenes import tilted_view
from kscore.vision.find.loose import TILE_SHARE, find_loose, lab_edges
from kscore.vision.load import Photo

#: The photo's side, a square's side on the board and the dark gap round each square, in pixels.
CANVAS = 900
SQUARE = 60
GAP = 4


def flat_board(rng: np.random.Generator, n: int = 7) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """An n x n board of flat-coloured squares with dark gaps, drawn top-down: (image, mask, lattice corners)."""
    image = np.full((CANVAS, CANVAS, 3), (60, 70, 80), np.uint8)
    mask = np.zeros((CANVAS, CANVAS), np.uint8)
    x0 = y0 = (CANVAS - n * SQUARE) / 2
    for r in range(n):
        for c in range(n):
            a, b = int(x0 + c * SQUARE + GAP / 2), int(y0 + r * SQUARE + GAP / 2)
            colour = tuple(int(v) for v in rng.integers(90, 250, 3))
            cv2.rectangle(image, (a, b), (a + SQUARE - GAP, b + SQUARE - GAP), colour, -1)
            cv2.rectangle(mask, (a, b), (a + SQUARE - GAP, b + SQUARE - GAP), 1, -1)
    image = cv2.add(image, rng.integers(0, 12, image.shape).astype(np.uint8))  # a little grain
    lattice = np.float64([[x0 + c * SQUARE, y0 + r * SQUARE] for r in range(n + 1) for c in range(n + 1)])
    return image, mask, lattice


def photographed(tilt: float, seed: int = 3, turn: float = 0.0, n: int = 7):
    """The board photographed `tilt` degrees off straight down, turned `turn` degrees on the table: (gx, gy,
    its mask, its lattice's corners, the pitch at its centre, the photo), all in the photo."""
    image, mask, lattice = flat_board(np.random.default_rng(seed), n)
    hom = tilted_view((CANVAS, CANVAS), (CANVAS, CANVAS), tilt, lattice, margin=40)
    hom = np.vstack([cv2.getRotationMatrix2D((CANVAS / 2, CANVAS / 2), turn, 1.0), [0, 0, 1]]) @ hom
    seen = cv2.warpPerspective(image, hom, (CANVAS, CANVAS), flags=cv2.INTER_LINEAR, borderValue=(60, 70, 80))
    band = cv2.warpPerspective(mask, hom, (CANVAS, CANVAS), flags=cv2.INTER_NEAREST)
    gx, gy = lab_edges(cv2.cvtColor(seen, cv2.COLOR_BGR2Lab))
    corners = cv2.perspectiveTransform(lattice[None], hom)[0].reshape(n + 1, n + 1, 2)
    centre = corners[n // 2:n // 2 + 2, n // 2:n // 2 + 2]
    pitch = float(np.mean([np.linalg.norm(centre[0, 1] - centre[0, 0]), np.linalg.norm(centre[1, 0] - centre[0, 0])]))
    return gx, gy, cv2.dilate(band, np.ones((7, 7), np.uint8)).astype(np.float32), corners, pitch, seen


def cut_squares(tilt: float, seed: int, turn: float, n: int = 7) -> tuple[list, np.ndarray, float]:
    """The board photographed so, found tile by tile: (its groups' extents, each true square's distance to the
    nearest tile cell's centre and each tile cell's to the nearest true square's, in squares at the centre)."""
    *_, corners, pitch, seen = photographed(tilt, seed=seed, turn=turn, n=n)
    groups = find_loose(Photo(Path("board.jpg"), seen, (CANVAS, CANVAS)))
    truth = ((corners[:-1, :-1] + corners[1:, 1:] + corners[:-1, 1:] + corners[1:, :-1]) / 4).reshape(-1, 2)
    cells = np.array([q.mean(axis=0) for g in groups for k, q in g.cells.items() if g.tile[k] >= TILE_SHARE])
    if not len(cells):
        return [g.extent for g in groups], np.array([np.inf]), pitch
    apart = np.linalg.norm(truth[:, None] - cells[None], axis=2) / pitch
    return [g.extent for g in groups], np.concatenate([apart.min(axis=1), apart.min(axis=0)]), pitch
