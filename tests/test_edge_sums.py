"""The edge sums settle fits a kept grid's squares on and loose fits a group's cells on are one function
(loose.lab_edges), bit for bit what each computed before: |Sobel| of the Lab image summed over its channels,
blurred at sigma 1. Needs ../shared/data (skipped visibly without it).
"""

from __future__ import annotations

import cv2
import numpy as np

from kscore.vision.find.loose import SideEnergy, lab_edges, seams_widened
from kscore.vision.find.settle import edge_energy


def _loose_sums(lab: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """What loose._fit_group computed inline before lab_edges."""
    gx = cv2.GaussianBlur(np.abs(cv2.Sobel(lab, cv2.CV_32F, 1, 0, ksize=3)).sum(axis=2), (0, 0), 1.0)
    gy = cv2.GaussianBlur(np.abs(cv2.Sobel(lab, cv2.CV_32F, 0, 1, ksize=3)).sum(axis=2), (0, 0), 1.0)
    return gx, gy


def _settle_sums(lab: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """What settle.edge_energy computed before lab_edges."""
    def strength(dx: int, dy: int) -> np.ndarray:
        g = np.abs(cv2.Sobel(lab, cv2.CV_32F, dx, dy, ksize=3))
        return cv2.GaussianBlur(g[..., 0] + g[..., 1] + g[..., 2], (0, 0), 1.0)

    return strength(1, 0), strength(0, 1)


def test_the_shared_edge_sums_are_each_callers_own(kingdomino_data, photos_loose_data):
    board = cv2.imread(str(kingdomino_data / "boards" / "1.jpg"))
    photo = cv2.imread(str(photos_loose_data / "carpet_step3.jpg"))
    photo = cv2.resize(photo, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    h, w = photo.shape[:2]
    turned = cv2.warpAffine(photo, cv2.getRotationMatrix2D((w / 2, h / 2), 7.5, 1.0), (w, h),
                            flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)  # as _fit_group turns its group
    # The sharpest edges a uint8 Lab image has (0 beside 255 in every channel): the largest sums lab_edges adds.
    checks = np.kron(np.indices((8, 8)).sum(axis=0) % 2, np.ones((5, 5), int)).astype(np.uint8) * 255
    labs = [cv2.cvtColor(image, cv2.COLOR_BGR2Lab) for image in (board, photo, turned)] + [np.dstack([checks] * 3)]
    for lab in labs:
        shared = lab_edges(lab)
        for own in (_loose_sums(lab), _settle_sums(lab)):
            assert all(a.dtype == b.dtype and np.array_equal(a, b) for a, b in zip(shared, own))


def test_settle_fits_its_squares_on_the_shared_sums(kingdomino_data):
    board = cv2.imread(str(kingdomino_data / "boards" / "12.jpg"))
    energy, before = edge_energy(board), SideEnergy(*_settle_sums(cv2.cvtColor(board, cv2.COLOR_BGR2Lab)))
    assert np.array_equal(energy.down, before.down) and np.array_equal(energy.along, before.along)


def test_moves_sums_what_rect_sums():
    """SideEnergy.moves (fit_cell's every move and size at once) is rect over the same rectangles, to the bit."""
    rng = np.random.default_rng(3)
    energy = SideEnergy(rng.random((90, 120)).astype(np.float32), rng.random((90, 120)).astype(np.float32))
    x, sw = rng.uniform(-10, 120, (7, 3)), rng.uniform(5, 60, (7, 3))
    y, sh = rng.uniform(-10, 90, (6, 2)), rng.uniform(5, 60, (6, 2))
    grid = energy.moves(x, sw, y, sh)
    assert grid.shape == (7, 3, 6, 2)
    each = energy.rect(x[:, :, None, None], y[None, None], sw[:, :, None, None], sh[None, None])
    assert np.array_equal(grid, each)


def test_running_sums_start_from_zero_and_sum_each_column_and_row():
    """SideEnergy's running sums, made in place: a row (column) of zeros, then the widened seams' sums, to the bit."""
    rng = np.random.default_rng(5)
    gx, gy = (rng.random((40, 70)) * 100).astype(np.float32), (rng.random((40, 70)) * 100).astype(np.float32)
    energy, (wx, wy) = SideEnergy(gx, gy), seams_widened(gx, gy)
    assert energy.down.dtype == energy.along.dtype == np.float32
    assert np.array_equal(energy.down, np.vstack([np.zeros((1, 70), np.float32), np.cumsum(wx, axis=0)]))
    assert np.array_equal(energy.along, np.hstack([np.zeros((40, 1), np.float32), np.cumsum(wy, axis=1)]))
