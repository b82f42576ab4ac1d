"""The photo pipeline's edges: nothing found, partial only, names, the correction file."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from kscore.errors import NothingRecognisedError
from kscore.kingdom import Kingdom, Square, Terrain
from kscore.photo.synth import background, scene_with_quads
from kscore.photo_input import kingdom_names, read_photo, reading_path, save_reading
from kscore.rules import Game, GameRules
from kscore.textformat import read_game
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
