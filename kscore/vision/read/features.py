"""The prepared board image, and per-square terrain features from it.

Why these features: the boards come from one camera and one lamp, the phone
squares from another camera in warm light, and kscore is judged on photos from
neither. So colour is taken in perceptual spaces (Lab, hue weighted by
saturation) after a brightness normalisation, and texture from gradient
statistics; both survive light changes better than raw RGB. Terrain's colours
are also pulled half way to a grey world (`balanced`), measured on the whole
kingdom (a phone square: on its photo's squares): a full gray-world white
balance hurt under grouped CV (a board that is mostly lake turns its lakes
grey), and half of one in `prepare` helped cameras never seen but cost the
crowns; on terrain alone it raised every source left out
(benchmarks/eval_leave_one_source_out.py --quick). Only the
central part of each square is used for terrain: seams, neighbours and the
leaning 3D castle live at the edges.

Everything runs at half resolution (50 px per square): it is four times cheaper
and loses nothing the classifiers use.

Bump FEATURE_VERSION whenever the numbers this package computes from an image
change (here, crowns.py or counting.py): models record it, and a mismatch is
refused instead of giving garbage.

Version 10 adds luminance texture (`print_texture`): the glossy tiles mirror a
lamp or a window as a tinted sheen over a row of squares (photos-loose steps
3-5: four forests turned lavender and blue, read swamp, lake or castle). Measured
on those photos, the sheen is not a plain additive offset: the print's dark
outlines stay dark (the 2nd percentile rises 15-50 levels) while the middle tones
rise 45-110, so a per-square offset taken from the dark pixels removes little of
it, and dark-channel dehazing left the row grey (read castle). The drawing's
shapes survive it: a texture-only classifier (gradient orientations and local
binary patterns of the lightness after local contrast normalisation) read all
twelve veiled forests as forest. That classifier can vote beside the one on every
feature (model.Experts, train.SHAPES_WEIGHT; the texture columns are those from
COLOUR_FEATURES on) and, as shipped, says which textured print (forest, lake, swamp,
mine) a square is.

Version 11 adds two columns to a square's crown summary (counting.py): the best
crown candidate by the square's border, inside it and just outside it, for
squares cut a little off their print on hand-laid kingdoms.
"""

from __future__ import annotations

import cv2
import numpy as np

FEATURE_VERSION = 11

#: Callers hand squares of any size; they are resampled to this many pixels a side.
SQUARE_PX = 100
#: Pixels per square in the prepared image all features are computed on.
CELL = SQUARE_PX // 2
#: Pixels cut from each side of a prepared square for terrain (the central 68%).
_MARGIN = 8
_HUE_BINS = 12
_BRIGHTNESS = 110.0


def prepare(image_bgr: np.ndarray, size: int, reference: np.ndarray | None = None) -> np.ndarray:
    """Rectified board (any resolution) -> (size*CELL)^2 uint8 BGR at a fixed mean brightness.

    reference: pixels to measure brightness on (default: the image itself); the
    phone squares pass their whole photo's squares, since one square alone would
    have its own terrain's brightness normalised away.
    """
    return prepared_and_gain(image_bgr, size, reference)[0]


def prepared_and_gain(image_bgr: np.ndarray, size: int,
                      reference: np.ndarray | None = None) -> tuple[np.ndarray, float]:
    """prepare's image and the factor it scaled the brightness by (for other cuts of the same photo)."""
    side = size * CELL
    interpolation = cv2.INTER_AREA if min(image_bgr.shape[:2]) >= side else cv2.INTER_LINEAR
    small = cv2.resize(image_bgr, (side, side), interpolation=interpolation)
    gain = _BRIGHTNESS / (float(_mean(small if reference is None else reference)) + 1.0)
    return cv2.convertScaleAbs(small, alpha=gain), gain


#: How far terrain's colours are pulled toward a grey world (0: not at all, 1: wholly); crowns' are not.
TERRAIN_BALANCE = 0.5


def balanced(prepared: np.ndarray, reference: np.ndarray | None = None, strength: float = TERRAIN_BALANCE) -> np.ndarray:
    """The prepared image with each channel scaled toward the reference's grey (a partial grey-world).

    reference: the pixels whose mean colour is the light's (default: the image).
    """
    if strength == 0:
        return prepared
    means = _mean((prepared if reference is None else reference).reshape(-1, 3), per_channel=True) + 1.0
    gains = (means.mean() / means) ** strength
    lut = np.clip(np.arange(256, dtype=np.float64)[:, None] * gains[None], 0, 255).astype(np.uint8)
    return cv2.LUT(prepared, lut.reshape(256, 1, 3))


