"""Time read_board on every labelled 500x500 board, one core: median and p90 in ms.

Times the whole reading (square features, crown search, classifiers and the
tile-set decoder), image already decoded. Target (issue 3): median < 30 ms.

    python benchmarks/bench_board.py [--data ../shared/data/kingdomino] [--repeats 3] [--no-tileset]
"""

from __future__ import annotations

import os

# One core, as the target says: set before numpy/OpenCV load their thread pools.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kscore.lab.dataset import load_boards  # noqa: E402
from kscore.vision.read.reader import default_models, read_board, square_probabilities  # noqa: E402
from kscore.game.tileset import KINGDOMINO  # noqa: E402


def main() -> None:
    default = Path(__file__).resolve().parents[2] / "shared" / "data" / "kingdomino"
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=default)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-tileset", action="store_true")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    tileset = None if args.no_tileset else KINGDOMINO
    boards = load_boards(args.data)
    images = [cv2.imread(str(b.image)) for b in boards]
    models = default_models()
    read_board(images[0], tileset=tileset, models=models)  # warm-up (first-call costs)
    whole, squares = [], []
    for _ in range(args.repeats):
        for board, image in zip(boards, images):
            start = time.perf_counter()
            square_probabilities(image, board.kingdom.size, models)
            mid = time.perf_counter()
            read_board(image, board.kingdom.size, tileset, board.board_id, models)
            end = time.perf_counter()
            squares.append(mid - start)
            whole.append(end - mid)
    whole_ms, squares_ms = np.array(whole) * 1000, np.array(squares) * 1000
    print(f"{len(boards)} boards x {args.repeats}, one core, tileset={'none' if tileset is None else tileset.name}")
    print(f"read_board:           median {np.median(whole_ms):6.1f} ms   p90 {np.percentile(whole_ms, 90):6.1f} ms   max {whole_ms.max():6.1f} ms")
    print(f"  squares only:       median {np.median(squares_ms):6.1f} ms   p90 {np.percentile(squares_ms, 90):6.1f} ms")
    print(f"target: median < 30 ms -> {'met' if np.median(whole_ms) < 30 else 'NOT met'}")


if __name__ == "__main__":
    main()
