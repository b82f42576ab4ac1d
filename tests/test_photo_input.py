"""The photo pipeline's edges: nothing found, partial only, names, the correction file."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from kscore.errors import NothingRecognisedError
from kscore.game.kingdom import Kingdom, Square, Terrain
from kscore.lab.synth import background, scene_with_quads
from kscore.app.pipeline import kingdom_names, read_photo, reading_path, save_reading
from kscore.game.rules import Game, GameRules
from kscore.game.textformat import read_game
from photo_helpers import labelled_boards


def test_empty_table_is_nothing_recognised_with_advice(tmp_path):
    rng = np.random.default_rng(11)
    path = tmp_path / "table.jpg"
    cv2.imwrite(str(path), np.clip(background("cloth", rng, 900, 1200), 0, 255).astype(np.uint8))
    with pytest.raises(NothingRecognisedError) as caught:
        read_photo(path)
    assert caught.value.exit_code == 3
    message = str(caught.value)
    assert "no kingdom found" in message and "closer" in message and "from above" in message


def test_a_kingdom_cut_by_the_edge_alone_is_not_scored(tmp_path):
    rng = np.random.default_rng(5)
    quad = np.array([[700, 250], [1100, 260], [1090, 660], [690, 650]], float)  # past the right edge
    scene = scene_with_quads(labelled_boards()[:1], [quad], rng, size=(1000, 900), background_kind="table")
    path = tmp_path / "cut.jpg"
    cv2.imwrite(str(path), scene.image)
    with pytest.raises(NothingRecognisedError, match="right"):
        read_photo(path)


def test_names_follow_the_file_and_count():
    assert kingdom_names("alice", 1) == ["alice"]
    assert kingdom_names("table", 3) == ["table-1", "table-2", "table-3"]
    assert kingdom_names("[odd]", 1) == ["odd"]


def _game() -> Game:
    rows = [[Square(Terrain.WHEAT, 1)] * 5 for _ in range(5)]
    rows[2][2] = Square(Terrain.CASTLE)
    rows[0][1] = Square(Terrain.LAKE, 0, uncertain=True)
    return Game(GameRules(), (Kingdom.from_rows("photo", rows),), "photo.jpg")


def test_reading_is_written_beside_the_photo_with_unsure_marks(tmp_path):
    photo = tmp_path / "photo.jpg"
    message = save_reading(_game(), photo)
    target = reading_path(photo)
    assert target == tmp_path / "photo.kingdom" and "wrote" in message
    text = target.read_text()
    assert "[photo]" in text and "L0?" in text
    again = read_game(target)  # the player can rescore it as is
    assert again.kingdoms[0][(0, 1)].uncertain


def test_existing_reading_is_never_overwritten_without_force(tmp_path):
    photo = tmp_path / "photo.jpg"
    target = reading_path(photo)
    target.write_text("my corrections\n")
    message = save_reading(_game(), photo)
    assert "not overwritten" in message and "--force" in message
    assert target.read_text() == "my corrections\n"
    message = save_reading(_game(), photo, force=True)
    assert "photo.kingdom.bak" in message
    assert (tmp_path / "photo.kingdom.bak").read_text() == "my corrections\n"
    assert "[photo]" in target.read_text()


def _large_jpeg(tmp_path, copies: int):
    """A 4000x3000 JPEG of the sample table, once filling it or `copies` (4) times side by side."""
    from conftest import PROJECT

    sample = cv2.imread(str(PROJECT / "sample_images" / "table_5x5.jpg"))
    if copies == 1:
        canvas = cv2.resize(sample, (4000, 3000), interpolation=cv2.INTER_CUBIC)
    else:
        small = cv2.resize(sample, None, fx=0.45, fy=0.45, interpolation=cv2.INTER_AREA)
        canvas = np.full((3000, 4000, 3), np.median(sample.reshape(-1, 3), axis=0), np.uint8)
        h, w = small.shape[:2]
        for y, x in [(100, 100), (100, 2100), (1550, 100), (1550, 2100)]:
            canvas[y : y + h, x : x + w] = small
    path = tmp_path / f"table{copies}.jpg"
    cv2.imwrite(str(path), canvas, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return path


def test_small_kingdoms_are_read_from_a_finer_decode_of_the_photo(tmp_path):
    from kscore.vision.load import load_photo
    from kscore.vision.find.localise import localise
    from kscore.app.pipeline import photo_for_reading

    four = load_photo(_large_jpeg(tmp_path, 4))
    boards = [b for b in localise(four).boards if not b.partial]
    assert four.scale == pytest.approx(2.0) and len(boards) == 4  # found at ~48 px per square...
    assert photo_for_reading(four, boards).scale == pytest.approx(1.0)  # ...read at ~95

    one = load_photo(_large_jpeg(tmp_path, 1))
    assert photo_for_reading(one, localise(one).boards) is one  # already enough pixels per square

    game = read_photo(tmp_path / "table4.jpg")
    assert len(game.kingdoms) == 4
    readings = {tuple((s.terrain, s.crowns) for row in k.rows for s in row) for k in game.kingdoms}
    assert len(readings) == 1  # the same kingdom, read alike
