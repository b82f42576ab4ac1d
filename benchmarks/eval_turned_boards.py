"""Is square reading blind to the photo's turn? The held-out boards read turned by 0, 90, 180 and 270 degrees.

A player photographs the table from any side, so every kingdom comes at some
quarter turn. Each board of ../shared/data/kingdomino held out of the fit
(kscore.lab.holdout: every 3rd kingdom) is turned, read square by square with
MODELS (a held-out fit, e.g. saved by `eval_loose.py --holdout --save-models
DIR`), and compared with its labels turned alike. Prints per turn: terrain
and crowns right, and the mean probability of the true terrain.

    python benchmarks/eval_turned_boards.py /tmp/holdout/recognition.npz
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

PROJECT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PROJECT))

from kscore.lab.dataset import load_boards  # noqa: E402
from kscore.lab.holdout import held_out_kingdoms  # noqa: E402
from kscore.vision.read.classes import TERRAIN_CLASSES  # noqa: E402
from kscore.vision.read.model import load_models  # noqa: E402
from kscore.vision.read.reader import square_probabilities  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("models", type=Path, help="a held-out fit's recognition.npz")
    ap.add_argument("--data", type=Path, default=PROJECT.parent / "shared" / "data")
    args = ap.parse_args(argv)
    models = load_models(args.models)
    boards = load_boards(args.data / "kingdomino")
    held = held_out_kingdoms([b.group for b in boards])
    boards = [b for b in boards if b.group in held]
    for turn in range(4):
        terrain_right = crowns_right = squares = 0
        true_p = []
        for board in boards:
            image = np.ascontiguousarray(np.rot90(cv2.imread(str(board.image)), turn))
            terrain, crowns = square_probabilities(image, board.kingdom.size, models)
            rows = board.kingdom.rows
            truth_t = np.rot90(np.array([[TERRAIN_CLASSES.index(sq.terrain) for sq in row] for row in rows]), turn)
            truth_c = np.rot90(np.array([[sq.crowns for sq in row] for row in rows]), turn)
            terrain_right += int((terrain.argmax(-1) == truth_t).sum())
            crowns_right += int((crowns.argmax(-1) == truth_c).sum())
            squares += truth_t.size
            true_p.append(float(np.take_along_axis(terrain, truth_t[..., None], -1).mean()))
        print(f"turned {90 * turn:3d} degrees: {len(boards)} boards, terrain right {terrain_right}/{squares}, "
              f"crowns right {crowns_right}/{squares}, mean p(true terrain) {np.mean(true_p):.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
