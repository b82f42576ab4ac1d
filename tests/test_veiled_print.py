"""A glossy tile's sheen changes a square's colour, not its print: the texture features carry what colour loses."""

import cv2
import numpy as np

from kscore.lab.dataset import load_boards
from kscore.vision.read.features import _colour_features, prepare, print_texture


def _sheen(prepared: np.ndarray) -> np.ndarray:
    """The board under a lavender sheen growing from 25% to 65% across it (a blend, as a mirrored lamp is)."""
    h, w = prepared.shape[:2]
    strength = np.linspace(0.25, 0.65, w, dtype=np.float32)[None, :, None]
    tint = np.float32([245, 175, 200])  # BGR: blue and red over green, as on photos-loose steps 3-5
    return np.clip(prepared * (1 - strength) + tint * strength, 0, 255).astype(np.uint8)


def _nearer_itself_than_another_terrain(clean: np.ndarray, veiled: np.ndarray, terrain: np.ndarray) -> float:
    """Share of squares whose veiled features lie nearer their own clean ones than any clean square of another
    terrain (features standardised on the clean board)."""
    scale = clean.std(axis=0) + 1e-6
    c, v = clean / scale, veiled / scale
    kept = 0
    for i in range(len(c)):
        own = np.linalg.norm(v[i] - c[i])
        others = np.linalg.norm(c[terrain != terrain[i]] - v[i], axis=1)
        kept += own < others.min()
    return kept / len(c)


def test_the_print_survives_a_sheen_that_takes_the_colour(kingdomino_data):
    """On real boards under a tinted sheen, colour features no longer tell a square from other terrains; the
    print's texture (lightness normalised locally) still does for nearly every square."""
    texture_kept, colour_kept = [], []
    for board in load_boards(kingdomino_data)[:6]:
        size = board.kingdom.size
        terrain = np.array([s.terrain.value for _, s in board.kingdom.squares()])
        clean = prepare(cv2.imread(str(board.image)), size)
        veiled = prepare(_sheen(clean), size)
        texture_kept.append(_nearer_itself_than_another_terrain(print_texture(clean, size), print_texture(veiled, size),
                                                                terrain))
        colour_kept.append(_nearer_itself_than_another_terrain(_colour_features(clean, size), _colour_features(veiled, size),
                                                               terrain))
    assert np.mean(colour_kept) < 0.6  # the sheen is strong enough to matter (0.51 measured)
    assert np.mean(texture_kept) > 0.9  # 0.99 measured


def test_forests_under_a_real_sheen_read_forest(photos_loose_data):
    """photos-loose steps 3 and 5: a lamp's lavender sheen lies over the row of four forests beside or above the
    castle. Read on colour alone (feature version 9) five of the eight came out swamp; with the print's texture in
    the features and deeper blue and lavender veils in training, at least six of the eight read forest (seven
    measured), and step 5's rows the sheen spares stay right."""
    from kscore.app.pipeline import read_photo
    from kscore.game.kingdom import Terrain

    veiled = []
    for step, row in (("carpet_step3", 0), ("carpet_step5", 1)):
        (found,) = read_photo(photos_loose_data / f"{step}.jpg").found
        kingdom = found.kingdom
        assert kingdom.castles() == [(row + 1, 2)], step  # the extent lies in its frame's top-left, as labelled
        veiled += [kingdom[(row, c)].terrain for c in range(4)]
    assert veiled.count(Terrain.FOREST) >= 6, veiled
    spared = [kingdom[(r, c)].terrain for r in (0, 2, 3) for c in range(4)]
    assert spared == [Terrain.FOREST, Terrain.LAKE, Terrain.LAKE, Terrain.FOREST,
                      Terrain.FOREST, Terrain.WHEAT, Terrain.CASTLE, Terrain.FOREST,
                      Terrain.WHEAT, Terrain.WHEAT, Terrain.WHEAT, Terrain.FOREST]
