"""Tight crops of kingdoms smaller than their frame: the table shows along two sides."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from kscore.app.pipeline import read_loaded_photo
from kscore.lab.loose_scenes import _surface
from kscore.vision.load import Photo
from photo_helpers import labelled_boards

#: The loose scenes' hand-made surfaces.
SURFACES = ("dotted", "felt", "pattern", "wood", "stone")


def _laid_on(surface: str, seed: int) -> np.ndarray:
    """Board 1 as a 4x4 kingdom cut tight to its 5x5 frame: its last row and column show the table."""
    image = labelled_boards()[0].image.copy()
    h, w = image.shape[:2]
    table = np.clip(_surface(surface, np.random.default_rng(seed), h, w), 0, 255).astype(np.uint8)
    image[:, 4 * w // 5:] = table[:, 4 * w // 5:]
    image[4 * h // 5:] = table[4 * h // 5:]
    return image


def test_a_4x4_kingdom_cut_tight_to_its_frame_is_read_as_its_whole_frame():
    # Before: with the table along two sides the whole-frame check failed, and the 4x4 block
    # touching the photo's top and left edges was "cut by the photo's edge" (exit 3).
    for surface in SURFACES:
        image = _laid_on(surface, 0)
        game = read_loaded_photo(Photo(Path(f"{surface}.png"), image, image.shape[1::-1]))
        (found,) = game.found
        assert found.kingdom.size == 5 and not game.partial
        xs = [x for x, _ in found.corners]
        assert min(xs) < 25 and max(xs) > 475  # the frame is the photo, not the 4x4 block
