"""Kingdoms laid by hand, found tile by tile (kscore.vision.find.loose) and read where each square lies."""

from __future__ import annotations

import json

import numpy as np
import pytest

from conftest import TEST_DATA
from kscore.app.pipeline import read_photo
from kscore.game.kingdom import Kingdom, Square, Terrain
from kscore.game.properties import occupied_extent
from kscore.game.scoring import score_kingdom
from kscore.lab.dataset import LabelledExtent, extent_square, load_extent_items
from kscore.lab.evaluate_photos import evaluate_photo_items, extent_squares_right
from kscore.vision.find.loose import TABLE_SHARE, TILE_SHARE, find_loose, mask_shares
from kscore.vision.load import load_photo

LOOSE = TEST_DATA / "loose"


def _extent_rows(kingdom: Kingdom) -> list[str]:
    """The occupied extent as text rows ('..' empty), as photos-loose labels it."""
    tiles = [p for p, sq in kingdom.squares() if sq.terrain is not Terrain.EMPTY]
    r0, r1 = min(r for r, _ in tiles), max(r for r, _ in tiles)
    c0, c1 = min(c for _, c in tiles), max(c for _, c in tiles)

    def token(sq: Square) -> str:
        if sq.terrain is Terrain.EMPTY:
            return ".."
        return "C0" if sq.terrain is Terrain.CASTLE else sq.terrain.value[0].upper() + str(sq.crowns)

    return [" ".join(token(kingdom[(r, c)]) for c in range(c0, c1 + 1)) for r in range(r0, r1 + 1)]


def test_a_row_of_five_on_a_dotted_carpet_is_found_whole_and_read(tmp_path):
    # Was "cut by the photo's right and top edge": the carpet's dotted lines joined the tiles' colour blob.
    game = read_photo(LOOSE / "carpet_step2.jpg")
    assert len(game.found) == 1 and not game.partial
    found = game.found[0]
    assert found.extent == (1, 5)
    assert found.kingdom.size == 5  # a smaller-than-frame kingdom lies in a 5x5 frame, the rest empty
    assert _extent_rows(found.kingdom) == ["F0 W1 C0 F1 W0"]


def test_a_ragged_5x4_kingdom_keeps_its_empty_corners_and_one_castle():
    game = read_photo(LOOSE / "carpet_step5.jpg")
    (found,) = game.found
    assert found.extent == (4, 5)
    kingdom = found.kingdom
    assert kingdom.castles() == [(2, 2)]  # the flat printed castle; never a second one
    for empty in [(0, 4), (1, 4), (3, 4)] + [(4, c) for c in range(5)]:
        assert kingdom[empty].terrain is Terrain.EMPTY, empty
    # Squares read where they lie, the second row too: its four forests lie under a blue sheen that turns
    # their colour to a lake's; the print's texture, weighed by its own expert (model.Experts), reads them.
    # Not asserted: the forest with a house in row 3, which the texture vote sometimes takes for a mine (F1
    # read M1 on this copy, 1008 px wide, and on the photo resized to 1600 px; forest at 640, 800 and full size).
    rows = _extent_rows(kingdom)
    assert rows[0] == "F1 L0 L1 F0 .." and rows[1] == "F0 F0 F0 F0 .." and rows[3] == "W0 W0 W0 F0 .."


def test_forests_under_a_blue_sheen_read_as_forests():
    # photos-loose step 4 at full resolution, cropped to its kingdom: the top row's four forests mirror a
    # window, their colour a lake's. Read on colour, two or more were lakes (6 points); the texture-only
    # expert's vote (model.Experts) reads the drawing, which the sheen leaves.
    (found,) = read_photo(LOOSE / "sheen_step4.jpg").found
    assert _extent_rows(found.kingdom) == ["F0 F0 F0 F0 ..", "F0 W1 C0 F1 W0", "W0 W0 W0 F0 .."]
    assert score_kingdom(found.kingdom).total == 11


def test_the_mask_shares_at_a_groups_own_cells_are_the_shares_it_was_found_with():
    # benchmarks/eval_loose_reading.py --mask tells the reader mask_shares at the true quads: it must be
    # the tile mask find_loose fits groups on, its three bands (table, the reader's call, tile) alike.
    photo = load_photo(LOOSE / "carpet_step5.jpg")
    (group,) = [g for g in find_loose(photo) if not g.partial]
    shares = mask_shares(photo, group.cells, group.pitch)
    band = lambda t: (t >= TILE_SHARE) - (t < TABLE_SHARE)  # noqa: E731
    assert all(abs(shares[p] - t) < 0.1 and band(shares[p]) == band(t) for p, t in group.tile.items())
    assert sum(band(t) == 1 for t in shares.values()) >= 15  # the 5x4 kingdom's tiles (one castle, 8 dominoes)


