"""benchmarks/eval_loose_cells.py: a found group's tile cells matched to the true tiles by their centres; a scene
sent smaller (--scale); one cut's crowns decoded with another's terrain (--split)."""

from __future__ import annotations

import importlib.util
from types import SimpleNamespace

import cv2
import numpy as np

from conftest import PROJECT
from photo_helpers import straight_and_from_a_chair
from kscore.app.pipeline import _tileset, frame_size
from kscore.game.rules import GameRules
from kscore.lab.loose_scenes import LooseScene
from kscore.lab.measures import kingdom_points
from kscore.vision.find.loose import find_loose
from kscore.vision.load import load_photo
from kscore.vision.read.cells import cut_cells, read_cells

_spec = importlib.util.spec_from_file_location("eval_loose_cells", PROJECT / "benchmarks" / "eval_loose_cells.py")
cells_bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cells_bench)


def _square(x: float, y: float, s: float = 10.0) -> np.ndarray:
    return np.float64([[x, y], [x + s, y], [x + s, y + s], [x, y + s]])


def test_tile_cells_match_the_tile_under_them_and_table_cells_none():
    group = SimpleNamespace(cells={(0, 0): _square(0, 0), (0, 1): _square(11, 1), (0, 2): _square(22, 0)},
                            tile={(0, 0): 1.0, (0, 1): 0.9, (0, 2): 0.1})  # (0, 2) is table
    tiles = [_square(1, 0), _square(12, 0, 9), _square(22, 0), _square(60, 60)]
    matched = cells_bench.matched_cells(group, tiles, pitch=10.0)
    # The table cell is no match, though a tile lies under it; the far tile has no cell within half a square.
    assert matched == {(0, 0): 0, (0, 1): 1}
    assert cells_bench.side(_square(0, 0, 12)) == 12.0


def test_tiles_no_tile_cell_matched_are_told_apart_by_how_far_the_nearest_cell_lies():
    group = SimpleNamespace(cells={(0, 0): _square(0, 0), (0, 1): _square(11, 1), (0, 2): _square(22, 0),
                                   (1, 0): _square(6, 11)},
                            tile={(0, 0): 1.0, (0, 1): 0.4, (0, 2): 0.1, (1, 0): 1.0})  # (0, 1) maybe, (0, 2) table
    tiles = [_square(1, 0), _square(12, 0), _square(26, 0), _square(40, 0), _square(60, 60),
             _square(2, 11, 9), _square(11, 11, 9)]  # 5 and 6: two tiles laid close, a cell astride them
    matched = cells_bench.matched_cells(group, tiles, pitch=10.0)
    assert matched == {(0, 0): 0, (1, 0): 6}
    # Tiles 1 and 2 lie under a cell the finder called maybe or table; tile 5 lies under half of cell (1, 0),
    # a cell astride it and tile 6, which took the cell; tile 3 (a row slid 0.7 of a square past the last
    # cell) and tile 4 (past the extent) have no cell within half a square.
    assert cells_bench.unmatched_tiles(group, tiles, matched, pitch=10.0) == ([1, 2], [5], [3, 4])


def test_a_scene_sent_smaller_keeps_its_true_quads_on_its_prints():
    image = cv2.imread(str(PROJECT / "tests" / "data" / "loose" / "mine_on_rug.jpg"))
    quad = _square(200, 150, 120)
    scene = LooseScene(image=image, rows=(), score=0, strays=0, surface="rug", size=5, pitch=120.0,
                       quads={(0, 0): quad})
    sent = cells_bench.sent_scene(scene, 0.6)
    assert sent.image.shape[:2] == (round(image.shape[0] * 0.6), round(image.shape[1] * 0.6))
    assert sent.pitch == 72.0
    # Its quad cuts the same print from the smaller photo as the original quad from the photo.
    before = cut_cells(image, scene.quads, 1)
    after = cut_cells(sent.image, sent.quads, 1)
    moved = cut_cells(sent.image, {(0, 0): sent.quads[(0, 0)] + 20}, 1)
    assert np.abs(before.astype(int) - after).mean() < 0.5 * np.abs(before.astype(int) - moved).mean()
    assert cells_bench.sent_scene(scene, 1.0) is scene


def test_the_split_readings_of_one_cut_are_its_reading():
    """Crowns of one cut with terrain of the same cut decode to what read_cells reads there, both ways."""
    photo = load_photo(PROJECT / "tests" / "data" / "loose" / "carpet_step2.jpg")
    (group,) = [g for g in find_loose(photo) if not g.partial]
    size, tileset = frame_size(group.extent), _tileset(GameRules())
    cells = {p: q / photo.scale for p, q in group.cells.items()}  # as the pipeline cuts them
    read = kingdom_points(read_cells(photo.image, cells, group.tile, size, tileset).kingdom)
    # models None, as the benchmark passes them without --holdout or --models: the shipped ones.
    points = cells_bench.split_points(photo.image, cells, cells, group.tile, size, tileset, None)
    assert len(points) == 2 and set(points.values()) == {read}


def test_scenes_photographed_close_from_a_chair_are_measured_as_eval_loose_draws_them(kingdomino_data, capsys):
    """--close and --tilt draw the scenes eval_loose.py draws with them (the same seed, the same scenes): where
    the finder cuts a kingdom's squares from a chair, and what that costs, is measured on those."""
    base = ["--data", str(kingdomino_data.parent), "--scenes", "1", "--seed", "629", "--close", "--unmatched"]
    straight, chair = straight_and_from_a_chair(cells_bench.main, base, capsys)
    assert "loose scenes: 1 (seed 629, close), a group matching the kingdom's tiles in 1" in straight
    assert "(seed 629, close, from a chair (tilt 25)), a group matching the kingdom's tiles in 1" in chair

    def cells_line(out: str) -> str:
        return next(line for line in out.splitlines() if line.startswith("cells against their tiles"))

    # The same kingdom drawn and seen another way: its tiles and their cells are not where they were.
    assert cells_line(straight) != cells_line(chair)
    # Its 41 tiles counted both ways; straight down (the shipped models) each has its own tile cell.
    assert "tiles no tile cell matched: 0 of 41; 0 nearest" in straight
    assert " of 41; " in chair
