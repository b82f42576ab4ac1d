"""Time kscore's whole process for the commands that should feel instant.

Issue 16's targets: `kscore --version` <= 0.2 s and a text grid (`kscore
FILE.kingdom --json`) <= 0.3 s, the whole process, start to exit. Each command
runs --runs times; with --compare, a second kscore executable (say another
checkout's venv) runs alternately with this one, so both see the same machine
load. Prints the median and the minimum wall time, and the median CPU (user +
system) the process used, which a busy machine disturbs less than wall time.

    python benchmarks/bench_startup.py
    python benchmarks/bench_startup.py --runs 21 --compare /work/main/.venv/bin/kscore
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]
TEXT_GRID = PROJECT / "tests" / "data" / "alice.kingdom"
COMMANDS = {
    "--version": ["--version"],
    "text grid --json": [str(TEXT_GRID), "--json"],
    "--help": ["--help"],
}


def run_once(kscore: str, args: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of one whole `kscore ARGS` process."""
    before = os.times()
    start = time.perf_counter()
    subprocess.run([kscore, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - start
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--kscore", default=str(Path(sys.executable).with_name("kscore")),
                        help="the kscore executable to time (default: this Python's)")
    parser.add_argument("--compare", help="a second kscore executable, run alternately with the first")
    args = parser.parse_args()

    executables = [args.kscore] + ([args.compare] if args.compare else [])
    for exe in executables:  # the first run of each compiles bytecode and warms the file cache
        for command in COMMANDS.values():
            run_once(exe, command)
    print(f"{args.runs} runs each, alternating; load average {os.getloadavg()[0]:.1f}")
    print(f"{'command':<18} {'executable':<40} {'median wall':>11} {'min wall':>9} {'median CPU':>11}")
    for name, command in COMMANDS.items():
        times: dict[str, list[tuple[float, float]]] = {exe: [] for exe in executables}
        for _ in range(args.runs):
            for exe in executables:
                times[exe].append(run_once(exe, command))
        for exe in executables:
            walls = [wall for wall, _ in times[exe]]
            cpus = [cpu for _, cpu in times[exe]]
            print(f"{name:<18} {exe[-40:]:<40} {statistics.median(walls):>10.3f}s {min(walls):>8.3f}s "
                  f"{statistics.median(cpus):>10.3f}s")


if __name__ == "__main__":
    main()