def test_extent_labels_match_up_to_rotation_and_translation():
    truth = LabelledExtent(tuple(tuple(extent_square(t) for t in row.split()) for row in ["C0 F1 W0"]), 1)
    rows = [[Square(Terrain.EMPTY)] * 5 for _ in range(5)]
    rows[1][3], rows[2][3], rows[3][3] = Square(Terrain.CASTLE), Square(Terrain.FOREST, 1), Square(Terrain.WHEAT)
    upright = Kingdom.from_rows("x", rows)  # the extent turned a quarter and moved
    assert extent_squares_right(truth, upright) == 3
    rows[3][3] = Square(Terrain.LAKE)
    assert extent_squares_right(truth, Kingdom.from_rows("x", rows)) == 2
    assert extent_square("..").terrain is Terrain.EMPTY and extent_square("M2") == Square(Terrain.MINE, 2)


def test_photos_loose_are_all_found_with_their_extent(photos_loose_data):
    labels = json.loads((photos_loose_data / "labels.json").read_text())["items"]
    for path, (truth,) in load_extent_items(photos_loose_data).items():
        game = read_photo(path)
        assert len(game.found) == 1, path.name
        # The extent the player is told (text, --json, the page): the squares read as laid. The
        # group read tile by tile may hold a cell of lamp-lit carpet more, read empty (step 2).
        rows, cols = occupied_extent(game.found[0].kingdom)
        assert f"{cols}x{rows}" == labels[path.name]["extent"], path.name
        assert truth.squares == rows * cols


def test_eval_reports_the_extent_format(photos_loose_data):
    result = evaluate_photo_items(photos_loose_data, echo=None)
    assert len(result.kingdoms) == 5 and all(k.found for k in result.kingdoms)
    assert result.false_finds == 0
    assert "corners" not in "\n".join(result.lines()[6:])  # no corner labels: none reported
    with pytest.raises(ValueError, match="extent"):
        load_extent_items(TEST_DATA / "photo")  # the corner format is not the extent one


def test_a_stray_domino_beside_the_kingdom_is_said_and_not_scored():
    from pathlib import Path

    from kscore.app.pipeline import read_loaded_photo
    from kscore.lab.dataset import load_boards
    from kscore.lab.loose_scenes import SquareBank
    from kscore.vision.load import Photo
    from conftest import SHARED_DATA
    from photo_helpers import pinned_scene

    if not (SHARED_DATA / "kingdomino").is_dir():
        pytest.skip(f"shared data set not present here: {SHARED_DATA / 'kingdomino'}")
    bank = SquareBank.from_boards(load_boards(SHARED_DATA / "kingdomino"), SHARED_DATA / "tiles-phone" / "castle")
    scene = pinned_scene(bank, np.random.default_rng(8), surface="wood", size=5, strays=2)  # a 5x2 kingdom
    game = read_loaded_photo(Photo(Path("strays.jpg"), scene.image, (scene.image.shape[1], scene.image.shape[0])))
    assert len(game.found) == 1  # the kingdom, not the draft line
    rows, cols = len(scene.rows), len(scene.rows[0])
    assert sorted(game.found[0].extent) == sorted((rows, cols))  # no stray square joined to it
    assert len(game.notes) == 2 and all("stray" in note for note in game.notes)


def test_a_grid_and_a_kingdom_found_tile_by_tile_overlap_by_the_smaller_quad():
    from kscore.app.pipeline import _overlap

    kingdom = [[100, 100], [600, 100], [600, 600], [100, 600]]
    assert _overlap([[300, 300], [400, 300], [400, 400], [300, 400]], kingdom) == pytest.approx(1.0)  # a grid on a part
    assert _overlap([[500, 100], [700, 100], [700, 300], [500, 300]], kingdom) == pytest.approx(0.5)  # half the grid
    assert _overlap([[700, 700], [800, 700], [800, 800], [700, 800]], kingdom) == 0.0


