"""A kingdom is a castle and whole dominoes: an odd count of tiles (kscore.app.pipeline.loose_readings).

When no group of tiles reads a castle, the squares beside the largest are asked whether one is the castle
the tile mask missed (castle_beside). A group reading an odd count of tiles holds its castle already,
misread (a flat castle read as wheat): a table square beside a 5x5 group read as castle (speckled stone,
a patterned cloth) made the kingdom 6x5, a 7x7 game's (`benchmarks/eval_loose.py --seed 13` scenes 1 and
20, `--seed 2` scene 4; with model m2 scene 20 still did, and scene 3's 4x2 kingdom beside two strays was
not found). Such a group may still grow within its frame: a round-three kingdom whose flat castle and dark
mine the mask both missed (`--seed 7 --dominoes 1-3` scene 23, 5 tiles found) keeps its castle.
Scenes come from kscore.lab.loose_scenes and need ../shared/data (skipped visibly without it).

`castle_past_doubted_forest.jpg`: a 5x5 kingdom on a patterned cloth whose flat castle lies past a dark forest
across a gap. The mask keeps the forest in doubt, so the squares beside the sure tiles left out the castle's;
on main ffe6833 it was read 4x5 without a castle. (The forest itself still reads empty: 18 of its 19 tiles.)
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import TEST_DATA
from kscore.app.pipeline import read_loaded_photo, read_photo
from kscore.game.kingdom import Terrain
from kscore.game.scoring import score_kingdom
from kscore.lab.dataset import LabelledExtent
from kscore.lab.evaluate_photos import extent_squares_right
from kscore.vision.load import Photo
from photo_helpers import generator_state, loose_scene


#: Before scene 1 of `--seed 13`: a 5x5 kingdom (13 points) on speckled stone, no strays.
STONE_1 = generator_state(154385760473567837072120542834245000968, 317612346296202158696945144441957901887, 0, 3364772068)
#: Before scene 4 of `--seed 2`: a 5x5 kingdom (14 points) on a patterned cloth, no strays.
PATTERN_4 = generator_state(40027003529217510961192467110066261301, 121863417007658695389390353187995180015, 1, 3622915156)
#: Before scene 20 of `--seed 13`: a 5x5 kingdom (11 points) on a patterned cloth, two strays.
PATTERN_20 = generator_state(248713925150442083557938030347298373605, 317612346296202158696945144441957901887, 0, 1253634243)
#: Before scene 3 of `--seed 13`: a 4x2 kingdom (1 point) on a plain table, two strays.
TABLE_3 = generator_state(162661762070279083564234591000109518469, 317612346296202158696945144441957901887, 1, 1619072150)
#: Before scene 23 of `--seed 7 --dominoes 1-3`: a 3x4 kingdom (2 points) on a plain table, two strays.
ROUND_23 = generator_state(308636756981353700656758276445198803882, 261136684632268670825940853076396136793, 0, 2743236068)


@pytest.fixture(scope="module")
def scenes(kingdomino_data, tiles_phone_data):
    def draw(state, **options):
        return loose_scene(kingdomino_data, tiles_phone_data, state, **options)

    return {"stone1": draw(STONE_1), "pattern4": draw(PATTERN_4), "pattern20": draw(PATTERN_20), "table3": draw(TABLE_3),
            "round23": draw(ROUND_23, dominoes=(1, 3))}


def _occupied(kingdom) -> tuple[int, int]:
    tiles = [p for p, square in kingdom.squares() if square.terrain is not Terrain.EMPTY]
    rows, cols = [r for r, _ in tiles], [c for _, c in tiles]
    return max(rows) - min(rows) + 1, max(cols) - min(cols) + 1


def _kingdom(scene, name: str):
    game = read_loaded_photo(Photo(Path(name), scene.image, (scene.image.shape[1], scene.image.shape[0])))
    truth = LabelledExtent(scene.rows, scene.score)
    best = max(game.found, key=lambda k: extent_squares_right(truth, k.kingdom))
    return best.kingdom, truth


def test_the_scenes_are_the_ones_described(scenes):
    described = {"stone1": ("stone", 5, 5, 0, 13), "pattern4": ("pattern", 5, 5, 0, 14),
                 "pattern20": ("pattern", 5, 5, 2, 11), "table3": ("table", 4, 2, 2, 1), "round23": ("table", 3, 4, 2, 2)}
    for name, scene in scenes.items():
        assert (scene.surface, len(scene.rows), len(scene.rows[0]), scene.strays, scene.score) == described[name]


@pytest.mark.parametrize("name", ["stone1", "pattern4", "pattern20"])
def test_a_5x5_kingdom_whose_castle_was_misread_gains_no_row_of_table(scenes, name):
    kingdom, truth = _kingdom(scenes[name], f"{name}.jpg")
    assert _occupied(kingdom) == (5, 5)
    assert extent_squares_right(truth, kingdom) >= truth.squares - 4


def test_a_small_kingdom_beside_strays_is_found_at_its_extent(scenes):
    kingdom, truth = _kingdom(scenes["table3"], "table3.jpg")
    assert sorted(_occupied(kingdom)) == [2, 4]
    assert extent_squares_right(truth, kingdom) >= truth.squares - 1


def test_a_kingdom_in_progress_still_finds_the_castle_the_mask_missed(scenes):
    kingdom, truth = _kingdom(scenes["round23"], "round23.jpg")
    assert len(kingdom.castles()) == 1
    assert sorted(_occupied(kingdom)) == [3, 4]
    assert extent_squares_right(truth, kingdom) >= truth.squares - 1


def test_a_castle_past_a_square_the_mask_doubted_is_found_there():
    (found,) = read_photo(TEST_DATA / "loose" / "castle_past_doubted_forest.jpg").found
    assert found.extent == (5, 5)
    assert found.kingdom.castles() == [(0, 3)]
    assert score_kingdom(found.kingdom).total == 6
