"""Tight crops of one kingdom (the 500x500 boards' style) whose border squares are empty, or blurred.

A finished kingdom can end smaller than its frame (a domino that could not be
placed): cut tight to its 5x5 frame, the photo shows the table where its last
row or column, or a corner, would be. Each labelled board of
../shared/data/kingdomino gets one such change, drawn at random:

  col      the last column is table            rowcol  the last row and column are table
  row      the first row is table              corners two opposite corners are table
  blur     the whole crop blurred (a phone's missed focus)

on one of the loose scenes' surfaces (kscore.lab.loose_scenes: wood, carpet,
felt, stone, dotted and patterned carpet, ...). Prints, per change and in
all: found, squares right (best of the four turns), exact scores, and wrong
scores that show a '?'; and per surface. The terrain model learns empty
squares from random surfaces (kscore.lab.tables) and from these kinds too
(other draws: kscore.lab.train._table_copies). The boards' squares are in the shipped models'
training data: this measures finding the frame and telling table from tile,
not terrain reading.

    python benchmarks/eval_crops_empty.py [--seed 1] [--every 1] [--list] [--save DIR]
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path

import cv2
import numpy as np

PROJECT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PROJECT))

from kscore.app.pipeline import read_loaded_photo  # noqa: E402
from kscore.errors import NothingRecognisedError  # noqa: E402
from kscore.game.kingdom import Square, Terrain  # noqa: E402
from kscore.lab.dataset import load_boards  # noqa: E402
from kscore.lab.evaluate_squares import MarkTally  # noqa: E402
from kscore.lab.loose_scenes import SURFACES, draw_surface  # noqa: E402
from kscore.lab.measures import kingdom_points, squares_right  # noqa: E402
from kscore.vision.load import Photo  # noqa: E402

CHANGES = {  # name -> the squares that show the table
    "col": [(r, 4) for r in range(5)],
    "row": [(0, c) for c in range(5)],
    "rowcol": [(r, 4) for r in range(5)] + [(4, c) for c in range(4)],
    "corners": [(0, 0), (4, 4)],
    "blur": [],
}


def changed_crop(image: np.ndarray, change: str, surface: str, rng: np.random.Generator) -> np.ndarray:
    if change == "blur":
        return cv2.GaussianBlur(image, (0, 0), rng.uniform(1.5, 3.0))
    h, w = image.shape[:2]
    table = np.clip(draw_surface(surface, rng, h, w), 0, 255).astype(np.uint8)
    out = image.copy()
    py, px = h // 5, w // 5
    for r, c in CHANGES[change]:
        out[r * py:(r + 1) * py, c * px:(c + 1) * px] = table[r * py:(r + 1) * py, c * px:(c + 1) * px]
    return out


def crops(boards, rng: np.random.Generator):
    """Each board's crop as drawn for a seed: (board, change, surface, image, the kingdom it shows)."""
    for board in boards:
        change = list(CHANGES)[int(rng.integers(0, len(CHANGES)))]
        surface = SURFACES[int(rng.integers(0, len(SURFACES)))]
        image = changed_crop(cv2.imread(str(board.image)), change, surface, rng)
        truth = board.kingdom
        for position in CHANGES[change]:
            truth = truth.with_square(position, Square(Terrain.EMPTY))
        yield board, change, surface, image, truth


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=PROJECT.parent / "shared" / "data" / "kingdomino")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--every", type=int, default=1, help="use every Nth board")
    ap.add_argument("--list", action="store_true", help="one line per crop not exact")
    ap.add_argument("--save", type=Path, help="write the crops not found or not exact here, as PNG")
    args = ap.parse_args()
    if not args.data.is_dir():
        sys.exit(f"no {args.data}: this benchmark needs the labelled boards")
    rng = np.random.default_rng(args.seed)
    tally: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    seconds = []
    marks = MarkTally()  # squares of the found crops, at their best turn
    for board, change, surface, image, truth in crops(load_boards(args.data)[::args.every], rng):
        t = tally[change]
        t["crops"] += 1
        kind = tally[f"on {surface}"]
        kind["crops"] += 1
        start = time.perf_counter()
        try:
            found = read_loaded_photo(Photo(Path(f"{board.board_id}.png"), image, image.shape[:2])).found
        except NothingRecognisedError:
            found = ()
        seconds.append(time.perf_counter() - start)
        if args.save and (not found or kingdom_points(found[0].kingdom) != kingdom_points(truth)):
            args.save.mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(args.save / f"{board.board_id}_{change}_{surface}.png"), image)
        if not found or found[0].kingdom.size != 5:
            if args.list:
                print(f"  board {board.board_id} ({change}, {surface}): not found")
            continue
        kingdom = found[0].kingdom
        turns = [kingdom]
        for _ in range(3):
            turns.append(turns[-1].rotated())
        right, best = max((squares_right(truth, k), i) for i, k in enumerate(turns))
        for p in truth.positions():
            marks.add(truth[p], turns[best][p])
        exact = kingdom_points(kingdom) == kingdom_points(truth)
        for counter in (t, kind):
            counter["found"] += 1
            counter["squares"] += right
            counter["exact"] += exact
            counter["wrong"] += not exact
            counter["wrong_marked"] += (not exact) and bool(kingdom.uncertain())
        if args.list and not exact:
            print(f"  board {board.board_id} ({change}, {surface}): squares {right}/25, "
                  f"score {kingdom_points(kingdom)} vs {kingdom_points(truth)}, {len(kingdom.uncertain())} '?'")
    total: collections.Counter = collections.Counter()
    print(f"tight crops with empty border squares or blur (seed {args.seed}, every {args.every}):")
    for change, t in sorted(tally.items()):
        if change in CHANGES:
            total.update(t)
        print(f"  {change:8} crops {t['crops']:3}  found {t['found']:3}  squares {t['squares']}/{25 * t['crops']}"
              f"  exact {t['exact']}  wrong with '?' {t['wrong_marked']}/{t['wrong']}")
    n = total["crops"]
    print(f"all: found {total['found']}/{n} = {total['found'] / n:.1%}, squares right {total['squares']}/{25 * n}"
          f" = {total['squares'] / (25 * n):.1%}, exact {total['exact']}/{n} = {total['exact'] / n:.1%},"
          f" wrong with '?' {total['wrong_marked']}/{total['wrong']}")
    print(f"found crops' {marks.line()}")
    print(f"time per crop: median {np.median(seconds):.3f} s, max {max(seconds):.3f} s")


if __name__ == "__main__":
    main()
