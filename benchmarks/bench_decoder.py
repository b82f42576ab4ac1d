"""Time the tile-set decoder alone on every labelled board (median ms, one core).

Grids: the labelled kingdoms (5x5 boards, and the 7x7 kingdoms of the photos) with classifier-like noise (sim_decoder.noisy), clean
and with one injected close-second misread, so both the "already legal" path and
the search path are timed.

    python benchmarks/bench_decoder.py [--data ../shared/data/kingdomino] [--photos ../shared/data/photos] [--repeats 3] [--strength 7]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from sim_decoder import misread, noisy  # noqa: E402

from kscore.lab.dataset import load_boards, load_photo_items  # noqa: E402
from kscore.vision.read.decoder import decode  # noqa: E402
from kscore.game.tileset import KINGDOMINO  # noqa: E402


def main() -> None:
    default = Path(__file__).resolve().parents[2] / "shared" / "data" / "kingdomino"
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=default)
    parser.add_argument("--photos", type=Path, default=default.parent / "photos")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--strength", type=float, default=7.0)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    cases = {"clean": [], "one misread": [], "7x7 clean": [], "7x7 misread": []}
    kingdoms = [board.kingdom for board in load_boards(args.data)]
    if args.photos.is_dir():  # the labelled 7x7 (Mighty Duel) kingdoms, repeated to weigh
        kingdoms += [k.kingdom for ks in load_photo_items(args.photos).values() for k in ks if k.size == 7] * 10
    for kingdom in kingdoms:
        prefix = "7x7 " if kingdom.size == 7 else ""
        T, C = noisy(kingdom, rng, args.strength)
        cases[prefix + "clean"].append((T, C))
        T2, C2 = T.copy(), C.copy()
        tiles = [p for p, s in kingdom.squares() if s.terrain.scores]
        r, c = tiles[rng.integers(len(tiles))]
        misread(C2[r, c], kingdom[(r, c)].crowns, rng, 0.5, 0.95)
        cases[prefix + ("misread" if prefix else "one misread")].append((T2, C2))
    decode(*cases["clean"][0], KINGDOMINO)  # compile the tile set once, as a real run would
    for label, grids in cases.items():
        if not grids:
            continue
        times, cpu = [], []
        for _ in range(args.repeats):
            for T, C in grids:
                t0, c0 = time.perf_counter(), time.process_time()
                decode(T, C, KINGDOMINO)
                times.append(1000 * (time.perf_counter() - t0))
                cpu.append(1000 * (time.process_time() - c0))
        # CPU time too: on a shared machine wall time also counts the waits.
        print(f"{label:12s} {len(times)} decodes: wall median {np.median(times):.2f} ms, "
              f"p95 {np.percentile(times, 95):.2f} ms, max {max(times):.2f} ms; "
              f"CPU median {np.median(cpu):.2f} ms, p95 {np.percentile(cpu, 95):.2f} ms, max {max(cpu):.2f} ms")


if __name__ == "__main__":
    main()
