"""CPU time to read a 500x500 board crop against a 12 MP photo's, the whole frame tried first or last.

The target (issue 16): a 500x500 board crop costs no more than a 12 MP photo.
Each photo is read whole (decode, localise, read squares, decode the tiles)
in one process on one core, both ways side by side: `frame first` (a tight
crop is read as the whole frame before any colour blob is examined, the
default) and `blobs first` (every colour blob examined before the whole-frame
check, as kscore did before). Each way must read every photo identically;
the script says where it does not and exits 1.

    python benchmarks/bench_crops.py [--boards DIR] [--repeat 3]

Times are CPU (time.process_time), the median of --repeat runs per photo,
then the median and max over the crops; the 12 MP photo is made from
../shared/data/photos/blarc_test2.jpg as in bench_photo.py.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one core: before numpy / OpenCV load
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import functools  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402

PROJECT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PROJECT))
sys.path.insert(0, str(PROJECT / "benchmarks"))

import kscore.vision.find.localise as localise_module  # noqa: E402
from bench_photo import make_12mp  # noqa: E402
from kscore.app.pipeline import read_photo  # noqa: E402
from kscore.game.rules import GameRules  # noqa: E402

BOARDS = PROJECT.parent / "shared" / "data" / "kingdomino" / "boards"
FRAME_FIRST = localise_module.localise
BLOBS_FIRST = functools.partial(FRAME_FIRST, frame_first=False)


def read_with(localise, path: Path, rules: GameRules):
    """(CPU seconds, what was read) with `localise` as the pipeline's localiser."""
    localise_module.localise = localise  # the pipeline imports it from the module at each call
    try:
        start = time.process_time()
        game = read_photo(path, rules)
        return time.process_time() - start, (game.found, game.partial)
    finally:
        localise_module.localise = FRAME_FIRST


def measure(path: Path, rules: GameRules, repeat: int) -> tuple[float, float, bool]:
    """Median CPU seconds blobs first and frame first, runs interleaved, and whether both read the same."""
    old, new, same = [], [], True
    for _ in range(repeat):
        t_old, read_old = read_with(BLOBS_FIRST, path, rules)
        t_new, read_new = read_with(FRAME_FIRST, path, rules)
        old.append(t_old)
        new.append(t_new)
        same &= read_old == read_new
    return statistics.median(old), statistics.median(new), same


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--boards", type=Path, default=BOARDS, help="folder of board crops (*.jpg)")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    crops = sorted(args.boards.glob("*.jpg"), key=lambda p: (len(p.stem), p.stem))
    if not crops:
        print(f"no *.jpg in {args.boards}", file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    rules = GameRules()
    read_photo(crops[0], rules)  # warm-up: models and OpenCV's tables load once, as in a run over many photos
    differ = []
    old, new = [], []
    for path in crops:
        t_old, t_new, same = measure(path, rules, args.repeat)
        old.append(t_old)
        new.append(t_new)
        if not same:
            differ.append(path.name)
    with tempfile.TemporaryDirectory() as tmp:
        photo = make_12mp(Path(tmp))
        p_old, p_new, p_same = measure(photo, rules, args.repeat)
    if not p_same:
        differ.append(photo.name)
    shape = cv2.imread(str(crops[0])).shape
    print(f"{len(crops)} crops of {args.boards} (first {shape[1]}x{shape[0]}) and a 12 MP photo; "
          f"CPU seconds, 1 core, median of {args.repeat} per photo")
    print(f"{'':24}{'blobs first':>14}{'frame first':>14}")
    print(f"{'crop median':24}{statistics.median(old):14.3f}{statistics.median(new):14.3f}")
    print(f"{'crop mean':24}{statistics.mean(old):14.3f}{statistics.mean(new):14.3f}")
    print(f"{'crop max':24}{max(old):14.3f}{max(new):14.3f}")
    print(f"{'12 MP photo':24}{p_old:14.3f}{p_new:14.3f}")
    print(f"crops over the 12 MP photo's time: {sum(t > p_old for t in old)} blobs first, "
          f"{sum(t > p_new for t in new)} frame first")
    if differ:
        print(f"read differently: {', '.join(differ)}")
        return 1
    print(f"read identically both ways: {len(crops) + 1} of {len(crops) + 1}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