def _mean(pixels: np.ndarray, per_channel: bool = False):
    """pixels.mean() (per_channel: of each column of an (n, 3) array) as numpy gives it, from OpenCV's sums for
    8-bit pixels: a sum of whole numbers is exact in any order, and numpy's mean divides that sum by the
    count, so the numbers are the same; numpy's float64 reduction over uint8 took ~1 ms a board."""
    if pixels.dtype != np.uint8 or pixels.size == 0 or pixels.size >= 2**31:
        return pixels.mean(axis=0, dtype=np.float64) if per_channel else pixels.mean()
    if per_channel:
        flat = pixels.reshape(-1, 1, 3)
        return np.array(cv2.sumElems(flat)[:3]) / flat.shape[0]
    return np.float64(sum(cv2.sumElems(pixels.reshape(-1, 1))[:1])) / pixels.size


def _windows(plane: np.ndarray, size: int) -> np.ndarray:
    """(size*size, [channels,] pixels) central window of every square, contiguous per channel."""
    m, inner = _MARGIN, CELL - 2 * _MARGIN
    h = plane.reshape(size, CELL, size, CELL, *plane.shape[2:])[:, m : m + inner, :, m : m + inner]
    h = np.moveaxis(h, 2, 1).reshape(size * size, inner * inner, *plane.shape[2:])
    if plane.ndim == 3:
        h = h.transpose(0, 2, 1)
    return np.ascontiguousarray(h)


def _quantiles(values: np.ndarray, qs: tuple[float, ...]) -> np.ndarray:
    s = np.sort(values, axis=1)
    idx = [min(int(q * s.shape[1]), s.shape[1] - 1) for q in qs]
    return s[:, idx]


#: Columns of terrain_features that come from colour (_colour_features); the print's texture follows them.
COLOUR_FEATURES = 33


def terrain_features(prepared: np.ndarray, size: int, reference: np.ndarray | None = None) -> np.ndarray:
    """Feature matrix (size*size, COLOUR_FEATURES + TEXTURE_FEATURES): colour and gradients from a prepared image
    (see prepare), its colours balanced on `reference`, then the print's texture (print_texture)."""
    return np.hstack([_colour_features(prepared, size, reference), print_texture(prepared, size)])


#: Orientation bins, local-binary-pattern codes (8 neighbours: 9 uniform codes and the rest) and band energies.
_ORIENTATIONS, _LBP_CODES, _BANDS = 6, 10, 3
TEXTURE_FEATURES = _ORIENTATIONS + _LBP_CODES + _BANDS + 4
#: Lightness is normalised by its own local mean and contrast over this many prepared pixels (a tenth of a square).
_LOCAL_SIGMA = 4.0


