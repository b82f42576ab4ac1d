"""Crown candidates: one template search over four orientations, one NMS, patch descriptors.

Crowns can sit anywhere in a square and face any of four ways (the domino's
orientation), so the image is matched against the crown template turned 0, 90,
180 and 270 degrees, the four responses are merged by a per-pixel maximum, and a
single non-maximum suppression runs over that merged map: a crown seen in two
orientations is one candidate, never two. Each candidate is then described by
a small colour patch sampled upright (by its best orientation); a learned
classifier turns that into P(crown), and counting.py turns a square's
candidates into P(0..3 crowns).

The search runs on the brightest channel-minimum, min(B, G, R): the crown's
white outline is high in every channel, while wheat, grass, forest and the gold
inside the crown are low in at least one. Under grouped CV this beat plain gray
(crowns on wheat vanish in gray) at the same cost.

Everything is at the prepared image's scale (features.CELL = 50 px per square;
crowns are ~14 px wide there).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from kscore.vision.read.features import CELL

#: Template size (rows, cols) at prepared scale; the crown is wider than tall.
TEMPLATE_SHAPE = (13, 17)
#: Half-size of the NMS window: two crowns side by side are ~13 px apart here.
_NMS_RADIUS = 4
#: Weakest template correlation kept as a candidate; the learned candidate
#: classifier judges the rest. 0.3 lost blurred crowns (a far board, 40-65 px per
#: square, reads 1->0 and 2->0); 0.2 halved crown errors on held-out synthetic
#: scenes (eval_synthetic --score, true corners, seed 5: 83 -> 84/98 exact;
#: seed 13: 140 -> 146/162) with grouped CV on the real boards unchanged. 0.15
#: was no better on seed 5 (83/98).
_MIN_RESPONSE = 0.2
#: Template sizes searched, relative to the learned template. (1.0, 0.8) was
#: tried for crowns printed smaller relative to the square: no gain on the
#: photos, +6 ms per board, so one size.
SCALES = (1.0,)
#: At most this many candidates per square are described (the best responses).
_PER_SQUARE = 8
#: Descriptor: Lab sampled on a (rows, cols) grid spanning the (rows, cols) patch, upright.
_GRID = (6, 8)
_SPAN = (16, 20)


@dataclass(frozen=True)
class Candidates:
    """Crown candidates of one prepared image."""

    ys: np.ndarray  # centre row, prepared-image pixels
    xs: np.ndarray
    response: np.ndarray  # template correlation, -1..1
    rotation: np.ndarray  # k of np.rot90(template, k) that matched best
    scale: np.ndarray  # index into SCALES of the template size that matched best
    patches: np.ndarray  # (n, 4, d) float32 descriptors, one per assumed orientation k


def search_channel(prepared: np.ndarray) -> np.ndarray:
    """min(B, G, R) as float32: the plane the template runs on."""
    b, g, r = cv2.split(prepared)
    return cv2.min(cv2.min(b, g), r).astype(np.float32)


def _scaled(template: np.ndarray, scale: float) -> np.ndarray:
    if scale == 1.0:
        return template.astype(np.float32)
    th, tw = template.shape
    return cv2.resize(template, (round(tw * scale), round(th * scale)), interpolation=cv2.INTER_AREA).astype(np.float32)


def find_candidates(prepared: np.ndarray, template: np.ndarray, size: int, cell: int = CELL) -> Candidates:
    """Template search in 4 orientations and a few sizes, merged by maximum, one NMS, best few per square.

    cell: the image's pixels a square (cell_crowns lays out cuts wider than a square).
    """
    h, w = prepared.shape[:2]
    # Pad so a crown touching the image edge (the top row of a board) can still
    # be centred under the template; cropped back to the image afterwards.
    pad = max(template.shape) // 2 + 1
    plane = cv2.copyMakeBorder(search_channel(prepared), pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    best = np.full(plane.shape, -1.0, np.float32)
    pose = np.zeros(plane.shape, np.int8)  # scale index * 4 + rotation
    for si, scale in enumerate(SCALES):
        scaled = _scaled(template, scale)
        for k in range(4):
            t = np.ascontiguousarray(np.rot90(scaled, k))
            th, tw = t.shape
            r = cv2.matchTemplate(plane, t, cv2.TM_CCOEFF_NORMED)
            oy, ox = th // 2, tw // 2
            sub = best[oy : oy + r.shape[0], ox : ox + r.shape[1]]
            better = r > sub
            sub[better] = r[better]
            pose[oy : oy + r.shape[0], ox : ox + r.shape[1]][better] = si * 4 + k
    best = np.ascontiguousarray(best[pad : pad + h, pad : pad + w])
    pose = pose[pad : pad + h, pad : pad + w]
    window = np.ones((2 * _NMS_RADIUS + 1,) * 2, np.uint8)
    ys, xs = np.nonzero((best >= cv2.dilate(best, window)) & (best > _MIN_RESPONSE))
    response = best[ys, xs]
    # Keep the best few per square (a busy tile can light up dozens of weak peaks).
    square = np.minimum(ys // cell, size - 1) * size + np.minimum(xs // cell, size - 1)
    order = np.lexsort((-response, square))
    rank = np.arange(len(order)) - np.searchsorted(square[order], square[order])
    keep = np.sort(order[rank < _PER_SQUARE])
    ys, xs, response = ys[keep], xs[keep], response[keep]
    rotation, scale_index = pose[ys, xs] % 4, pose[ys, xs] // 4
    lab = _described_plane(prepared)
    patches = np.stack([describe(lab, ys, xs, np.full_like(rotation, k), scale_index, response) for k in range(4)],
                       axis=1)
    return Candidates(ys, xs, response, rotation, scale_index, patches)


def crown_probability(candidate_net, candidates: Candidates) -> np.ndarray:
    """P(crown) of each candidate: the best over its four upright-turned descriptors.

    The template's own orientation guess is unreliable (a crown's outline looks
    much the same upside down), so the classifier, trained on upright crowns,
    looks at all four turns and the best one speaks.
    """
    n = len(candidates.ys)
    if n == 0:
        return np.zeros(0, np.float32)
    p = candidate_net.predict_full(candidates.patches.reshape(n * 4, -1), 2)[:, 1]
    return p.reshape(n, 4).max(axis=1)


def _grid_offsets() -> np.ndarray:
    """(scales, 4, 2, cells) image offsets (dy, dx) of the upright sampling grid per scale and rotation k."""
    rows, cols = _GRID
    out = []
    for scale in SCALES:
        uy = ((np.arange(rows) + 0.5) * _SPAN[0] / rows - _SPAN[0] / 2) * scale
        ux = ((np.arange(cols) + 0.5) * _SPAN[1] / cols - _SPAN[1] / 2) * scale
        up_y, up_x = [a.ravel() for a in np.meshgrid(uy, ux, indexing="ij")]
        per_k = []
        for k in range(4):
            # The image shows the crown as np.rot90(upright, k) (counter-clockwise k
            # quarter turns); an upright offset (y, x) appears at that rotation of it.
            y, x = up_y.copy(), up_x.copy()
            for _ in range(k):
                y, x = -x, y
            per_k.append(np.stack([y, x]))
        out.append(per_k)
    return np.round(np.array(out)).astype(np.int64)


_OFFSETS = _grid_offsets()


def _described_plane(prepared: np.ndarray) -> np.ndarray:
    """What describe samples: the prepared image's Lab after a small blur."""
    return cv2.cvtColor(cv2.blur(prepared, (3, 3)), cv2.COLOR_BGR2Lab)


