"""Recognition on a camera never seen: leave one source out, next to pooled grouped CV.

Three labelled sources, each its own camera, box and light:
  boards  ../shared/data/kingdomino   54 top-down 500x500 boards of 27 kingdoms (AAU)
  phone   ../shared/data/tiles-phone  single squares cut from phone photos (another box, warm light)
  photos  ../shared/data/photos       3 table photos, cut at their labelled corners

Leave one source out: models are fitted (`train.fit_models`, as `kscore train`
does) on the other two sources and read the one left out: how the reader
carries to a camera no training data shows. Pooled: grouped K-fold over all
three at once (folds by kingdom for the boards, by photo for the phone squares
and the table photos, each source spread over every fold), so no kingdom or
photo is ever read by a model that trained on it. Pooled minus left-out is what
an unseen camera costs.

Figures are per square, without the tile-set decoder (phone squares have no
board to decode): terrain right; terrain with the castle never chosen (the
decoder allows one castle per kingdom; non-castle squares); crowns right
(non-castle squares); both right (terrain, and crowns off the castle). "worst"
is the lowest held-out `both` (`terrain` with --terrain-only): the figure a
change must raise, without lowering the pooled ones.

Every board trains in both framings (`train.board_samples`) and is read once,
as labelled; a table photo's kingdom trains as a board does (its relit,
softened and crown copies). `--phone-per-class N` keeps the first N phone squares of each label
folder (for training and reading): the default 60 (1,020 squares) and six fits
took 31 minutes on a busy shared core, most of it the crown models;
`--terrain-only` fits terrain alone (the same terrain network fit_models makes,
so its terrain figures are the full run's) in about 4 minutes. `--by-class` adds,
for each source left out, its terrain right per true class and its commonest
confusions (which prints another camera reads as what).
`--phone-per-class 0` takes all 5,655 squares (much slower). `--quick`, for
iterating on terrain: terrain alone, 20 phone squares per label, left out only
(no pooled CV); its figures are not the full run's, compare quick with quick.

    python benchmarks/eval_leave_one_source_out.py [--terrain-only] [--phone-per-class 60] [--folds 3]
    python benchmarks/eval_leave_one_source_out.py --quick
    python benchmarks/eval_leave_one_source_out.py --terrain-only --phone-per-class 20 --by-class
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kscore.lab.dataset import LabelledBoard, load_boards, load_photo_items  # noqa: E402
from kscore.lab.train import (  # noqa: E402
    DEFAULT_BOARDS,
    DEFAULT_PHONE,
    Sample,
    board_sample,
    board_samples,
    fit_models,
    fit_terrain,
    load_phone_samples,
    single_threaded,
)
from kscore.vision.find.rectify import rectify  # noqa: E402
from kscore.vision.load import load_photo  # noqa: E402
from kscore.vision.read.classes import CASTLE, CROWN_CLASSES, TERRAIN_CLASSES  # noqa: E402
from kscore.vision.read.counting import square_summaries  # noqa: E402
from kscore.vision.read.crowns import crown_probability, find_candidates  # noqa: E402
from kscore.vision.read.features import FEATURE_VERSION  # noqa: E402

DEFAULT_PHOTOS = DEFAULT_BOARDS.parent / "photos"
SOURCES = ("boards", "phone", "photos")


@dataclass
class Source:
    """One source's samples: `train` (what a model fitted on it sees) and `test` (what is read)."""

    name: str
    train: list[Sample]
    test: list[Sample]


def load_board_source(folder: Path) -> Source:
    train, test = [], []
    for board in load_boards(folder):
        image = cv2.imread(str(board.image))
        train += board_samples(image, board)  # both framings, as kscore train
        test.append(board_sample(image, board))  # read once, as labelled
    return Source("boards", train, test)


def load_photo_source(folder: Path) -> Source:
    """Each labelled kingdom cut at its labelled corners, as a whole board (its group: the photo)."""
    samples = []
    for path, kingdoms in load_photo_items(folder).items():
        photo = load_photo(path, reduction=1)
        for k in kingdoms:
            image = rectify(photo, k.corners, k.size)
            samples.append(board_sample(image, LabelledBoard(path.name, path, path.name, k.kingdom)))
    return Source("photos", samples, samples)


