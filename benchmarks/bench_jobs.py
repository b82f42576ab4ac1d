"""A folder of photos read with --jobs 1 and --jobs N side by side: wall time, CPU of the
whole process tree, time to the first reading written, peak memory, and whether the JSON
is identical.

    python benchmarks/bench_jobs.py [--photos 100] [--jobs 2] [--rounds 1]

Target (issue 16): with --jobs 2 on two cores, wall <= 0.6x of --jobs 1, identical results.
The folder is benchmarks/photo_folder.py's mix (phone photos, board crops a minority).
Rounds alternate 1, N, 1, N... so a change in the machine's load hits both alike; the
machine's load average is printed before each run (other processes take cores too).

CPU: the kscore process (exact, from os.times once it is waited for) plus every other
process of its tree (the fork server, the workers: they are not its waited children),
sampled from /proc every 50 ms, so a worker's last 50 ms may be missed.
Cores used: CPU / wall. On a shared machine read it with the load: Linux's autogroup
scheduling (sched_autogroup_enabled, printed) shares the cores between sessions, not
processes, so while other sessions are busy --jobs 2 gets no more than --jobs 1 does.
Busiest process: the CPU seconds of the process that worked most (the kscore process with
--jobs 1, a worker with --jobs N): a floor for the wall time had each process a core to itself.
First reading: when the first `.kingdom` appears in the folder (each reading is written
as soon as its photo is read), i.e. start-up (imports, the pool) plus one photo.
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
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from photo_folder import clear_readings, describe, make_folder  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")


def tree(pid: int) -> list[int]:
    """A process and all its descendants (Linux /proc)."""
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        try:
            for task in Path(f"/proc/{p}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
        except (OSError, ValueError):
            continue
    return found


def rss_mib(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except (OSError, ValueError):
        pass
    return 0.0


def cpu_s(pid: int) -> float:
    """User + system CPU seconds of one process (all its threads), not counting its children."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICK
    except (OSError, ValueError, IndexError):
        return 0.0


@dataclass
class Run:
    wall: float
    cpu: float
    busiest: float  # CPU s of the busiest process: the wall time if each process had a core to itself
    first: float  # seconds to the first reading written
    peak: float  # MiB, whole tree
    out: str
    code: int


def timed(command: list[str], folder: Path) -> Run:
    before = os.times()
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    peak, first, others = [0.0], [float("nan")], {}  # others: pid -> CPU s last seen

    def sample() -> None:
        while process.poll() is None:
            pids = tree(process.pid)
            peak[0] = max(peak[0], sum(rss_mib(p) for p in pids))
            for p in pids[1:]:
                others[p] = max(others.get(p, 0.0), cpu_s(p))
            if first[0] != first[0] and next(folder.glob("*.kingdom"), None):
                first[0] = time.perf_counter() - start
            time.sleep(0.05)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    out, _ = process.communicate()
    wall = time.perf_counter() - start
    sampler.join()
    after = os.times()
    own = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    busiest = max([own, *others.values()])
    return Run(wall, own + sum(others.values()), busiest, first[0], peak[0], out, process.returncode)


def autogroup() -> str:
    try:
        return {"1": "on", "0": "off"}.get(Path("/proc/sys/kernel/sched_autogroup_enabled").read_text().strip(), "?")
    except OSError:
        return "unknown"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="kscore-jobs-") as tmp:
        folder = Path(tmp) / "photos"
        print(f"{describe(make_folder(folder, args.photos))} in {folder}; {os.cpu_count()} cores; "
              f"sched_autogroup {autogroup()}")
        runs: dict[int, list[Run]] = {1: [], args.jobs: []}
        for _ in range(args.rounds):
            for jobs in (1, args.jobs):
                clear_readings(folder)
                load = os.getloadavg()[0]
                run = timed([sys.executable, "-m", "kscore.app.entry", str(folder), "--json", "--jobs", str(jobs)], folder)
                runs[jobs].append(run)
                print(f"  --jobs {jobs}: wall {run.wall:6.1f} s  cpu {run.cpu:6.1f} s "
                      f"({run.cpu / args.photos:.2f} s a photo, {run.cpu / run.wall:.2f} cores; busiest process "
                      f"{run.busiest:.1f} s)  first reading {run.first:4.1f} s  "
                      f"peak {run.peak:4.0f} MiB  exit {run.code}  (load average before: {load:.1f})")
        one, many = (statistics.median(r.wall for r in runs[j]) for j in (1, args.jobs))
        same = len({r.out for rs in runs.values() for r in rs}) == 1
        print(f"median wall: --jobs 1 {one:.1f} s, --jobs {args.jobs} {many:.1f} s: {many / one:.2f}x "
              f"({args.photos / one:.2f} vs {args.photos / many:.2f} photos/s); identical JSON: {same}")


if __name__ == "__main__":
    main()
