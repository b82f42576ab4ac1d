"""kscore serve against the command line on the same photo, and the server's memory over 20 uploads.

Targets (issue 15): a photo upload answers in under 1.5x the time `kscore --json PHOTO`
takes (the server keeps its models loaded; the command loads them each run), and
20 uploads in a row leave the server's memory flat.

    python benchmarks/bench_serve.py [PHOTO] [--repeat 5] [--uploads 20]

Starts `kscore serve` on a free port of 127.0.0.1 in a temporary folder, times
PHOTO through both (medians, side by side), then uploads it --uploads times in a
row and prints the server's resident memory (VmRSS) before and after. Without
PHOTO: sample_images/table_5x5.jpg. The CLI runs from a copy of the photo in a
temporary folder (it writes its reading beside the photo).
"""

from __future__ import annotations

import argparse
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

PROJECT = Path(__file__).resolve().parents[1]
KSCORE = Path(sys.executable).with_name("kscore")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cli_seconds(photo: Path, work: Path) -> float:
    copy = work / f"cli-{time.monotonic_ns()}{photo.suffix}"
    shutil.copy(photo, copy)
    start = time.perf_counter()
    subprocess.run([str(KSCORE), "--json", str(copy)], check=True, capture_output=True)
    return time.perf_counter() - start


def upload_seconds(url: str, data: bytes, name: str) -> float:
    start = time.perf_counter()
    answer = httpx.post(url + "/api/photos", files={"photo": (name, data, "image/jpeg")}, timeout=300)
    elapsed = time.perf_counter() - start
    if answer.status_code != 200:
        raise SystemExit(f"upload failed: {answer.status_code} {answer.text[:200]}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("photo", nargs="?", type=Path, default=PROJECT / "sample_images" / "table_5x5.jpg")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--uploads", type=int, default=20)
    args = parser.parse_args()
    data = args.photo.read_bytes()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        server = subprocess.Popen([str(KSCORE), "serve", "--port", str(port), str(work / "game")],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            for _ in range(150):
                try:
                    httpx.get(url + "/api/options", timeout=1)
                    break
                except httpx.TransportError:
                    time.sleep(0.2)
            rss_start = rss_mb(server.pid)
            first = upload_seconds(url, data, args.photo.name)  # loads the models
            rss_warm = rss_mb(server.pid)
            cli, served = [], []
            for _ in range(args.repeat):  # interleaved, so a busy moment on the machine hits both
                cli.append(cli_seconds(args.photo, work))
                served.append(upload_seconds(url, data, args.photo.name))
            rss_before = rss_mb(server.pid)
            series = []
            for i in range(args.uploads):
                upload_seconds(url, data, args.photo.name)
                if (i + 1) % 5 == 0:
                    series.append(f"{rss_mb(server.pid):.0f}")
            rss_after = rss_mb(server.pid)
        finally:
            server.terminate()
            server.wait(timeout=30)
    size = f"{len(data) / 2**20:.1f} MB"
    print(f"photo: {args.photo} ({size}); {args.repeat} runs each, medians")
    print(f"  kscore --json PHOTO (new process each run): {statistics.median(cli):.3f} s")
    print(f"  POST /api/photos (server warm):            {statistics.median(served):.3f} s "
          f"= {statistics.median(served) / statistics.median(cli):.2f}x the command (target under 1.5x)")
    print(f"  first upload after start (loads models):   {first:.3f} s")
    print(f"server RSS: {rss_start:.0f} MB at start, {rss_warm:.0f} MB after the first upload, "
          f"{rss_before:.0f} MB before {args.uploads} uploads in a row, {rss_after:.0f} MB after "
          f"(every 5: {' '.join(series)} MB)")


if __name__ == "__main__":
    main()
