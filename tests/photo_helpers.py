"""Helpers shared by the photo tests: the small labelled images in tests/data/photo."""

from __future__ import annotations

import json
import struct

import cv2
import numpy as np

from conftest import PROJECT, TEST_DATA
from kscore.lab.dataset import kingdom_from_labels
from kscore.lab.synth import BoardSource

PHOTO_DATA = TEST_DATA / "photo"
SAMPLE_PHOTO = PROJECT / "sample_images" / "table_5x5.jpg"
MAT_PHOTO = PHOTO_DATA / "mat_7x7.jpg"


def labelled_boards() -> list[BoardSource]:
    labels = json.loads((PHOTO_DATA / "boards.json").read_text())["boards"]
    return [
        BoardSource(cv2.imread(str(PHOTO_DATA / name)), kingdom_from_labels(name, e["terrain"], e["crowns"]), name)
        for name, e in sorted(labels.items())
    ]


def with_orientation(jpeg: bytes, orientation: int) -> bytes:
    """The JPEG with a minimal EXIF block carrying `orientation` (1..8)."""
    tiff = b"II*\x00" + struct.pack("<I", 8) + struct.pack("<H", 1)
    tiff += struct.pack("<HHIHH", 0x0112, 3, 1, orientation, 0) + struct.pack("<I", 0)
    app1 = b"Exif\x00\x00" + tiff
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(app1) + 2) + app1 + jpeg[2:]


def encode_jpeg(image: np.ndarray, quality: int = 90) -> bytes:
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return buf.tobytes()


def loose_scene(kingdomino_data, tiles_phone_data, state: dict, **options):
    """The synthetic loose scene (kscore.lab.loose_scenes) drawn from a generator state saved in a test."""
    from pathlib import Path

    from kscore.lab.dataset import load_boards
    from kscore.lab.loose_scenes import SquareBank, make_loose_scene

    bank = SquareBank.from_boards(load_boards(kingdomino_data), Path(tiles_phone_data) / "castle")
    rng = np.random.default_rng()
    rng.bit_generator.state = state
    return make_loose_scene(bank, rng, **options)


def kept_on_square(mask: np.ndarray, quad: np.ndarray, factor: float) -> float:
    """Share of a square's middle half (its print, not its rim) the mask covers; quad in image pixels,
    the mask `factor` times smaller."""
    centre = quad.mean(axis=0)
    inner = ((quad - centre) * 0.5 + centre) / factor
    region = np.zeros_like(mask)
    cv2.fillConvexPoly(region, np.round(inner).astype(np.int32), 1)
    return float(mask[region > 0].mean())
