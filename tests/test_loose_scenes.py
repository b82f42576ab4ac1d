"""Synthetic hand-laid scenes (kscore.lab.loose_scenes): the truth they carry, squares' quads included."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from kscore.game.kingdom import Terrain
from kscore.lab.loose_scenes import CASTS, make_loose_scene
from kscore.vision.read.cells import cut_cells
from photo_helpers import HUES, flat_bank, pinned_scene


def _terrain_of(cut: np.ndarray) -> Terrain:
    """The terrain whose flat colour is nearest the middle of a cut square (hue; castle = pale)."""
    hsv = cv2.cvtColor(cut[30:70, 30:70], cv2.COLOR_BGR2HSV).reshape(-1, 3).astype(float)
    hue, sat = np.median(hsv[:, 0]), np.median(hsv[:, 1])
    if sat < 60:
        return Terrain.CASTLE
    return min((t for t, h in HUES.items() if h is not None), key=lambda t: min(abs(hue - HUES[t]), 180 - abs(hue - HUES[t])))


@pytest.mark.parametrize("draw", [pinned_scene, make_loose_scene], ids=["as-before", "tiles-clear"])
def test_every_square_of_a_loose_scene_has_the_quad_where_its_print_lies(draw):
    bank = flat_bank()
    rng = np.random.default_rng(4)
    checked = right = 0
    for _ in range(6):
        scene = draw(bank, rng, strays=2)
        tiles = {(r, c) for r, row in enumerate(scene.rows) for c, sq in enumerate(row) if sq.terrain is not Terrain.EMPTY}
        assert set(scene.quads) == tiles  # kingdom squares only: no stray, no empty
        for (r, c), quad in scene.quads.items():
            assert quad.shape == (4, 2)
            sides = np.linalg.norm(np.roll(quad, -1, axis=0) - quad, axis=1)
            assert np.all(np.abs(sides / scene.pitch - 0.97) < 0.06)  # a square a pitch wide, less the gap
            cut = cut_cells(scene.image, {(0, 0): quad}, 1, px=100)
            checked += 1
            right += _terrain_of(cut) is scene.rows[r][c].terrain
    # Glare veils may wash out a few; a quad off by half a square would cut the neighbour or the table.
    assert right >= 0.95 * checked


def test_a_scene_says_its_light_and_glare():
    bank = flat_bank()
    rng = np.random.default_rng(1)
    scenes = [pinned_scene(bank, rng, strays=0) for _ in range(12)]
    assert {s.light for s in scenes} <= set(CASTS) and len({s.light for s in scenes}) > 1
    assert all(0 <= s.glare <= 2 for s in scenes) and any(s.glare for s in scenes) and not all(s.glare for s in scenes)


def test_a_scene_photographed_from_a_chair_shows_near_squares_larger_and_each_where_it_lies():
    bank = flat_bank()
    rng = np.random.default_rng(4)
    checked = right = 0
    depths = []
    for _ in range(4):
        scene = make_loose_scene(bank, rng, close=True, tilt=25)
        h, w = scene.image.shape[:2]
        quads = np.stack(list(scene.quads.values()))
        assert quads[..., 0].min() >= 0 and quads[..., 0].max() <= w and quads[..., 1].min() >= 0 and quads[..., 1].max() <= h
        across = np.linalg.norm(quads[:, 1] - quads[:, 0], axis=1)  # top sides (turned at most 5 degrees)
        down = np.linalg.norm(quads[:, 3] - quads[:, 0], axis=1)
        depths.extend(down / across)
        near, far = quads[:, :, 1].mean(axis=1).argmax(), quads[:, :, 1].mean(axis=1).argmin()
        assert across[near] > 1.05 * across[far]  # the rows nearest the player look largest
        for (r, c), quad in scene.quads.items():
            checked += 1
            right += _terrain_of(cut_cells(scene.image, {(0, 0): quad}, 1, px=100)) is scene.rows[r][c].terrain
    assert right >= 0.95 * checked
    assert np.median(depths) < 0.985  # foreshortened: a square looks wider than deep (cos 12.5-25 degrees mid-photo)


def test_a_tilt_past_what_a_chair_gives_is_refused():
    with pytest.raises(ValueError, match="tilt"):
        make_loose_scene(flat_bank(), np.random.default_rng(0), tilt=45)