def print_texture(prepared: np.ndarray, size: int) -> np.ndarray:
    """(size*size, TEXTURE_FEATURES): the print's shapes in lightness, blind to a veil's colour and strength.

    Lightness minus its local mean over its local contrast takes out an offset and
    a gain that vary slowly (a sheen, a lamp's fall-off); on that: a histogram of
    gradient orientations (magnitude-weighted: tree crowns are round, reeds and
    waves run one way), uniform local binary patterns (signs only: unchanged by
    any monotone change of brightness), the energy in three bands of scale, and
    quantiles of the gradient.
    """
    light = cv2.cvtColor(prepared, cv2.COLOR_BGR2Lab)[..., 0].astype(np.float32)
    dev = light - cv2.GaussianBlur(light, (0, 0), _LOCAL_SIGMA)
    norm = dev / (np.sqrt(cv2.GaussianBlur(dev * dev, (0, 0), _LOCAL_SIGMA)) + 2.0)
    gx = cv2.Sobel(norm, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(norm, cv2.CV_32F, 0, 1, ksize=3)
    magnitude = np.sqrt(gx * gx + gy * gy)
    orientation = np.minimum((np.arctan2(gy, gx) % np.pi * (_ORIENTATIONS / np.pi)).astype(np.int32), _ORIENTATIONS - 1)
    bands = [np.abs(cv2.GaussianBlur(norm, (0, 0), 0.7 * s) - cv2.GaussianBlur(norm, (0, 0), 1.4 * s)) for s in (1, 2, 4)]

    mag_v, ori_v, lbp_v = _windows(magnitude, size), _windows(orientation, size), _windows(_uniform_lbp(light), size)
    orient = np.stack([(mag_v * (ori_v == k)).sum(axis=1, dtype=np.float64) for k in range(_ORIENTATIONS)], axis=1)
    orient /= orient.sum(axis=1, keepdims=True) + 1e-6
    codes = np.stack([(lbp_v == k).mean(axis=1) for k in range(_LBP_CODES)], axis=1)
    energy = np.stack([_windows(b, size).mean(axis=1, dtype=np.float64) for b in bands], axis=1)
    energy /= energy.sum(axis=1, keepdims=True) + 1e-6
    spread = np.abs(orient - 1.0 / _ORIENTATIONS).sum(axis=1, keepdims=True)  # one way (reeds) or every way (crowns)
    return np.hstack([orient, codes, energy, np.log1p(_quantiles(mag_v, (0.25, 0.5, 0.9))), spread]).astype(np.float32)


def _uniform_lbp(light: np.ndarray) -> np.ndarray:
    """Each pixel's uniform local binary pattern over its 8 neighbours: the count of brighter ones (0-8) when
    they form one arc, else 9. A neighbour counts as brighter by a whole level (JPEG noise flips ties)."""
    padded = np.pad(light, 1, mode="edge")
    h, w = light.shape
    around = [(-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1)]
    level = light + 1
    bits = [padded[1 + dy:1 + dy + h, 1 + dx:1 + dx + w] >= level for dy, dx in around]
    # Counted plane by plane (one pixel's 8 bits stacked on the last axis took 3x as long).
    brighter, changes = np.zeros((h, w), np.uint8), np.zeros((h, w), np.uint8)
    for k in range(len(bits)):
        brighter += bits[k]
        changes += bits[k] != bits[k - 1]  # round the ring: bit 0 against bit 7
    return np.where(changes <= 2, brighter, _LBP_CODES - 1).astype(np.int32)


def _colour_features(prepared: np.ndarray, size: int, reference: np.ndarray | None = None) -> np.ndarray:
    """(size*size, COLOUR_FEATURES): Lab statistics, a saturation-weighted hue histogram and gradient statistics."""
    prepared = balanced(prepared, reference)
    lab = cv2.cvtColor(prepared, cv2.COLOR_BGR2Lab)
    hsv = cv2.cvtColor(prepared, cv2.COLOR_BGR2HSV)
    # Integer Sobel and numpy's sqrt: cv2.magnitude's SIMD path rounds
    # differently by memory alignment, which made retraining non-reproducible.
    gx = cv2.Sobel(lab[..., 0], cv2.CV_16S, 1, 0, ksize=3).astype(np.float32)
    gy = cv2.Sobel(lab[..., 0], cv2.CV_16S, 0, 1, ksize=3).astype(np.float32)
    grad = np.sqrt(gx * gx + gy * gy)
    coarse = cv2.absdiff(lab[..., 0], cv2.GaussianBlur(lab[..., 0], (0, 0), 1.5))  # 8-bit: bit-exact

    lab_v = _windows(lab, size).astype(np.float32)
    hsv_v = _windows(hsv, size)
    grad_v = _windows(grad, size)
    coarse_v = _windows(coarse, size)
    n = size * size

    # Reductions in float64: a float32 sum's last bits depend on the array's
    # memory alignment (numpy's SIMD), which made retraining non-reproducible.
    mean = lab_v.mean(axis=2, dtype=np.float64)
    std = lab_v.std(axis=2, dtype=np.float64)
    lq = _quantiles(lab_v[:, 0], (0.1, 0.5, 0.9))
    aq = _quantiles(lab_v[:, 1], (0.1, 0.9))
    bq = _quantiles(lab_v[:, 2], (0.1, 0.9))

    # Hue histogram weighted by saturation: grey pixels say little about hue.
    bins = (hsv_v[:, 0].astype(np.int32) * _HUE_BINS) // 180
    sat = hsv_v[:, 1].astype(np.float32) / 255.0
    flat = (bins + _HUE_BINS * np.arange(n)[:, None]).ravel()
    hist = np.bincount(flat, weights=sat.ravel(), minlength=n * _HUE_BINS).reshape(n, _HUE_BINS)
    hist = hist.astype(np.float32) / bins.shape[1]
    sat_mean = sat.mean(axis=1, keepdims=True, dtype=np.float64)
    dark = (lab_v[:, 0] < 60).mean(axis=1, keepdims=True)  # OpenCV's 8-bit L runs 0..255
    bright = (lab_v[:, 0] > 200).mean(axis=1, keepdims=True)

    texture = np.stack(
        [
            grad_v.mean(axis=1, dtype=np.float64),
            grad_v.std(axis=1, dtype=np.float64),
            _quantiles(grad_v, (0.9,))[:, 0],
            coarse_v.mean(axis=1, dtype=np.float64),
            (grad_v > 60).mean(axis=1),
        ],
        axis=1,
    )
    return np.hstack([mean, std, lq, aq, bq, hist, sat_mean, dark, bright, np.log1p(texture)]).astype(np.float32)
