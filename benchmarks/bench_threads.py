"""Is one process's use of a second core real work or thread overhead? The same photos read in
one process under four settings: OpenCV's threads (its default, or 1) x OpenBLAS's threads (its
default, or 1, set as kscore's console script sets it: OPENBLAS_NUM_THREADS before numpy loads).
Each setting is a fresh process; settings alternate round by round. CPU seconds (all threads)
and wall seconds per photo, medians over rounds and repeats.

    python benchmarks/bench_threads.py [--rounds 2] [--repeat 2]

The photos span the sizes a folder holds: a 500x500 board crop, the 2 MP sample, a 3 MP phone
photo of loose tiles, a 9 MP and a 16 MP photo (../shared/data; skipped when absent).
If a second thread pays, wall drops below CPU; if it only spins, CPU rises and wall does not drop.
On a machine where other processes hold the cores, wall says little: compare the CPU.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]
SHARED = PROJECT.parent / "shared" / "data"
PHOTOS = [PROJECT / "tests" / "data" / "photo" / "board1.jpg", PROJECT / "sample_images" / "table_5x5.jpg",
          SHARED / "photos-loose" / "carpet_step3.jpg", SHARED / "photos" / "tpacko_game1.jpg",
          SHARED / "photos" / "blarc_test2.jpg"]
MEGAPIXELS = {"board1.jpg": 0.25, "table_5x5.jpg": 1.9, "carpet_step3.jpg": 3.0, "tpacko_game1.jpg": 9.0,
              "blarc_test2.jpg": 15.9}


def child(cv_threads: int, repeat: int, photos: list[str]) -> None:
    """In a fresh process: each photo read `repeat` times after one warm-up read; prints JSON."""
    import cv2

    sys.path.insert(0, str(PROJECT))
    from kscore.app.inputs import load_game
    from kscore.game.rules import GameRules

    if cv_threads:
        cv2.setNumThreads(cv_threads)
    rules = GameRules()
    load_game(Path(photos[0]), rules)  # imports, models, OpenCV's tables: not part of any photo's figure
    out = {}
    for photo in photos:
        for _ in range(repeat):
            cpu, wall = time.process_time(), time.perf_counter()
            load_game(Path(photo), rules)
            out.setdefault(Path(photo).name, []).append((time.process_time() - cpu, time.perf_counter() - wall))
    print(json.dumps(out))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--child", nargs=2, type=int, help=argparse.SUPPRESS)  # CV_THREADS REPEAT
    parser.add_argument("photos", nargs="*", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args.child[0], args.child[1], args.photos)
    settings = [(cv, blas) for cv in (0, 1) for blas in (None, "1")]  # cv 0: OpenCV's default
    label = {s: f"cv {'default' if not s[0] else 1}, blas {s[1] or 'default'}" for s in settings}
    times: dict[tuple, list] = {}
    with tempfile.TemporaryDirectory() as tmp:  # kscore writes nothing when reading, but never read shared files in place
        photos = []
        for source in PHOTOS:
            if source.exists():
                photos.append(str(Path(tmp) / source.name))
                shutil.copy(source, photos[-1])
            else:
                print(f"(no {source}: skipped)")
        for _ in range(args.rounds):
            for cv, blas in settings:
                env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
                if blas:
                    env["OPENBLAS_NUM_THREADS"] = blas
                done = subprocess.run([sys.executable, __file__, "--child", str(cv), str(args.repeat), *photos],
                                      env=env, capture_output=True, text=True, check=True)
                for name, runs in json.loads(done.stdout.splitlines()[-1]).items():
                    times.setdefault((name, cv, blas), []).extend(runs)
    print(f"{os.cpu_count()} cores; CPU / wall seconds per photo, median of {args.rounds} x {args.repeat}; "
          f"load average at the end {os.getloadavg()[0]:.1f}")
    print(f"{'photo':22}" + "".join(f"{label[s]:>24}" for s in settings))
    totals = {s: [0.0, 0.0] for s in settings}
    for photo in photos:
        name = Path(photo).name
        row = f"{name[:14]:14} {MEGAPIXELS.get(name, 0):4.1f} MP"
        for s in settings:
            cpu, wall = (statistics.median(x[i] for x in times[(name, *s)]) for i in (0, 1))
            totals[s][0] += cpu
            totals[s][1] += wall
            row += f"{cpu:>15.3f} /{wall:6.3f}"
        print(row)
    print(f"{'sum':22}" + "".join(f"{totals[s][0]:>15.3f} /{totals[s][1]:6.3f}" for s in settings))


if __name__ == "__main__":
    main()
