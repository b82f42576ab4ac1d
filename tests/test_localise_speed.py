"""The faster localiser's shortcuts give the very numbers of the plain code they replace.

Each shortcut (several grids scored at once, RANSAC pairs drawn in one call, bits counted
plane by plane) must leave every corner and reading unchanged, bit for bit: the plain
definitions are written out here and compared on a real photo. random_pairs leans on how
numpy's Generator.choice draws, which numpy may change: this is where that would show.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from kscore.vision.find.lattice import _line_samples, edge_maps, refine_lattice, seam_energies, seam_energy, seam_samples_of
from kscore.vision.find.localise import _most_agreeing, localise, random_pairs, working_image
from kscore.vision.geometry import side_length
from kscore.vision.load import check_usable, load_photo, _colourfulness
from kscore.vision.read.features import _uniform_lbp, prepare
from kscore.vision.find.rectify import rectify
from photo_helpers import SAMPLE_PHOTO


@pytest.fixture(scope="module")
def table():
    """The sample photo at localisation resolution, its edge maps and its kingdom's grid there."""
    photo = load_photo(SAMPLE_PHOTO)
    work, factor = working_image(photo.image)
    board = localise(photo).boards[0]
    return photo, work, edge_maps(work), board, board.corners / (factor * photo.scale)


def one_grid_samples(edges, quad, size, samples=8):
    """seam_samples as it was written for one grid (before seam_samples_of)."""
    gx, gy = edges
    h, w = gx.shape
    hom = cv2.getPerspectiveTransform(np.float32([[0, 0], [size, 0], [size, size], [0, size]]), np.float32(quad))
    u, v, kind = _line_samples(size, samples)
    den = hom[2, 0] * u + hom[2, 1] * v + hom[2, 2]
    x = (hom[0, 0] * u + hom[0, 1] * v + hom[0, 2]) / den
    y = (hom[1, 0] * u + hom[1, 1] * v + hom[1, 2]) / den
    dx = (hom[0, kind] - x * hom[2, kind]) / den
    dy = (hom[1, kind] - y * hom[2, kind]) / den
    norm = np.hypot(dx, dy) + 1e-12
    xi = np.clip((x + 0.5).astype(int), 0, w - 1)
    yi = np.clip((y + 0.5).astype(int), 0, h - 1)
    return (np.abs(dx) * gx[yi, xi] + np.abs(dy) * gy[yi, xi]) / norm


def refine_one_move_at_a_time(edges, quad, size, reach=0.6):
    """refine_lattice as it was written: each move scored alone, from the grid as it stands."""
    quad = np.asarray(quad, float).copy()
    pitch = side_length(quad) / size
    best = float(np.mean(one_grid_samples(edges, quad, size)))
    start = quad.copy()
    step = 0.2 * pitch
    while step > 0.03 * pitch:
        improved = False
        for i in range(4):
            for axis in range(2):
                for sign in (1, -1):
                    trial = quad.copy()
                    trial[i, axis] += sign * step
                    if np.linalg.norm(trial[i] - start[i]) > reach * pitch:
                        continue
                    e = float(np.mean(one_grid_samples(edges, trial, size)))
                    if e > best:
                        best, quad, improved = e, trial, True
        if not improved:
            step /= 2
    return quad


def test_grids_scored_together_score_as_one_at_a_time(table):
    _, _, edges, board, quad = table
    rng = np.random.default_rng(5)
    for size in (5, 7):
        grids = [quad + rng.normal(0, 3, (4, 2)) for _ in range(9)]
        together = seam_samples_of(edges, grids, size)
        for grid, row in zip(grids, together):
            assert np.array_equal(row, one_grid_samples(edges, grid, size))
        cap = float(np.percentile(together, 75))
        assert seam_energies(edges, grids, size, cap=cap) == [
            seam_energy(edges, g, size, cap=cap) for g in grids]


def test_refine_lattice_keeps_the_moves_one_at_a_time_kept(table):
    """From grids a fraction of a square off the seams (the moves then gain often), the same corners."""
    _, _, edges, board, quad = table
    rng = np.random.default_rng(11)
    pitch = side_length(quad) / board.size
    for _ in range(4):
        start = quad + rng.normal(0, 0.25 * pitch, (4, 2))
        assert np.array_equal(refine_lattice(edges, start, board.size), refine_one_move_at_a_time(edges, start, board.size))


@pytest.mark.parametrize("n", [10, 11, 57, 676, 1061, 20000])
def test_random_pairs_are_the_pairs_rng_choice_draws(n):
    """Pairs and the generator's state after them, as in _fit_sides (a fresh generator, sides one after another)."""
    plain, quick = np.random.default_rng(0), np.random.default_rng(0)
    for count in (n, n + 3, max(10, n // 2)):
        expected = np.array([plain.choice(count, 2, replace=False) for _ in range(60)])
        assert np.array_equal(random_pairs(quick, count, 60), expected)
    assert plain.integers(0, 2**62) == quick.integers(0, 2**62)


def test_most_agreeing_counts_as_written(table):
    """The in-place residuals pick the same samples as the expression they replace."""
    rng = np.random.default_rng(3)
    ts = np.linspace(45.6, 266.4, 48)
    for _ in range(200):
        n = int(rng.integers(10, 49))
        x = np.sort(rng.choice(ts, n, replace=False))
        y = np.floor(40 + x * rng.normal(0, 0.05) + rng.normal(0, 1.0, n) + (rng.random(n) < 0.3) * rng.integers(-30, 30, n)) + 0.5
        pts = np.column_stack([x, y])
        i, j = np.triu_indices(n, 1)
        keep = np.abs(pts[j, 0] - pts[i, 0]) > 0.2 * np.ptp(pts[:, 0])
        i, j = i[keep], j[keep]
        slope = (pts[j, 1] - pts[i, 1]) / (pts[j, 0] - pts[i, 0])
        resid = np.abs(pts[None, :, 1] - (pts[i, 1, None] + slope[:, None] * (pts[None, :, 0] - pts[i, 0, None])))
        resid *= 1.0 / np.sqrt(1.0 + slope[:, None] ** 2)
        assert np.array_equal(_most_agreeing(pts), resid[int(np.argmax((resid < 2.0).sum(axis=1)))] < 2.0)


def test_uniform_lbp_counts_as_the_stacked_bits(table):
    photo, _, _, board, _ = table
    light = cv2.cvtColor(prepare(rectify(photo, board.corners, board.size), board.size), cv2.COLOR_BGR2Lab)[..., 0]
    light = light.astype(np.float32)
    padded = np.pad(light, 1, mode="edge")
    h, w = light.shape
    around = [(-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1)]
    bits = np.stack([padded[1 + dy:1 + dy + h, 1 + dx:1 + dx + w] >= light + 1 for dy, dx in around], axis=-1)
    arcs = (bits != np.roll(bits, 1, axis=-1)).sum(axis=-1) <= 2
    expected = np.where(arcs, bits.sum(axis=-1), 9).astype(np.int32)
    assert np.array_equal(_uniform_lbp(light), expected)
    assert len(np.unique(expected)) == 10  # a real print shows every code: the comparison means something


def test_colourfulness_is_the_channels_distance_from_their_mean(table):
    photo = table[0]
    image = photo.image
    sample = image[:: max(1, image.shape[0] // 200), :: max(1, image.shape[1] // 200)].astype(np.int16)
    expected = np.abs(sample - sample.mean(axis=2, keepdims=True)).max(axis=2)
    assert np.array_equal(_colourfulness(image), expected)
    check_usable(photo)  # a colour photo passes