def fit(samples: list[Sample], terrain_only: bool):
    """Every model as `kscore train` fits them, or (terrain_only) the terrain network alone."""
    return fit_terrain(samples) if terrain_only else fit_models(samples)


def read_squares(models, samples: list[Sample]) -> tuple[np.ndarray, ...]:
    """Per square: true terrain, terrain read, terrain read with the castle never chosen, true crowns, crowns read.

    `models` a terrain Network alone: crowns read are -1 (not read).
    """
    truth_t, read_t, read_nc, truth_c, read_c = [], [], [], [], []
    terrain = getattr(models, "terrain", models)
    for s in samples:
        probs = terrain.predict_full(s.terrain_x, len(TERRAIN_CLASSES))
        read_t.append(probs.argmax(axis=1))
        probs[:, CASTLE] = -1.0
        read_nc.append(probs.argmax(axis=1))
        truth_t.append(s.terrain_y)
        truth_c.append(s.crowns_y)
        if terrain is models:
            read_c.append(np.full(s.size * s.size, -1))
            continue
        cands = find_candidates(s.prepared, models.crown_template, s.size)
        crowns = models.count.predict_full(square_summaries(cands, crown_probability(models.candidate, cands), s.size),
                                           len(CROWN_CLASSES))
        read_c.append(crowns.argmax(axis=1))
    cat = np.concatenate
    return cat(truth_t), cat(read_t), cat(read_nc), cat(truth_c), cat(read_c)


def figures(read: tuple[np.ndarray, ...]) -> dict[str, float]:
    truth_t, read_t, read_nc, truth_c, read_c = read
    off_castle = truth_t != CASTLE
    crowns_ok = read_c == truth_c
    unread = float("nan") if (read_c < 0).all() else None  # terrain alone was fitted
    return {
        "squares": len(truth_t),
        "terrain": float(np.mean(read_t == truth_t)),
        "no castle": float(np.mean(read_nc[off_castle] == truth_t[off_castle])),
        "crowns": unread if unread is not None else float(np.mean(crowns_ok[off_castle])),
        "both": unread if unread is not None else float(np.mean((read_t == truth_t) & (crowns_ok | ~off_castle))),
    }


def by_class(read: tuple[np.ndarray, ...], confusions: int = 6) -> list[str]:
    """Terrain right per true class, and the commonest confusions (true -> read, squares), as lines.

    >>> truth, read = np.array([0, 0, 1, 1, 1]), np.array([0, 1, 1, 1, 0])
    >>> by_class((truth, read))[0].split(", ")[:2]
    ['wheat 1/2', 'grassland 2/3']
    """
    truth_t, read_t = read[0], read[1]
    names = [t.name.lower() for t in TERRAIN_CLASSES]
    right = [f"{names[c]} {int(np.sum((truth_t == c) & (read_t == c)))}/{int(np.sum(truth_t == c))}"
             for c in range(len(names)) if np.any(truth_t == c)]
    wrong = truth_t != read_t
    pairs, counts = np.unique(np.stack([truth_t[wrong], read_t[wrong]], axis=1), axis=0, return_counts=True)
    top = [f"{names[a]} -> {names[b]} {n}" for (a, b), n in sorted(zip(pairs.tolist(), counts), key=lambda x: -x[1])]
    return [", ".join(right), "confused: " + (", ".join(top[:confusions]) or "none")]


def join(parts: list[tuple[np.ndarray, ...]]) -> tuple[np.ndarray, ...]:
    return tuple(np.concatenate(col) for col in zip(*parts))