def test_a_grid_framing_part_of_a_loose_kingdom_gives_way_to_the_kingdom_found_tile_by_tile():
    from pathlib import Path

    from kscore.app.pipeline import read_loaded_photo
    from kscore.lab.dataset import load_boards
    from kscore.lab.loose_scenes import SquareBank
    from kscore.lab.measures import kingdom_points
    from kscore.vision.find.localise import localise
    from kscore.vision.load import Photo
    from conftest import SHARED_DATA
    from photo_helpers import pinned_scene

    if not (SHARED_DATA / "kingdomino").is_dir():
        pytest.skip(f"shared data set not present here: {SHARED_DATA / 'kingdomino'}")
    bank = SquareBank.from_boards(load_boards(SHARED_DATA / "kingdomino"), SHARED_DATA / "tiles-phone" / "castle")
    rng = np.random.default_rng(2)
    for _ in range(13):  # scene 12 of `benchmarks/eval_loose.py --seed 2`: a 5x5 kingdom on stone
        scene = pinned_scene(bank, rng)
    photo = Photo(Path("stone.jpg"), scene.image, (scene.image.shape[1], scene.image.shape[0]))
    (grid,) = [b for b in localise(photo).boards if not b.partial]
    (found,) = read_loaded_photo(photo).found
    assert found.extent == (5, 5) and found.corners != tuple(map(tuple, grid.corners.round(1).tolist()))
    assert len(found.kingdom.castles()) == 1
    assert extent_squares_right(LabelledExtent(scene.rows, scene.score), found.kingdom) >= 23


def test_tiles_coloured_like_a_plain_table_stand_out_by_their_detail():
    import cv2

    from kscore.vision.find.loose import fill_holes, texture_foreground, tile_mask

    board = cv2.imread(str(TEST_DATA / "recognition" / "boards" / "2.jpg"))
    domino = cv2.resize(board[200:300, 100:300], (120, 60), interpolation=cv2.INTER_AREA)  # two real squares
    rng = np.random.default_rng(0)
    # Felt of the tiles' own mean colour, with its fine fibres: no colour tells the two apart.
    fibre = cv2.GaussianBlur(rng.random((400, 500)).astype(np.float32), (0, 0), 0.7)
    felt = domino.reshape(-1, 3).mean(axis=0)[None, None] * (0.85 + 0.3 * fibre[..., None])
    scene = np.clip(felt, 0, 255).astype(np.uint8)
    scene[170:230, 190:310] = domino
    tiles = fill_holes(tile_mask(texture_foreground(scene)))
    assert tiles[170:230, 190:310].mean() > 0.9
    table = np.ones(tiles.shape, bool)
    table[150:250, 170:330] = False
    assert not tiles[table].any()


def test_the_lattice_follows_the_squares_not_the_few_fits_that_latched_onto_print():
    from kscore.vision.find.loose import lattice_map

    rng = np.random.default_rng(1)
    p, turn = 50.0, np.radians(20)
    rot = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    src = np.float32([[c + 0.5, r + 0.5] for r in range(5) for c in range(5)])
    truth = (src * p) @ rot.T + [300, 200]
    dst = truth + rng.normal(0, 1.0, truth.shape)
    dst[[3, 4, 8, 9]] += [0.3 * p, -0.3 * p]  # one corner's fits pulled onto a printed house
    dst = dst.astype(np.float32)
    import cv2

    placed = cv2.perspectiveTransform(np.float64(src)[None], lattice_map(src, dst, p))[0]
    assert np.max(np.linalg.norm(placed - truth, axis=1)) < 0.1 * p


def test_an_empty_square_the_tiles_surround_stays_empty_while_a_house_on_a_tile_is_filled():
    from kscore.vision.find.loose import fill_holes

    p = 40
    mask = np.zeros((200, 200), np.uint8)
    mask[20:20 + 3 * p, 20:20 + 3 * p] = 1
    mask[20 + p:20 + 2 * p, 20 + p:20 + 2 * p] = 0  # the middle square of nine left empty
    mask[30:38, 30:38] = 0  # a dark house on a tile
    filled = fill_holes(mask, 0.5 * p * p)
    assert filled[30:38, 30:38].all()
    assert not filled[25 + p:15 + 2 * p, 25 + p:15 + 2 * p].any()
    assert fill_holes(mask)[25 + p:15 + 2 * p, 25 + p:15 + 2 * p].all()  # without a bound, every hole
