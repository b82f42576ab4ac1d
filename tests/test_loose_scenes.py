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
