"""Photos read in several processes at once (`--jobs N`): one photo is ~1 s of mostly
single-threaded work, so a folder keeps every core busy only with a process per core.

The results come back in the order of the paths given, whatever order they finish
in; each is handed to `on_read` as it arrives (the reading is written beside its
photo then), and the progress bar counts finished photos. A photo that fails is
that photo's failure, as when reading one at a time. Text files are read here, in
this process: they cost milliseconds.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
from pathlib import Path
from typing import Callable, Sequence

from kscore.app.inputs import Failure, load_game, photo_progress
from kscore.errors import KscoreError
from kscore.filetypes import is_image


def default_jobs() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def _start_worker(ready) -> None:
    # Ctrl-C reaches the whole process group: the parent decides (it stops the pool), workers stay quiet.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    import cv2

    cv2.setNumThreads(1)  # one process per core already; OpenCV's own threads would only contend
    try:
        ready.wait(timeout=120)
    except threading.BrokenBarrierError:  # a worker started later (one died): nobody waits for it
        pass


def _read(job: tuple[int, Path, object]):
    """In a worker: (index, path, rules) -> (index, Game) or (index, (message, exit code))."""
    index, path, rules = job
    try:
        return index, load_game(path, rules)
    except KscoreError as error:  # errors go back as text: KingdomFormatError does not survive pickling
        return index, (str(error), error.exit_code)
    except Exception as error:  # one photo's internal error is that photo's failure
        return index, (f"{path}: internal error: {type(error).__name__}: {error} (please report it)", 1)


def _failure(path: Path, message: str, exit_code: int) -> Failure:
    error = KscoreError(message)
    error.exit_code = exit_code
    return Failure(path, error)


def _pool(processes: int):
    """Worker processes from a fork server that has imported the pipeline once (numpy, OpenCV,
    the reader) and paid what a first photo costs (kscore.app.preload): each starts in
    milliseconds, from a process that never ran an OpenCV thread (a fork of this one could
    deadlock on a lock some OpenCV or progress thread held). A Ctrl-C waits until
    every worker has started: terminating the pool under a worker still starting makes it print
    a traceback (its semaphores are gone)."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["kscore.app.parallel", "kscore.app.preload"])
    else:
        context = multiprocessing.get_context("spawn")
    ready = context.Barrier(processes + 1)
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}) if hasattr(signal, "pthread_sigmask") else None
    try:
        pool = context.Pool(processes, initializer=_start_worker, initargs=(ready,))
        try:
            ready.wait(timeout=120)
        finally:
            ready.abort()  # a worker started later does not wait
    finally:
        if mask is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # a Ctrl-C held meanwhile lands now
    return pool


def load_in_parallel(paths: Sequence[Path], rules, jobs: int, on_read: Callable) -> tuple[list, list]:
    """Like inputs.load_games with photos read by `jobs` worker processes."""
    results: dict[int, object] = {}
    photos = [(i, p, rules) for i, p in enumerate(paths) if is_image(p)]
    for i, path in enumerate(paths):
        if not is_image(path):
            try:
                results[i] = on_read(load_game(path, rules))
            except KscoreError as error:
                results[i] = Failure(path, error)
    pool = _pool(min(jobs, len(photos)))
    try:
        with photo_progress(len(photos)) as progress:
            task = progress.add_task("reading photos", total=len(photos)) if progress else None
            for index, outcome in pool.imap_unordered(_read, photos, chunksize=1):
                path = paths[index]
                if isinstance(outcome, tuple):
                    results[index] = _failure(path, *outcome)
                else:
                    results[index] = on_read(outcome)
                if progress:
                    progress.update(task, advance=1, description=f"read {path.name}")
        pool.close()
    finally:
        pool.terminate()  # Ctrl-C or an error: no worker goes on reading
        pool.join()
    ordered = [results[i] for i in range(len(paths))]
    return [r for r in ordered if not isinstance(r, Failure)], [r for r in ordered if isinstance(r, Failure)]