def fold_of_group(source: Source, folds: int) -> dict[str, int]:
    groups = sorted({s.group for s in source.train + source.test})
    return {g: i % folds for i, g in enumerate(groups)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=Path, default=DEFAULT_BOARDS)
    parser.add_argument("--phone", type=Path, default=DEFAULT_PHONE)
    parser.add_argument("--photos", type=Path, default=DEFAULT_PHOTOS)
    parser.add_argument("--phone-per-class", type=int, default=60, help="phone squares per label folder (0: all)")
    parser.add_argument("--folds", type=int, default=3, help="folds of the pooled grouped CV")
    parser.add_argument("--no-pooled", action="store_true", help="leave-one-source-out only")
    parser.add_argument("--terrain-only", action="store_true",
                        help="fit and read terrain alone (minutes less; crowns and both show nan)")
    parser.add_argument("--by-class", action="store_true",
                        help="each source left out: terrain right per true class and the commonest confusions")
    parser.add_argument("--quick", action="store_true",
                        help="terrain only, 20 phone squares per label, no pooled CV (for iterating)")
    args = parser.parse_args()
    if args.quick:
        args.terrain_only, args.no_pooled = True, True
        args.phone_per_class = min(args.phone_per_class or 20, 20)
    for folder in (args.boards, args.phone, args.photos):
        if not folder.is_dir():
            print(f"no such folder: {folder}", file=sys.stderr)
            return 2
    start = time.perf_counter()
    per_class = args.phone_per_class or None
    with single_threaded():
        phone = load_phone_samples(args.phone, per_class)
        sources = {
            "boards": load_board_source(args.boards),
            "phone": Source("phone", phone, phone),
            "photos": load_photo_source(args.photos),
        }
        print(f"feature version {FEATURE_VERSION}; squares read: "
              + ", ".join(f"{n} {sum(s.size ** 2 for s in src.test)}" for n, src in sources.items())
              + f" (phone: {'all' if per_class is None else f'first {per_class} per label'}); "
              f"loaded in {time.perf_counter() - start:.0f} s", flush=True)

        held_out, held_reads = {}, {}
        for name in SOURCES:
            t0 = time.perf_counter()
            models = fit([s for other in SOURCES if other != name for s in sources[other].train], args.terrain_only)
            held_reads[name] = read_squares(models, sources[name].test)
            held_out[name] = figures(held_reads[name])
            print(f"  left out {name}: fitted and read in {time.perf_counter() - t0:.0f} s", flush=True)

        pooled = {}
        if not args.no_pooled:
            folds = {n: fold_of_group(src, args.folds) for n, src in sources.items()}
            parts: dict[str, list] = {n: [] for n in SOURCES}
            for f in range(args.folds):
                t0 = time.perf_counter()
                train = [s for n, src in sources.items() for s in src.train if folds[n][s.group] != f]
                models = fit(train, args.terrain_only)
                for n, src in sources.items():
                    test = [s for s in src.test if folds[n][s.group] == f]
                    if test:
                        parts[n].append(read_squares(models, test))
                print(f"  pooled fold {f + 1}/{args.folds}: fitted and read in {time.perf_counter() - t0:.0f} s",
                      flush=True)
            pooled = {n: figures(join(parts[n])) for n in SOURCES}

    columns = ("terrain", "no castle", "crowns", "both")

    def cells(row: dict[str, float]) -> str:
        return "".join(f"{row[c]:>10.1%}" for c in columns)

    print()
    print(f"{'':<16}{'left out (trained on the other two)':<40}" + ("pooled grouped CV" if pooled else ""))
    print(f"{'read':<8}{'squares':>8}" + "".join(f"{c:>10}" for c in columns) * (2 if pooled else 1))
    for name in SOURCES:
        h = held_out[name]
        print(f"{name:<8}{h['squares']:>8}" + cells(h) + (cells(pooled[name]) if pooled else ""))
    if args.by_class:
        for name in SOURCES:
            print(f"{name} left out, terrain by true class: " + "\n    ".join(by_class(held_reads[name])))
    key = "terrain" if args.terrain_only else "both"
    worst = min(SOURCES, key=lambda n: held_out[n][key])
    print(f"worst left out: {worst}, {key} right {held_out[worst][key]:.1%}"
          + (f" (pooled {pooled[worst][key]:.1%})" if pooled else ""))
    print(f"total {time.perf_counter() - start:.0f} s, one thread")
    return 0


if __name__ == "__main__":
    sys.exit(main())
