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


def generator_state(state: int, inc: int, has_uint32: int, uinteger: int) -> dict:
    """A numpy PCG64 state as `rng.bit_generator.state` gives it, saved by a test before a scene of a run."""
    return {"bit_generator": "PCG64", "state": {"state": state, "inc": inc}, "has_uint32": has_uint32,
            "uinteger": uinteger}


#: `benchmarks/eval_loose.py --seed 61 --on rug --glare broad`: the generator's states before scenes
#: 1 (a 5x5 kingdom, no strays), 7 and 15 (5x5, two and three strays) and 14 (a 7x7 one and a stray).
SEED61_INC = 338476972309920787982764603500124399041  # the generator's increment: the same for a whole run
SEED61_RUG = {
    1: generator_state(167569522640818064618001643569463305689, SEED61_INC, 1, 586738858),
    7: generator_state(51815561363277468152007275880517864752, SEED61_INC, 1, 1343929748),
    14: generator_state(34367825420786637375043274081252029940, SEED61_INC, 1, 4220377809),
    15: generator_state(38004651110464815176855147557450162518, SEED61_INC, 0, 2764868646),
}


def rug_scene(kingdomino_data, tiles_phone_data, scene: int):
    """Scene `scene` of that seed-61 rug run (SEED61_RUG)."""
    return loose_scene(kingdomino_data, tiles_phone_data, SEED61_RUG[scene], surface="rug", glare="broad")


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
