"""A folder of photos read with --jobs 1 and --jobs N side by side: wall time, CPU, peak memory
of the whole process tree, and whether the JSON is identical.

    python benchmarks/bench_jobs.py [--photos 100] [--jobs 2] [--rounds 1]

Target (issue 16): with --jobs 2 on two cores, wall <= 0.6x of --jobs 1, identical results.
Rounds alternate 1, N, 1, N... so a change in the machine's load hits both alike.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from photo_folder import clear_readings, make_folder  # noqa: E402


def tree_rss_mib(pid: int) -> float:
    """Resident memory of a process and all its descendants (Linux /proc)."""
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
            for task in Path(f"/proc/{p}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
        except (OSError, ValueError):
            continue
    return total / 1024


def timed(command: list[str]) -> tuple[float, float, float, str, int]:
    """Wall s, CPU s (children), peak tree RSS MiB, stdout, exit code."""
    before = os.times()
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    peak = [0.0]

    def sample() -> None:
        while process.poll() is None:
            peak[0] = max(peak[0], tree_rss_mib(process.pid))
            time.sleep(0.1)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    out, _ = process.communicate()
    wall = time.perf_counter() - start
    sampler.join()
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return wall, cpu, peak[0], out, process.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="kscore-jobs-") as tmp:
        folder = Path(tmp) / "photos"
        make_folder(folder, args.photos)
        print(f"{args.photos} photos in {folder}; {os.cpu_count()} cores")
        runs: dict[int, list] = {1: [], args.jobs: []}
        for _ in range(args.rounds):
            for jobs in (1, args.jobs):
                clear_readings(folder)
                result = timed([sys.executable, "-m", "kscore.app.entry", str(folder), "--json", "--jobs", str(jobs)])
                runs[jobs].append(result)
                wall, cpu, peak, _, code = result
                print(f"  --jobs {jobs}: wall {wall:6.1f} s  cpu {cpu:6.1f} s  peak {peak:6.0f} MiB  exit {code}")
        one, many = (statistics.median(r[0] for r in runs[j]) for j in (1, args.jobs))
        same = len({r[3] for rs in runs.values() for r in rs}) == 1
        print(f"median wall: --jobs 1 {one:.1f} s, --jobs {args.jobs} {many:.1f} s: {many / one:.2f}x "
              f"({args.photos / one:.2f} vs {args.photos / many:.2f} photos/s); identical JSON: {same}")


if __name__ == "__main__":
    main()
