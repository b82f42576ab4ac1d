"""One file of many kingdoms (a club's season, a national tournament typed in): whole-process
time and peak memory of `kscore FILE --json` and of the terminal tables, side by side.

    python benchmarks/bench_many_kingdoms.py [--kingdoms 1000 5000 10000]

Kingdoms are drawn from a fixed seed; many share their points, so ties are large.
"""

from __future__ import annotations

import argparse
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GRID_LETTERS = "WGFLSM"


def kingdom_text(name: str, rng: random.Random) -> str:
    rows = []
    for r in range(5):
        row = []
        for c in range(5):
            if (r, c) == (2, 2):
                row.append("C")
            else:
                row.append(rng.choice(GRID_LETTERS) + str(rng.choice([0, 0, 0, 1, 1, 2])))
        rows.append(" ".join(row))
    return f"[{name}]\n" + "\n".join(rows) + "\n"


def run(command: list[str]) -> tuple[float, float, int]:
    """Wall seconds, peak RSS in MiB of the child, exit code."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return wall, max(peak, before) / 1024, done.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kingdoms", type=int, nargs="+", default=[1000, 5000, 10000])
    parser.add_argument("--text", action="store_true", help="also time the terminal tables (slow: rich)")
    args = parser.parse_args()
    kscore = [sys.executable, "-m", "kscore.app.entry"]
    rng = random.Random(16)
    with tempfile.TemporaryDirectory() as folder:
        for n in args.kingdoms:
            path = Path(folder) / f"season-{n}.kingdom"
            path.write_text("tileset: none\n" + "".join(kingdom_text(f"player {i}", rng) for i in range(n)))
            wall, peak, code = run([*kscore, str(path), "--json"])
            print(f"{n:>6} kingdoms  --json  {wall:6.2f} s  peak {peak:6.0f} MiB (max over runs so far)  exit {code}")
            if args.text:
                wall, peak, code = run([*kscore, str(path)])
                print(f"{n:>6} kingdoms  tables  {wall:6.2f} s  peak {peak:6.0f} MiB (max over runs so far)  exit {code}")


if __name__ == "__main__":
    main()
