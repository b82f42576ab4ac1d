"""kscore's per-photo function on a Dask cluster: photos/s at 1 and 2 workers, and the
documents checked against `kscore FOLDER --json --each` (the same code, no new path).

    python benchmarks/bench_dask.py [--photos 40] [--workers 1 2]

Dask is not a dependency of kscore: this script installs `dask[distributed]` into the
running environment if it is missing. Each task is

    score_photo_bytes(path.read_bytes(), str(path))     # kscore.app.work

mapped over the folder with dask.bag on a LocalCluster of single-threaded worker
processes; a cluster of many machines runs the same bag with another Client address.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from photo_folder import clear_readings, make_folder  # noqa: E402


def ensure_dask() -> None:
    if importlib.util.find_spec("dask") is None or importlib.util.find_spec("distributed") is None:
        print("installing dask[distributed] for this benchmark (not a kscore dependency)")
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "dask[distributed]"], check=True)


def score_path(path: str) -> dict:
    from kscore.app.work import score_photo_bytes

    return score_photo_bytes(Path(path).read_bytes(), path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=int, default=40)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args()
    ensure_dask()
    import dask.bag as db
    from dask.distributed import Client, LocalCluster

    with tempfile.TemporaryDirectory(prefix="kscore-dask-") as tmp:
        folder = Path(tmp) / "photos"
        paths = [str(p) for p in make_folder(folder, args.photos)]
        documents = {}
        for workers in args.workers:
            with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
                    Client(cluster) as client:
                client.run(lambda: __import__("kscore.app.work"))  # imports outside the timing, as a warm cluster
                bag = db.from_sequence(paths, npartitions=len(paths)).map(score_path)
                start = time.perf_counter()
                documents[workers] = bag.compute()
                wall = time.perf_counter() - start
            print(f"dask, {workers} worker(s): {len(paths)} photos in {wall:.1f} s = {len(paths) / wall:.2f} photos/s")
        clear_readings(folder)
        done = subprocess.run([sys.executable, "-m", "kscore.app.entry", str(folder), "--json", "--each", "--jobs", "1"],
                              capture_output=True, text=True)
        games = json.loads(done.stdout)["games"]
        by_source = {g["kingdoms"][0]["source"]: g for g in games if g["kingdoms"]}
        for workers, docs in documents.items():
            same = all(by_source.get(p) == {"kingdoms": d["kingdoms"], "ranking": d["ranking"]}
                       for p, d in zip(paths, docs) if d["kingdoms"])
            print(f"  {workers} worker(s): documents equal to kscore --each --json's games: {same}")


if __name__ == "__main__":
    main()
