"""Squares hidden behind a standing castle: what marking them as unseen buys and costs.

The scenes of eval_synthetic.py give each kingdom its own camera, so a photo has
no single principal point and the camera cannot be recovered from it. Here each
scene is one kingdom under a true camera (principal point at the photo's centre,
tilt 15-50 degrees, distance 1.3-2.5 board sides), its castle standing in one
run and lying flat in the other. Boards are read at their true corners, with
and without kscore.vision.find.occlusion, by a recogniser trained without them
(every 3rd kingdom held out, as in eval_synthetic --score).

    python benchmarks/eval_castle.py --boards 60
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

import cv2
import numpy as np

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))
sys.path.insert(0, str(PROJECT / "benchmarks"))

from eval_synthetic import board_sources  # noqa: E402
from kscore.lab.dataset import load_boards  # noqa: E402
from kscore.vision.load import Photo  # noqa: E402
from kscore.lab.synth import Camera, background, paste_board  # noqa: E402
from kscore.app.pipeline import read_board_in_photo  # noqa: E402
from kscore.lab.measures import kingdom_points  # noqa: E402
from kscore.lab.train import fit_models, load_board_samples  # noqa: E402
from kscore.game.tileset import KINGDOMINO  # noqa: E402

WIDTH, HEIGHT = 1600, 1200


def true_camera(rng: np.random.Generator) -> Camera:
    """A camera over the photo's centre that sees the board there, tilted 15-50 degrees."""
    yaw, tilt, towards = rng.uniform(0, 2 * np.pi), np.deg2rad(rng.uniform(15, 50)), rng.uniform(0, 2 * np.pi)
    turn = np.array([[np.cos(yaw), -np.sin(yaw), 0], [np.sin(yaw), np.cos(yaw), 0], [0, 0, 1]])
    lean, _ = cv2.Rodrigues(np.array([np.cos(towards), np.sin(towards), 0.0]) * tilt)
    distance = rng.uniform(1.3, 2.5)
    unit = Camera(lean @ turn, distance, np.zeros(2), 1.0, np.zeros(2)).quad()
    (ax, ay), (bx, by) = unit[1] - unit[0], unit[3] - unit[0]
    area = abs(ax * by - ay * bx)
    side = rng.uniform(0.35, 0.6) * min(WIDTH, HEIGHT)
    return Camera(lean @ turn, distance, np.zeros(2), side / np.sqrt(area), np.array([WIDTH / 2, HEIGHT / 2]))


def scene(rng: np.random.Generator, sources, standing: bool):
    image = background(str(rng.choice(["wood", "cloth", "table", "carpet"])), rng, HEIGHT, WIDTH)
    camera = true_camera(rng)
    truth = paste_board(image, sources[int(rng.integers(len(sources)))], camera.quad(), rng,
                        camera if standing else None)
    image = cv2.GaussianBlur(image, (0, 0), rng.uniform(0.3, 1.2))
    image = np.clip(image + rng.normal(0, 3, image.shape), 0, 255).astype(np.uint8)
    return Photo(Path("scene.jpg"), image, (WIDTH, HEIGHT)), truth


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=PROJECT.parent / "shared" / "data" / "kingdomino")
    ap.add_argument("--boards", type=int, default=60, help="scenes per castle pose")
    ap.add_argument("--seed", type=int, default=42)
    args = ap.parse_args(argv)
    groups = sorted({b.group for b in load_boards(args.data)})
    held_out = set(groups[::3])
    models = fit_models([s for s in load_board_samples(args.data) if s.group not in held_out])
    sources = board_sources(args.data, held_out)
    print(f"{args.boards} boards per castle pose (seed {args.seed}), held-out kingdoms, true corners")
    for standing in (True, False):
        rng = np.random.default_rng(args.seed + (0 if standing else 1))
        counts: collections.Counter = collections.Counter()
        for _ in range(args.boards):
            photo, truth = scene(rng, sources, standing)
            for occlusion in (False, True):
                kingdom = read_board_in_photo(photo, truth.corners, truth.kingdom.size, KINGDOMINO, "scene", models,
                                              occlusion=occlusion).kingdom
                counts[occlusion, "exact"] += kingdom_points(kingdom) == kingdom_points(truth.kingdom)
                for p in truth.kingdom.positions():
                    wrong = (kingdom[p].terrain, kingdom[p].crowns) != (truth.kingdom[p].terrain, truth.kingdom[p].crowns)
                    counts[occlusion, "wrong"] += wrong
                    counts[occlusion, "unmarked"] += wrong and not kingdom[p].uncertain
                    counts[occlusion, "marked"] += kingdom[p].uncertain
        for occlusion in (False, True):
            print(f"castle {'standing' if standing else 'flat    '}, hidden squares {'unseen' if occlusion else 'as read'}: "
                  f"exact {counts[occlusion, 'exact']}/{args.boards}, wrong squares {counts[occlusion, 'wrong']} "
                  f"({counts[occlusion, 'unmarked']} not marked ?), squares marked ? {counts[occlusion, 'marked']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
