"""Helpers shared by the photo tests: the small labelled images in tests/data/photo."""

from __future__ import annotations

import json
import struct

import cv2
import numpy as np

from conftest import PROJECT, TEST_DATA
from kscore.game.kingdom import Terrain
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


def pinned_scene(bank, rng, **options):
    """kscore.lab.loose_scenes.make_loose_scene as it drew before tiles stopped overlapping (2026-12-02).

    Every scene a test names (by seed or saved generator state) was chosen, and its figures asserted, on
    those scenes; drawn through here, it stays the same scene. Tests of the new, clear layout call
    make_loose_scene itself. A scene a test cites as `benchmarks/eval_loose.py --seed N` (or eval_loose_reading,
    eval_wrong_squares) is that command's scene with `--overlapping`.
    """
    from kscore.lab.loose_scenes import make_loose_scene

    return make_loose_scene(bank, rng, overlapping=True, **options)


def loose_scene(kingdomino_data, tiles_phone_data, state: dict, **options):
    """The synthetic loose scene (kscore.lab.loose_scenes) drawn from a generator state saved in a test
    (as it was drawn then: pinned_scene)."""
    from pathlib import Path

    from kscore.lab.dataset import load_boards
    from kscore.lab.loose_scenes import SquareBank

    bank = SquareBank.from_boards(load_boards(kingdomino_data), Path(tiles_phone_data) / "castle")
    rng = np.random.default_rng()
    rng.bit_generator.state = state
    return pinned_scene(bank, rng, **options)


def kept_on_square(mask: np.ndarray, quad: np.ndarray, factor: float) -> float:
    """Share of a square's middle half (its print, not its rim) the mask covers; quad in image pixels,
    the mask `factor` times smaller."""
    centre = quad.mean(axis=0)
    inner = ((quad - centre) * 0.5 + centre) / factor
    region = np.zeros_like(mask)
    cv2.fillConvexPoly(region, np.round(inner).astype(np.int32), 1)
    return float(mask[region > 0].mean())


#: One flat hue per terrain, far apart, so a square cut from a scene tells which terrain it was drawn from.
HUES = {Terrain.WHEAT: 25, Terrain.GRASSLAND: 55, Terrain.FOREST: 85, Terrain.LAKE: 115,
        Terrain.SWAMP: 145, Terrain.MINE: 175, Terrain.CASTLE: None}


def flat_square(terrain: Terrain) -> np.ndarray:
    """A 100 px square of the terrain's flat hue; the castle white."""
    hue = HUES[terrain]
    if hue is None:  # the castle: white
        return np.full((100, 100, 3), 230, np.uint8)
    return cv2.cvtColor(np.full((100, 100, 3), (hue, 230, 200), np.uint8), cv2.COLOR_HSV2BGR)


def flat_bank():
    """A bank of one flat colour per terrain (HUES): scenes drawn from it tell each square's terrain by hue."""
    from kscore.game.tileset import KINGDOMINO
    from kscore.lab.loose_scenes import SquareBank

    keys = {(t, c) for _, a, b in KINGDOMINO.dominoes for t, c in (a[:2], b[:2])} | {(Terrain.CASTLE, 0)}
    return SquareBank({key: [flat_square(key[0])] for key in keys}, [])


def straight_and_from_a_chair(bench_main, base: list[str], capsys) -> tuple[str, str]:
    """A benchmark's printout on its scenes drawn straight down and, the same scenes, from a chair (--tilt 25)."""
    assert bench_main(base) == 0
    straight = capsys.readouterr().out
    assert bench_main(base + ["--tilt", "25"]) == 0
    return straight, capsys.readouterr().out
