"""Imported once by the `--jobs` fork server, before it forks the workers: what every
worker's first photo would otherwise pay again (measured on a 16 MP photo: its first
reading took 0.82 s, the same photo again 0.59 s).

- OpenCV fills its BGR->Lab tables on the first such conversion: 0.21 s of CPU.
- Modules the pipeline imports lazily (rectify, occlusion, the tile-by-tile finder,
  HEIC decoding) and the recognition models (unpickled from models/ once).

The workers are forks of the fork server, so they share all of it copy-on-write.
"""

from __future__ import annotations

import cv2
import numpy as np

import kscore.app.pipeline  # noqa: F401  (numpy, OpenCV, the finder and reader)
import kscore.vision.find.loose  # noqa: F401
import kscore.vision.find.occlusion  # noqa: F401
import kscore.vision.find.rectify  # noqa: F401
import kscore.vision.read.cells  # noqa: F401
from kscore.vision.read.reader import default_models


def warm_up() -> None:
    try:
        default_models()
    except Exception:  # a bad $KSCORE_MODELS: each photo says so when read; the fork server must not die
        pass
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)  # no OpenCV worker threads in a process that will fork
    try:
        cv2.cvtColor(np.zeros((2, 2, 3), np.uint8), cv2.COLOR_BGR2Lab)
    finally:
        cv2.setNumThreads(threads)
    try:
        import pillow_heif  # noqa: F401  (HEIC photos; optional at run time)
    except ImportError:
        pass


warm_up()
