"""What a `--jobs` worker has before its first photo, and BLAS's thread count (issue 16: throughput)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

from conftest import PROJECT
from kscore.app import parallel
from photo_helpers import SAMPLE_PHOTO


def what_a_worker_has() -> dict:
    """Run in a worker, before it reads anything."""
    from kscore.vision.read.reader import default_models

    return {"models loaded": default_models.cache_info().currsize,
            "lazy modules": all(m in sys.modules for m in ("kscore.vision.find.rectify", "kscore.vision.find.loose",
                                                           "kscore.vision.find.occlusion", "kscore.vision.read.cells"))}


def test_a_worker_starts_with_the_models_and_the_pipeline_loaded_by_the_fork_server():
    pool = parallel._pool(1)
    try:
        has = pool.apply(what_a_worker_has)
    finally:
        pool.terminate()
        pool.join()
    assert has == {"models loaded": 1, "lazy modules": True}


BLAS_THREADS = ("from kscore.app.entry import main; import sys; sys.argv = ['kscore', '--version']; main(); "
                "import numpy, threadpoolctl; "
                "print(sorted({i['num_threads'] for i in threadpoolctl.threadpool_info() if i['user_api'] == 'blas'}))")


def blas_threads_after_the_entry(**environ: str) -> str:
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"} | environ
    done = subprocess.run([sys.executable, "-c", BLAS_THREADS], cwd=PROJECT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()[-1]


def test_the_console_script_runs_blas_on_one_thread():
    assert blas_threads_after_the_entry() == "[1]"


def test_a_blas_thread_count_the_user_set_is_kept():
    assert blas_threads_after_the_entry(OPENBLAS_NUM_THREADS="2") == "[2]"


def test_models_that_cannot_load_fail_each_photo_with_jobs_2_as_with_jobs_1(tmp_path):
    """The fork server loads the models for the workers; when they are missing it must not die with a
    traceback but leave each photo to say so, as `--jobs 1` does."""
    folder = tmp_path / "photos"
    folder.mkdir()
    for name in ("a.jpg", "b.jpg"):
        shutil.copy(SAMPLE_PHOTO, folder / name)
    env = os.environ | {"KSCORE_MODELS": str(tmp_path / "no-models")}
    runs = [subprocess.run([sys.executable, "-m", "kscore.app.entry", str(folder), "--jobs", jobs], cwd=PROJECT,
                           env=env, capture_output=True, text=True, timeout=120) for jobs in ("1", "2")]
    assert [r.returncode for r in runs] == [2, 2]
    assert runs[0].stderr == runs[1].stderr
    assert runs[1].stderr.count("recognition model not found") == 2 and "Traceback" not in runs[1].stderr
