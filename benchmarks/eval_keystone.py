"""Flat boards photographed from a chair: is the lattice laid where the squares lie? (kscore.lab.chair_boards)

A board of flat-coloured squares with dark gaps (no print, no table texture: geometry alone) is photographed
by the synthetic scenes' pinhole camera at each tilt, seed (the squares' colours) and turn on the table, 5x5
and 7x7, and found tile by tile. Prints per size and tilt: boards read at their extent (one group, n x n), and
of those the largest distance of a cell's centre from its square's (in squares at the board's centre; a cell
more than 0.15 off is cut across two squares' print), with the boards read at another extent listed.

    python benchmarks/eval_keystone.py
    python benchmarks/eval_keystone.py --tilts 30 35 --seeds 1 2 3 --list
"""

from __future__ import annotations

import argparse
import itertools
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PROJECT))

from kscore.lab.chair_boards import cut_squares  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tilts", type=float, nargs="+", default=[20, 25, 30, 35], help="degrees off straight down")
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 4, 5, 6])
    ap.add_argument("--turns", type=float, nargs="+", default=[-10, -5, 0, 5, 10], help="degrees on the table")
    ap.add_argument("--sizes", type=int, nargs="+", default=[5, 7], choices=[5, 7])
    ap.add_argument("--list", action="store_true", help="list the boards read at another extent")
    args = ap.parse_args(argv)
    right = total = 0
    for n in args.sizes:
        for tilt in args.tilts:
            read, worst, wrong = 0, 0.0, []
            for seed, turn in itertools.product(args.seeds, args.turns):
                extents, apart, _ = cut_squares(tilt, seed, turn, n)
                if extents == [(n, n)]:
                    read += 1
                    worst = max(worst, float(apart.max()))
                else:
                    wrong.append(f"seed {seed} turn {turn:g}: {' '.join(f'{r}x{c}' for r, c in extents) or 'none'}")
            count = len(args.seeds) * len(args.turns)
            off = f"cells at most {worst:.2f} of a square off" if read else "none to measure"
            print(f"{n}x{n} at {tilt:g} degrees: {read}/{count} read {n}x{n}, {off}")
            if args.list:
                for line in wrong:
                    print(f"    {line}")
            right, total = right + read, total + count
    print(f"boards read at their extent: {right}/{total}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
