"""A square read castle or empty while the crown counter sees crowns on it is marked `?` (doubt.mark_doubts).

Both classifiers can be over their bars and still contradict each other: on `benchmarks/eval_loose.py
--seed 13` scene 47 (model m2) the grid read a swamp with two crowns as the castle (0.94, the bar 0.93)
while the counter saw its two crowns (0.999), and the true castle as wheat: the score was 6 for 8 with
no `?` on the page. The scene comes from kscore.lab.loose_scenes and needs ../shared/data (skipped
visibly without it).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kscore.app.pipeline import read_loaded_photo
from kscore.game.kingdom import Kingdom, Square, Terrain
from kscore.lab.measures import kingdom_points
from kscore.vision.load import Photo
from kscore.vision.read.classes import CROWN_CLASSES, TERRAIN_CLASSES
from kscore.vision.read.doubt import NO_CROWNS_BELOW, Doubt, mark_doubts
from photo_helpers import generator_state, loose_scene

#: Before scene 47 of `--seed 13`: a 5x5 kingdom (8 points) on cloth, two stray dominoes.
CASTLE_47 = generator_state(307690094992069556963699353250423263457, 317612346296202158696945144441957901887, 0,
                            1362893401)


def _sure(n: int, k: int, top: int) -> np.ndarray:
    p = np.full((n, n, k), 0.001 / (k - 1))
    p[..., top] = 0.999
    return p


def test_crowns_seen_on_a_castle_or_an_empty_square_mark_it_and_no_crowns_mark_nothing():
    kingdom = Kingdom.from_rows("k", [[Square(Terrain.CASTLE), Square(Terrain.EMPTY)],
                                      [Square(Terrain.WHEAT, 1), Square(Terrain.FOREST)]])
    terrain = _sure(2, len(TERRAIN_CLASSES), 0)  # every square read surely
    doubt = Doubt(terrain_below=0.9, crowns_below=0.9)
    assert mark_doubts(kingdom, terrain, _sure(2, len(CROWN_CLASSES), 0), doubt).uncertain() == []
    two_seen = _sure(2, len(CROWN_CLASSES), 2)
    # The castle and the empty square cannot carry two crowns; the wheat and forest are only miscounted, and sure.
    assert sorted(mark_doubts(kingdom, terrain, two_seen, doubt).uncertain()) == [(0, 0), (0, 1)]
    # At the line ("no crowns" at NO_CROWNS_BELOW) the castle and the empty square are not marked (the others
    # are, by the crown bar); models without bars mark nothing.
    edge = np.broadcast_to(np.array([NO_CROWNS_BELOW, 1 - NO_CROWNS_BELOW, 0, 0]), (2, 2, len(CROWN_CLASSES)))
    assert sorted(mark_doubts(kingdom, terrain, edge, doubt).uncertain()) == [(1, 0), (1, 1)]
    assert mark_doubts(kingdom, terrain, two_seen, Doubt()).uncertain() == []


@pytest.fixture(scope="module")
def scene(kingdomino_data, tiles_phone_data):
    return loose_scene(kingdomino_data, tiles_phone_data, CASTLE_47)


def test_the_scene_is_the_one_described(scene):
    assert (scene.surface, len(scene.rows), len(scene.rows[0]), scene.strays, scene.score) == ("cloth", 5, 5, 2, 8)
    assert scene.rows[1][1].terrain is Terrain.CASTLE and scene.rows[1][3] == Square(Terrain.SWAMP, 2)


def test_a_wrong_score_from_a_castle_read_where_crowns_lie_shows_a_question_mark(scene):
    game = read_loaded_photo(Photo(Path("castle47.jpg"), scene.image, (scene.image.shape[1], scene.image.shape[0])))
    assert len(game.found) == 1
    kingdom = game.found[0].kingdom
    assert kingdom_points(kingdom) == scene.score or kingdom.uncertain(), kingdom_points(kingdom)
    # The castle read is the one marked (on m2 it is read on the swamp with two crowns).
    castles = [p for p, square in kingdom.squares() if square.terrain is Terrain.CASTLE]
    assert castles and all(kingdom[p].uncertain for p in castles if kingdom_points(kingdom) != scene.score)
