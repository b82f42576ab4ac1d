"""Random table surfaces, for teaching the terrain model what an empty square looks like.

An empty square shows whatever the kingdom lies on. The labelled boards show
one table; players lay kingdoms on wood, cloth, stone, carpets and mats of
every colour. Rather than a list of surfaces (which the model would learn
by heart), each surface here is drawn from broad random parts: a base colour
of any hue, saturation and brightness, uneven light, fine grain or fibre,
and maybe streaks, dots or a repeated motif, each at a random scale. The
loose scenes' hand-made surfaces (kscore.lab.loose_scenes) are not drawn
from these; training also uses those (kscore.lab.train._table_copies: these
random surfaces alone left busy tables read as tiles), so benchmarks on them
measure new draws of surface kinds the model has seen.

>>> import numpy as np
>>> random_table(np.random.default_rng(0), 40, 60).shape
(40, 60, 3)
"""

from __future__ import annotations

import cv2
import numpy as np


def random_table(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A uint8 BGR surface h x w, drawn from the parts above."""
    # Saturation mostly low: most tables are muted, a few mats and cloths are not.
    hsv = np.uint8([[[rng.uniform(0, 180), 255 * rng.uniform(0, 1) ** 1.5, rng.uniform(15, 235)]]])
    base = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)
    img = np.broadcast_to(base, (h, w, 3)).copy()
    img *= (1 + rng.uniform(0.0, 0.3) * (_smooth_noise(rng, h, w, rng.uniform(0.1, 0.5) * max(h, w)) - 0.5))[..., None]
    if rng.random() < 0.5:
        img = _streaks(img, rng)
    if rng.random() < 0.4:
        img = _dots(img, rng)
    if rng.random() < 0.3:
        img = _motif(img, rng, base)
    grain = _smooth_noise(rng, h, w, rng.uniform(0.5, 2.0)) - 0.5
    img += rng.uniform(5, 40) * grain[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


def _smooth_noise(rng: np.random.Generator, h: int, w: int, scale: float) -> np.ndarray:
    """Noise in [0, 1] varying over about `scale` pixels."""
    small = rng.random((max(2, int(h / scale) + 2), max(2, int(w / scale) + 2))).astype(np.float32)
    noise = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
    return (noise - noise.min()) / (np.ptp(noise) + 1e-6)


def _streaks(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Wood grain or brushed cloth: stretched noise at any angle, lighter or darker than the base."""
    h, w = img.shape[:2]
    side = int(np.hypot(h, w)) + 2
    lines = cv2.resize(rng.random((side, max(2, side // int(rng.integers(2, 12))))).astype(np.float32), (side, side))
    turn = cv2.getRotationMatrix2D((side / 2, side / 2), rng.uniform(0, 180), 1.0)
    lines = cv2.warpAffine(lines, turn, (side, side), borderMode=cv2.BORDER_REFLECT)[:h, :w]
    return img + (lines - 0.5)[..., None] * rng.uniform(10, 80) * rng.choice([-1, 1])


def _dots(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Specks or printed dots in one or several colours."""
    h, w = img.shape[:2]
    radius = int(rng.integers(1, 6))
    count = int(rng.uniform(0.002, 0.02) * h * w / radius ** 2)
    colours = rng.uniform(0, 255, (int(rng.integers(1, 5)), 3))
    for _ in range(count):
        colour = tuple(float(v) for v in colours[int(rng.integers(0, len(colours)))])
        cv2.circle(img, (int(rng.integers(0, w)), int(rng.integers(0, h))), radius, colour, -1)
    return img


def _motif(img: np.ndarray, rng: np.random.Generator, base: np.ndarray) -> np.ndarray:
    """A repeated pattern (checks, diamonds, stripes) in a second muted colour."""
    h, w = img.shape[:2]
    other = np.clip(base + rng.uniform(-60, 60, 3), 0, 255).astype(np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    period = rng.uniform(8, 80)
    kind = int(rng.integers(0, 3))
    if kind == 0:
        mask = (np.floor(xx / period) + np.floor(yy / period)) % 2 == 0
    elif kind == 1:
        mask = (np.abs(np.mod(xx + yy, period) - period / 2) + np.abs(np.mod(xx - yy, period) - period / 2)) < period / 3
    else:
        mask = np.mod(xx * np.cos(rng.uniform(0, np.pi)) + yy * np.sin(rng.uniform(0, np.pi)), period) < period / 2
    return np.where(mask[..., None], other[None, None], img)


__all__ = ["random_table"]