def describe(
    lab: np.ndarray, ys: np.ndarray, xs: np.ndarray, rotation: np.ndarray, scale_index: np.ndarray, response: np.ndarray
) -> np.ndarray:
    """Upright Lab samples (of _described_plane) around each candidate, plus its response."""
    cells = _GRID[0] * _GRID[1]
    out = np.zeros((len(ys), cells * 3 + 1), np.float32)
    if len(ys) == 0:
        return out
    offsets = _OFFSETS[scale_index, rotation]  # (n, 2, cells)
    py = np.clip(ys[:, None] + offsets[:, 0], 0, lab.shape[0] - 1)
    px = np.clip(xs[:, None] + offsets[:, 1], 0, lab.shape[1] - 1)
    out[:, :-1] = lab[py, px].reshape(len(ys), cells * 3) / 255.0
    out[:, -1] = response
    return out


def square_of(candidates: Candidates, size: int) -> np.ndarray:
    """Index (row * size + col) of the square each candidate's centre lies in."""
    r = np.clip(candidates.ys // CELL, 0, size - 1)
    c = np.clip(candidates.xs // CELL, 0, size - 1)
    return (r * size + c).astype(np.int64)


def likeliest(squares: np.ndarray, score: np.ndarray, square: int, k: int) -> np.ndarray:
    """Indices of the k candidates in `square` with the highest score (ties in candidate order): where a
    labelled square's k crowns are taken to be (squares: square_of of the candidates).

    >>> likeliest(np.array([0, 1, 1, 1]), np.array([0.9, 0.2, 0.8, 0.8]), 1, 2).tolist()
    [2, 3]
    """
    idx = np.nonzero(squares == square)[0]
    return idx[np.argsort(-score[idx], kind="stable")[:k]]
