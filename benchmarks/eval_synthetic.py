"""Measure localisation (and, with --score, the whole photo pipeline) on synthetic scenes.

Scenes paste labelled boards of ../shared/data/kingdomino into random tables
(kscore.lab.synth). Prints kingdoms found, corner error relative to the
side, grid size right, false finds and time; with --score also squares right
and exact scores, using only kingdoms held out from the recogniser's training
when it names them (see --holdout).

    python benchmarks/eval_synthetic.py --scenes 60 --seed 1
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import sys
import time
from pathlib import Path

import cv2
import numpy as np

PROJECT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PROJECT))

from kscore.lab.dataset import load_boards  # noqa: E402
from kscore.vision.geometry import corner_error, shortest_side  # noqa: E402
from kscore.vision.load import Photo  # noqa: E402
from kscore.vision.find.localise import localise  # noqa: E402
from kscore.lab.synth import BoardSource, compose_board, make_scene  # noqa: E402

GOOD = 0.02  # the target: mean corner error under 2% of the kingdom's side


def board_sources(folder: Path, kingdoms: set[str] | None = None) -> list[BoardSource]:
    out = []
    for b in load_boards(folder):
        if kingdoms is None or b.group in kingdoms:
            out.append(BoardSource(cv2.imread(str(b.image)), b.kingdom, b.board_id))
    return out


def seven_by_seven(sources: list[BoardSource], rng: np.random.Generator, name: str) -> BoardSource:
    """A 7x7 board of squares drawn from random 5x5 boards (fine for localisation)."""
    squares = []
    for _ in range(49):
        src = sources[int(rng.integers(0, len(sources)))]
        r, c = int(rng.integers(0, 5)), int(rng.integers(0, 5))
        px = src.image.shape[0] // 5
        squares.append((src.image[r * px : (r + 1) * px, c * px : (c + 1) * px], src.kingdom[(r, c)]))
    return compose_board(squares, 7, name)


def match(found, truth_corners):
    """The find nearest the truth: (find, corner error, turn).

    Corners are compared from whichever start fits best (turn = quarter turns
    the find's TL lies clockwise from the truth's): for a board at ~45 degrees
    which corner is "top-left" flips with a pixel, for the truth and the find
    alike (geometry.photo_order), and the score doesn't depend on it.
    """
    if not found:
        return None, float("inf"), 0
    options = [(corner_error(np.roll(np.asarray(f.corners, float), -k, axis=0), truth_corners), k, i)
               for i, f in enumerate(found) for k in range(4)]
    err, turn, i = min(options)
    return found[i], err, turn


def outline(image: np.ndarray, truth_quads, found_quads) -> np.ndarray:
    """The scene with the true outlines in blue and the found ones in red (for --save)."""
    im = image.copy()
    for q in truth_quads:
        cv2.polylines(im, [np.asarray(q).astype(np.int32)], True, (255, 0, 0), 2)
    for q in found_quads:
        cv2.polylines(im, [np.asarray(q).astype(np.int32)], True, (0, 0, 255), 2)
    return im


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=PROJECT.parent / "shared" / "data" / "kingdomino")
    ap.add_argument("--scenes", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seven", type=float, default=0.25, help="share of 7x7 boards")
    ap.add_argument("--save", type=Path, help="write failing scenes here as JPEGs: truth in blue, finds in red")
    ap.add_argument("--list", action="store_true", help="print one line per miss (scene, background, size, error) and"
                    " per false find; with --score, per kingdom not found, >= 2%% off, of the wrong size or scored"
                    " wrong where the true corners score it right")
    ap.add_argument("--score", action="store_true",
                    help="also read and score: trains the recogniser without every 3rd kingdom, scenes show only those")
    ap.add_argument("--diagnose", action="store_true",
                    help="with --score: split true-corner errors into terrain/crowns, count those not marked ?, "
                         "exact score by pixels per square")
    ap.add_argument("--no-light", action="store_true", help="no uneven light, colour cast or cast shadows")
    ap.add_argument("--by-size", action="store_true",
                    help="corner errors per grid size (7x7 boards are composed of exact cells; 5x5 ones are hand-cropped"
                         " photos whose image border is the truth) and misses split by how far off")
    ap.add_argument("--partial", action="store_true",
                    help="boards may run past the photo's edge: are the cut ones reported as partial?")
    args = ap.parse_args(argv)
    if args.score:
        return score_mode(args)
    if args.partial:
        return partial_mode(args)

    sources = board_sources(args.data)
    rng = np.random.default_rng(args.seed)
    n_truth = n_found = n_good = n_size = n_false = n_turned = 0
    errors, times = [], []
    seams_true, seams_false = [], []
    per_truth = []  # (grid size, corner error or inf when not found)
    for s in range(args.scenes):
        count = int(rng.choice([1, 1, 2, 3]))
        boards = []
        for j in range(count):
            if rng.random() < args.seven:
                boards.append(seven_by_seven(sources, rng, f"s{s}-{j}"))
            else:
                boards.append(sources[int(rng.integers(0, len(sources)))])
        scene = make_scene(boards, rng, light=not args.no_light)
        photo = Photo(Path(f"scene{s}.jpg"), scene.image, (scene.image.shape[1], scene.image.shape[0]))
        t = time.perf_counter()
        loc = localise(photo)
        times.append(time.perf_counter() - t)
        used = set()
        bad = False
        for truth in scene.kingdoms:
            n_truth += 1
            best, err, turn = match(loc.boards, truth.corners)
            per_truth.append((truth.kingdom.size, err))
            if args.list and (best is None or err >= GOOD or best.size != truth.kingdom.size):
                print(f"  miss: scene {s} ({scene.background}) {truth.kingdom.size}x{truth.kingdom.size} "
                      f"{truth.name}: " + ("not found" if best is None or err > 0.25 else
                                           f"{err:.2%}, found {best.size}x{best.size}, seams {best.seams:.2f}"))
            if best is None or err > 0.25:
                bad = True
                continue
            n_turned += turn != 0
            used.add(id(best))
            seams_true.append((best.seams, best.contrast))
            n_found += 1
            errors.append(err)
            n_good += err < GOOD
            n_size += best.size == truth.kingdom.size
            bad |= err >= GOOD or best.size != truth.kingdom.size
        n_false += sum(1 for b in loc.boards if id(b) not in used)
        if args.list:
            print_false_finds(s, scene, loc.boards, used)
        seams_false += [(b.seams, b.contrast) for b in loc.boards if id(b) not in used]
        if bad and args.save:
            args.save.mkdir(parents=True, exist_ok=True)
            im = outline(scene.image, [t_.corners for t_ in scene.kingdoms], [b.corners for b in loc.boards])
            cv2.imwrite(str(args.save / f"scene{s}_{scene.background}.jpg"), im)
    e = np.array(errors) if errors else np.array([np.nan])
    print(f"synthetic scenes: {args.scenes} (seed {args.seed}), kingdoms: {n_truth}")
    print(f"found (any overlap):            {n_found}/{n_truth} = {n_found / n_truth:.1%}")
    print(f"found with corner error < {GOOD:.0%}:  {n_good}/{n_truth} = {n_good / n_truth:.1%}  (target >= 99%)")
    print(f"corner error / side: mean {e.mean():.2%}, median {np.median(e):.2%}, 95th pct {np.percentile(e, 95):.2%}")
    print(f"grid size right:                {n_size}/{n_found}")
    print(f"false finds:                    {n_false}")
    if n_turned:
        print(f"  of the finds, {n_turned} name another corner TL than the truth (a board at ~45 degrees: the score is"
              " the same)")
    if seams_true:
        st, ct = np.array(seams_true).T
        print(f"true finds: seam share min {st.min():.2f}, 5th pct {np.percentile(st, 5):.2f}; seam contrast min"
              f" {ct.min():.2f}, 5th pct {np.percentile(ct, 5):.2f}; false finds (share, contrast): "
              f"{', '.join(f'({a:.2f}, {b:.2f})' for a, b in seams_false) or 'none'}")
    print(f"localisation time per scene:    mean {np.mean(times) * 1000:.0f} ms, max {np.max(times) * 1000:.0f} ms")
    if args.by_size:
        print_by_size(per_truth)
    return 0


def print_false_finds(scene_index: int, scene, boards, used: set[int]) -> None:
    """--list: one line per board found that matches no true kingdom."""
    for b in boards:
        if id(b) not in used:
            print(f"  false find: scene {scene_index} ({scene.background}) {b.size}x{b.size}, partial {b.partial}, "
                  f"seams {b.seams:.2f}, contrast {b.contrast:.2f}, centre {b.corners.mean(axis=0).round().tolist()}")


def print_by_size(per_truth: list[tuple[int, float]]) -> None:
    for size in sorted({n for n, _ in per_truth}):
        err = np.array([e for n, e in per_truth if n == size])
        found = err[err <= 0.25]
        stats = (f"median {np.median(found):.2%}, 95th pct {np.percentile(found, 95):.2%}" if len(found) else "")
        print(f"{size}x{size}: {len(err)} kingdoms, {int((err < GOOD).sum())} under {GOOD:.0%}; {stats}; misses: "
              f"{int(((err >= GOOD) & (err < 0.05)).sum())} at 2-5%, {int(((err >= 0.05) & (err <= 0.25)).sum())} over 5%,"
              f" {int((err > 0.25).sum())} not found")


def partial_mode(args) -> int:
    """Scenes whose boards may run past the photo's edge (5x5 only): each cut board must be
    reported as partial (a find centred on it), never scored as whole; whole boards as usual."""
    sources = board_sources(args.data)
    rng = np.random.default_rng(args.seed)
    n_cut = n_reported = n_scored = n_whole = n_good = n_false = 0
    visible_missed = []
    for s in range(args.scenes):
        boards = [sources[int(rng.integers(0, len(sources)))] for _ in range(int(rng.choice([1, 2, 3])))]
        scene = make_scene(boards, rng, allow_partial=True, light=not args.no_light)
        h, w = scene.image.shape[:2]
        loc = localise(Photo(Path(f"scene{s}.jpg"), scene.image, (w, h)))
        used = set()
        for truth in scene.kingdoms:
            poly = truth.corners.astype(np.float32).reshape(-1, 1, 2)
            on_it = [b for b in loc.boards if cv2.pointPolygonTest(
                poly, tuple(float(v) for v in np.clip(b.corners.mean(axis=0), 0, [w, h])), False) >= 0]
            used.update(id(b) for b in on_it)
            if truth.partial:
                n_cut += 1
                n_reported += any(b.partial for b in on_it)
                n_scored += any(not b.partial for b in on_it)
                if args.list and any(not b.partial for b in on_it):
                    print(f"  cut board scored as whole: scene {s} ({scene.background}) {truth.name}, corners "
                          f"{truth.corners.round().tolist()} in {w}x{h}")
                if not on_it:
                    inside = np.zeros((h, w), np.uint8)
                    cv2.fillConvexPoly(inside, truth.corners.astype(np.int32), 1)
                    visible_missed.append(inside.sum() / max(abs(cv2.contourArea(poly)), 1.0))
                    if args.list:
                        print(f"  cut board not found: scene {s} ({scene.background}) {truth.name}, "
                              f"{visible_missed[-1]:.0%} in the photo")
            else:
                n_whole += 1
                n_good += match(loc.boards, truth.corners)[1] < GOOD
        n_false += sum(1 for b in loc.boards if id(b) not in used)
        if args.list:
            print_false_finds(s, scene, loc.boards, used)
    v = np.array(visible_missed)
    print(f"synthetic scenes with boards past the edge: {args.scenes} (seed {args.seed})")
    print(f"cut boards reported as partial:  {n_reported}/{n_cut} = {n_reported / max(n_cut, 1):.1%}")
    print(f"cut boards scored as whole:      {n_scored}")
    print(f"cut boards not found at all:     {len(v)}" + (f" (visible share: median {np.median(v):.0%}, "
          f"{int((v >= 0.5).sum())} of them half or more in the photo)" if len(v) else ""))
    print(f"whole boards, corner error < {GOOD:.0%}: {n_good}/{n_whole}")
    print(f"false finds:                     {n_false}")
    return 0


def score_mode(args) -> int:
    """The whole pipeline on kingdoms the recogniser never saw: found, squares right, exact score."""
    from kscore.errors import NothingRecognisedError
    from kscore.app.pipeline import read_loaded_photo
    from kscore.lab.measures import kingdom_points, squares_right
    from kscore.vision.find.rectify import rectify
    from kscore.vision.read.reader import read_board
    from kscore.lab.train import fit_models, load_board_samples
    from kscore.game.tileset import KINGDOMINO

    boards = load_boards(args.data)
    groups = sorted({b.group for b in boards})
    held_out = set(groups[::3])
    t = time.perf_counter()
    samples = [s for s in load_board_samples(args.data) if s.group not in held_out]
    models = fit_models(samples)
    print(f"trained on {len(groups) - len(held_out)} kingdoms ({time.perf_counter() - t:.0f} s); "
          f"scenes show the {len(held_out)} held out: {', '.join(sorted(held_out))}")
    sources = board_sources(args.data, held_out)
    rng = np.random.default_rng(args.seed)
    n = found = good = exact = right = 0
    truth_exact = truth_squares = 0  # the same boards cut out with the true corners: the recogniser's share
    terrain_wrong = crowns_wrong = 0  # true-corner squares: terrain wrong; terrain right but crowns wrong
    confusions: collections.Counter = collections.Counter()
    unflagged = 0  # true-corner wrong squares not marked '?'
    by_resolution: dict[int, list[int]] = collections.defaultdict(lambda: [0, 0])  # px/square bucket: [boards, exact]
    times = []
    for s in range(args.scenes):
        picks = rng.choice(len(sources), size=int(rng.choice([1, 1, 2, 3])), replace=False)
        scene = make_scene([sources[i] for i in picks], rng, light=not args.no_light)
        photo = Photo(Path(f"scene{s}.jpg"), scene.image, (scene.image.shape[1], scene.image.shape[0]))
        start = time.perf_counter()
        try:
            game = read_loaded_photo(photo, models=models)
            read = [_Find(np.array(k.corners), k.kingdom) for k in game.found]
        except NothingRecognisedError:
            game, read = None, []
        times.append(time.perf_counter() - start)
        bad = False
        for truth in scene.kingdoms:
            n += 1
            ideal = read_board(rectify(photo, truth.corners, truth.kingdom.size), truth.kingdom.size, KINGDOMINO,
                               "ideal", models=models).kingdom
            truth_squares += squares_right(truth.kingdom, ideal)
            truth_exact += kingdom_points(ideal) == kingdom_points(truth.kingdom)
            bucket = by_resolution[_resolution_bucket(truth)]
            bucket[0] += 1
            bucket[1] += kingdom_points(ideal) == kingdom_points(truth.kingdom)
            for p in truth.kingdom.positions():
                a, b = ideal[p], truth.kingdom[p]
                unflagged += (a.terrain, a.crowns) != (b.terrain, b.crowns) and not a.uncertain
                if a.terrain != b.terrain:
                    terrain_wrong += 1
                    confusions[f"{b.terrain.value}->{a.terrain.value}"] += 1
                elif a.crowns != b.crowns:
                    crowns_wrong += 1
                    confusions[f"{b.crowns}->{a.crowns} crowns"] += 1
            best, err, turn = match(read, truth.corners)
            ideal_exact = kingdom_points(ideal) == kingdom_points(truth.kingdom)
            if best is None or err > 0.25:
                bad = True
                if args.list:
                    print(f"  miss: scene {s} ({scene.background}) {truth.name}: not found"
                          + (f" ({len(game.partial)} found partial)" if game is not None and game.partial else ""))
                continue
            found += 1
            good += err < GOOD
            kingdom = best.kingdom
            truth_kingdom = truth.kingdom
            for _ in range((4 - turn) % 4):  # read from the find's TL: turn the truth the same way
                truth_kingdom = truth_kingdom.rotated()
            same = kingdom.size == truth.kingdom.size and kingdom_points(kingdom) == kingdom_points(truth.kingdom)
            if err >= GOOD or kingdom.size != truth.kingdom.size or (ideal_exact and not same):
                bad = True
                if args.list:
                    print(f"  miss: scene {s} ({scene.background}) {truth.name}: corners {err:.2%}, found "
                          f"{kingdom.size}x{kingdom.size}, score {'right' if same else 'wrong'} (true corners: "
                          f"{'right' if ideal_exact else 'wrong'})")
            if kingdom.size != truth.kingdom.size:
                continue
            right += squares_right(truth_kingdom, kingdom)
            exact += same
        if bad and args.save:
            args.save.mkdir(parents=True, exist_ok=True)
            found_quads = [f.corners for f in read] + ([np.array(p.corners) for p in game.partial] if game else [])
            im = outline(scene.image, [t_.corners for t_ in scene.kingdoms], found_quads)
            cv2.imwrite(str(args.save / f"scene{s}_{scene.background}.jpg"), im)
    print(f"synthetic scenes: {args.scenes} (seed {args.seed}), held-out kingdoms shown: {n}")
    print(f"found:                           {found}/{n} = {found / n:.1%}")
    print(f"found with corner error < {GOOD:.0%}:   {good}/{n} = {good / n:.1%}  (target >= 99%)")
    print(f"squares right:                   {right}/{25 * n} = {right / (25 * n):.1%}")
    print(f"exact score:                     {exact}/{n} = {exact / n:.1%}  (target >= 85%)")
    print(f"time per scene (whole pipeline): mean {np.mean(times) * 1000:.0f} ms")
    print(f"same boards cut with the TRUE corners: squares right {truth_squares / (25 * n):.1%}, "
          f"exact score {truth_exact}/{n} = {truth_exact / n:.1%}  (what a perfect localiser would give)")
    if args.diagnose:
        print(f"  true corners, wrong squares: terrain {terrain_wrong}, crowns only {crowns_wrong}; most common: "
              + ", ".join(f"{k} x{v}" for k, v in confusions.most_common(8)))
        print(f"  true corners, wrong squares not marked '?': {unflagged}")
        print("  true corners, exact score by pixels per square (the kingdom's shortest side / squares): "
              + ", ".join(f"{lo}-{lo + RESOLUTION_STEP}: {e}/{k}" if lo < RESOLUTION_TOP else f">={lo}: {e}/{k}"
                          for lo, (k, e) in sorted(by_resolution.items())))
    return 0


@dataclasses.dataclass(frozen=True)
class _Find:
    corners: np.ndarray
    kingdom: object


#: --diagnose buckets of pixels per square, in steps of RESOLUTION_STEP up to RESOLUTION_TOP.
RESOLUTION_STEP, RESOLUTION_TOP = 20, 100


def _resolution_bucket(truth) -> int:
    """Lower bound of the pixels-per-square bucket of a true kingdom (its shortest side in the scene / its squares)."""
    return min(int(shortest_side(truth.corners) / truth.kingdom.size) // RESOLUTION_STEP * RESOLUTION_STEP, RESOLUTION_TOP)


if __name__ == "__main__":
    raise SystemExit(main())
