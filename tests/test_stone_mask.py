"""Tiles on a beige speckled stone: the tile mask keeps grey castles, mines and plain fields.

The stone's speckles span, pixel by pixel, the colours of a grey castle and a dark mine, so the colour
foreground lost them and a kingdom after three rounds of a Mighty Duel game was not found at all (scene 24
of `benchmarks/eval_loose.py --seed 21 --size 7 --on stone --dominoes 1-24`: only a 5x5 grid over the
strays, reading two castles). Scenes come from kscore.lab.loose_scenes and need ../shared/data (skipped
visibly without it).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from kscore.app.pipeline import read_loaded_photo
from kscore.game.kingdom import Terrain
from kscore.vision.find.localise import working_image
from kscore.vision.find.loose import tile_foreground, tile_mask
from kscore.vision.load import Photo
from photo_helpers import generator_state, kept_on_square, loose_scene

#: The generator's state before scene 24 of that run: a castle, a mine with two crowns, a swamp, two plain
#: wheat fields, and two stray dominoes beside them.
SEED21_DUEL_ON_STONE_24 = generator_state(
    214488507264861262760064351881761643785, 309141390015141504862174807861076180645, 1, 257115050)


@pytest.fixture(scope="module")
def scene(kingdomino_data, tiles_phone_data):
    return loose_scene(kingdomino_data, tiles_phone_data, SEED21_DUEL_ON_STONE_24, surface="stone", size=7,
                       dominoes=(1, 24))


def test_the_scene_is_the_one_described(scene):
    tiles = Counter(sq.terrain for row in scene.rows for sq in row)
    assert scene.surface == "stone" and tiles[Terrain.CASTLE] == 1 and tiles[Terrain.MINE] == 1
    assert tiles[Terrain.WHEAT] == 2 and scene.strays == 2


def test_the_tile_mask_keeps_every_square_of_the_kingdom(scene):
    work, factor = working_image(scene.image)
    mask = tile_mask(tile_foreground(work))
    kept = {(r, c): kept_on_square(mask, quad, factor) for (r, c), quad in scene.quads.items()
            if scene.rows[r][c].terrain is not Terrain.EMPTY}
    assert len(kept) == 5
    assert min(kept.values()) >= 0.6, kept


def test_the_kingdom_is_found_with_its_castle(scene):
    photo = Photo(Path("stone24.jpg"), scene.image, (scene.image.shape[1], scene.image.shape[0]))
    found = [f.kingdom for f in read_loaded_photo(photo).found]
    truth = Counter((sq.terrain, sq.crowns) for row in scene.rows for sq in row if sq.terrain is not Terrain.EMPTY)
    read = [Counter((sq.terrain, sq.crowns) for row in k.rows for sq in row if sq.terrain is not Terrain.EMPTY)
            for k in found]
    assert truth in read, read
