"""benchmarks/eval_loose_cells.py matches a found group's tile cells to the true tiles by their centres."""

from __future__ import annotations

import importlib.util
from types import SimpleNamespace

import numpy as np

from conftest import PROJECT

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
