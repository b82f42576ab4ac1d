"""Measure photos of two kingdoms laid by hand side by side on one table (kscore.lab.loose_scenes, paired).

A photo of the table at the end of a game shows every player's kingdom. Each
scene here is two of eval_loose's kingdoms laid on the two halves of one
table (one surface drawn once), at one square size, left and right or one
above the other, the halves joined by cross-fading 60 px where they overlap:
each half's light (lamp, cast, glare, blur, JPEG) is its own, softened there.
The second kingdom has no strays beside it (one draft line per table). Prints kingdoms found (as eval_loose counts them: a kingdom reported
whose squares match a truth's extent up to rotation and translation, at least
half of them right), exact scores, scenes with both found and both exact, kingdoms
said to be cut by the photo's edge (none is), false finds and time per scene.

    python benchmarks/eval_two_loose.py --scenes 40 --seed 1
    python benchmarks/eval_two_loose.py --scenes 40 --seed 2 --holdout --models /tmp/holdout/recognition.npz
    python benchmarks/eval_two_loose.py --scenes 40 --one-game   # two kingdoms of one game (as many dominoes)

--holdout and --models as in eval_loose.py (the issue's measure is held out).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

PROJECT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PROJECT))

from kscore.app.pipeline import read_loaded_photo  # noqa: E402
from kscore.errors import NothingRecognisedError  # noqa: E402
from kscore.game.kingdom import Terrain  # noqa: E402
from kscore.lab.dataset import LabelledExtent  # noqa: E402
from kscore.lab.evaluate_photos import extent_squares_right  # noqa: E402
from kscore.lab.holdout import PHONE_PER_CLASS, scene_bank  # noqa: E402
from kscore.lab.loose_scenes import SURFACES, draw_surface, make_loose_scene  # noqa: E402
from kscore.lab.measures import kingdom_points  # noqa: E402
from kscore.vision.load import Photo  # noqa: E402

#: Width of the band where the two halves overlap, cross-faded (px): their light differs, no hard seam shows it.
SEAM = 60
#: Each kingdom's frame (w, h) and the largest square (px): a 7x7 kingdom and its draft line fit either way.
FRAME = (1400, 1200)


def joined(a: np.ndarray, b: np.ndarray, across: bool) -> np.ndarray:
    """a then b, left to right (across) or top to bottom, overlapping by SEAM px cross-faded."""
    if not across:
        return joined(a.transpose(1, 0, 2), b.transpose(1, 0, 2), True).transpose(1, 0, 2)
    fade = np.linspace(1.0, 0.0, SEAM, dtype=np.float32)[None, :, None]
    seam = a[:, -SEAM:] * fade + b[:, :SEAM] * (1 - fade)
    return np.hstack([a[:, :-SEAM], seam.astype(a.dtype), b[:, SEAM:]])


def same_game(scene) -> dict:
    """make_loose_scene's options for another player's kingdom of the scene's game: each round every player lays a
    domino, so its frame and as many dominoes beside its castle, or one fewer (one it could not place)."""
    dominoes = (sum(sq.terrain is not Terrain.EMPTY for row in scene.rows for sq in row) - 1) // 2
    return {"size": scene.size, "dominoes": (max(1, dominoes - 1), dominoes)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=PROJECT.parent / "shared" / "data")
    ap.add_argument("--scenes", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--holdout", action="store_true", help="recogniser fitted without every 3rd kingdom; "
                    "scenes are built from those only")
    ap.add_argument("--models", type=Path, help="read with this model file (with --holdout: a saved holdout fit)")
    ap.add_argument("--one-game", action="store_true",
                    help="the second kingdom of the first's game: its frame and as many dominoes, or one fewer (a "
                         "discard); by default any two kingdoms, the scenes every seed drew before this option")
    ap.add_argument("--list", action="store_true", help="one line per scene not read whole and exact")
    ap.add_argument("--save", type=Path, help="write those scenes here as JPEGs")
    args = ap.parse_args(argv)
    models, bank = scene_bank(args.data, args.holdout, args.models, None, PHONE_PER_CLASS)
    rng = np.random.default_rng(args.seed)
    n = found = exact = both_found = both_exact = said_cut = false_finds = 0
    times = []
    for s in range(args.scenes):
        surface = SURFACES[int(rng.integers(0, len(SURFACES)))]
        square = float(rng.uniform(0.6, 0.9)) * min(FRAME[0] / 12, FRAME[1] / 10)
        across = bool(rng.random() < 0.5)
        w, h = FRAME
        table = draw_surface(surface, rng, h, 2 * w - SEAM) if across else draw_surface(surface, rng, 2 * h - SEAM, w)
        halves = (table[:, :w], table[:, w - SEAM:]) if across else (table[:h], table[h - SEAM:])
        first = make_loose_scene(bank, rng, surface=surface, frame=FRAME, square=square, table=halves[0])
        second = make_loose_scene(bank, rng, surface=surface, frame=FRAME, square=square, table=halves[1], strays=0,
                                  **(same_game(first) if args.one_game else {}))
        image = joined(first.image, second.image, across)
        photo = Photo(Path(f"two{s}.jpg"), image, (image.shape[1], image.shape[0]))
        start = time.perf_counter()
        try:
            game = read_loaded_photo(photo, models=models)
            read, cut = list(game.found), len(game.partial)
        except NothingRecognisedError:
            read, cut = [], 0
        times.append(time.perf_counter() - start)
        matched, outcome, right = set(), [], 0
        for scene in (first, second):
            truth = LabelledExtent(scene.rows, scene.score)
            best = max(((extent_squares_right(truth, k.kingdom), i) for i, k in enumerate(read) if i not in matched),
                       default=None)
            if best is None or best[0] < truth.squares / 2:
                outcome.append(f"truth {scene.score}, not found")
                continue
            matched.add(best[1])
            points = kingdom_points(read[best[1]].kingdom)
            right += points == scene.score
            outcome.append(f"truth {scene.score}, score {points}" + ("" if points == scene.score else " (wrong)"))
        n += 2
        found += len(matched)
        exact += right
        both_found += len(matched) == 2
        both_exact += right == 2
        said_cut += cut
        false_finds += len(read) - len(matched)
        if args.save and (right < 2 or cut or len(read) > 2):
            import cv2

            args.save.mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(args.save / f"two{s}_{surface}.jpg"), image)
        if args.list and (right < 2 or cut or len(read) > 2):
            print(f"  scene {s} ({surface}, {'side by side' if across else 'one above the other'}, square {square:.0f}):"
                  f" {'; '.join(outcome)}; {len(read) - len(matched)} false find(s), {cut} said cut")
    print(f"two-kingdom scenes: {args.scenes} (seed {args.seed}{', held-out kingdoms' if args.holdout else ''})")
    print(f"kingdoms found:        {found}/{n} = {found / n:.1%}")
    print(f"exact scores:          {exact}/{n} = {exact / n:.1%}")
    print(f"scenes both found:     {both_found}/{args.scenes}; both exact {both_exact}/{args.scenes}")
    print(f"kingdoms said cut:     {said_cut} (no kingdom is cut)")
    print(f"false finds:           {false_finds} in {args.scenes} scenes")
    print(f"time per scene:        mean {np.mean(times):.2f} s, max {np.max(times):.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
