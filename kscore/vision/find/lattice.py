"""The regular lattice of squares: how many, where exactly, and is it there at all.

A kingdom is a grid of equal squares with thin seams between tiles (none
inside a domino, and the castle or empty border squares break some). These
functions look at a quad in a rectified view: the seams' period, the share of
inner tile edges that show a seam, and the grid line placement that puts the
most edge strength on the lines.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from kscore.vision.geometry import Quad, side_length

SIZES = (5, 7)

_LATTICE_PX = 24  # per square when scoring seams


@dataclass(frozen=True)
class LatticeFit:
    size: int
    seams: float  # share of the grid's inner tile edges that show a seam
    contrast: float  # edge strength on seams / inside squares


def _edges(image: np.ndarray, quad: Quad, size: int, px: int = _LATTICE_PX):
    side = size * px
    dst = np.float32([[0, 0], [side, 0], [side, side], [0, side]])
    hom = cv2.getPerspectiveTransform(np.float32(quad), dst)
    view = cv2.warpPerspective(image, hom, (side, side), flags=cv2.INTER_AREA)
    return colour_gradients(view)


def colour_gradients(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """|d/dx| and |d/dy| summed over the Lab channels (float32), with OpenCV's fast integer paths."""
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2Lab)
    out = []
    for dx, dy in ((1, 0), (0, 1)):
        g = cv2.convertScaleAbs(cv2.Sobel(lab, cv2.CV_16S, dx, dy, ksize=3), alpha=0.25)
        # 4 * (L + a + b) in one pass: whole numbers under 2^24, so exactly the uint16 sum times 4 that a
        # split, two adds and a conversion gave (at ~2x the time, most of it new arrays).
        out.append(cv2.transform(g.astype(np.float32), _TIMES_FOUR))
    return out[0], out[1]


_TIMES_FOUR = np.full((1, 3), 4.0, np.float32)


def lattice_evidence(image: np.ndarray, quad: Quad, size: int) -> LatticeFit:
    """How well the photo inside `quad` shows a size x size grid of tiles.

    Each inner edge between two neighbouring squares is one segment; it shows a
    seam when the edge strength along it beats the squares' own texture. Inside
    a domino there is no seam, so a real kingdom shows most, not all (about 70%
    of a 5x5's 40 inner edges at best); clutter and cloth show few.
    """
    present, seam, ref = seam_segments(image, quad, size)
    contrast = float(np.median(seam) / max(np.median(ref), 1.0))
    return LatticeFit(size, float(present.mean()), contrast)


def seam_segments(image: np.ndarray, quad: Quad, size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per inner edge segment: seam shown?, edge strength on it, the squares' texture beside it.

    Arrays of shape (2, size - 1, size): [0, k - 1, j] is the vertical grid
    line x = k between rows j and j + 1 (its j-th segment); [1, k - 1, j] the
    horizontal line y = k between columns j and j + 1.
    """
    px = _LATTICE_PX
    gx, gy = _edges(image, quad, size, px)
    lo, hi = int(px * 0.2), int(px * 0.8)
    along = (np.arange(size)[:, None] * px + np.arange(lo, hi)[None, :])[None, :, :, None]  # segment j's pixels
    lines = np.arange(1, size)[:, None] * px
    band = (lines + np.arange(-2, 3))[:, None, None, :]  # across line k: the seam's band...
    beside = (lines + np.r_[-px // 2 - 3 : -4, 4 : px // 2 + 3])[:, None, None, :]  # ...and the squares beside it
    seam = np.empty((2, size - 1, size))
    ref = np.empty_like(seam)
    for axis, g in enumerate((gx, gy.T)):  # transposed: horizontal lines become vertical ones
        seam[axis] = np.median(g[along, band].max(axis=-1), axis=-1)
        ref[axis] = np.median(g[along, beside].reshape(size - 1, size, -1), axis=-1)
    return seam > 1.6 * ref + 8, seam, ref


#: Share of inner tile edges showing a seam above which a quad is a kingdom.
MIN_SEAMS = 0.65


def fit_lattice(image: np.ndarray, quad: Quad, sizes: tuple[int, ...] | None = None) -> LatticeFit:
    """The grid size (5 or 7) whose seams the photo shows best."""
    return max((lattice_evidence(image, quad, n) for n in sizes or SIZES), key=lambda f: (f.seams, f.contrast))


def edge_maps(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Colour gradient (x, y) of the working image, lightly smoothed: computed once per photo."""
    gx, gy = colour_gradients(image)
    return cv2.GaussianBlur(gx, (0, 0), 1.0), cv2.GaussianBlur(gy, (0, 0), 1.0)


@lru_cache(maxsize=8)
def _line_samples(size: int, samples: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Grid-unit points on every grid line (vertical lines first): u, v (contiguous), and per point
    the homography column a step across its line follows (0: d/du across x = k, 1: d/dv across y = k)."""
    t = (np.arange(size * samples) + 0.5) / samples  # along a line, off the grid crossings
    k = np.arange(size + 1, dtype=np.float64)
    kk, tt = np.meshgrid(k, t, indexing="ij")
    vertical = np.stack([kk.ravel(), tt.ravel()], axis=1)  # x = k
    points = np.vstack([vertical, vertical[:, ::-1]])
    across = np.repeat([0, 1], len(vertical))
    return np.ascontiguousarray(points[:, 0]), np.ascontiguousarray(points[:, 1]), across


def seam_energy(edges: tuple[np.ndarray, np.ndarray], quad: Quad, size: int, samples: int = 8,
                cap: float | None = None) -> float:
    """Mean edge strength across all the grid's lines (outer edges included), each sample at most `cap`.

    Sampled at points along each line, taking the gradient component across the
    line (from the homography's Jacobian): peaks when the grid sits on the seams.
    """
    return seam_energies(edges, [quad], size, samples, cap)[0]


def seam_energies(edges: tuple[np.ndarray, np.ndarray], quads, size: int, samples: int = 8,
                  cap: float | None = None) -> list[float]:
    """seam_energy of each quad, computed together (the same numbers: one pass of array work for all)."""
    across = seam_samples_of(edges, quads, size, samples)
    if cap is not None:
        across = np.minimum(across, cap)
    return [float(np.mean(row)) for row in across]  # row by row: each mean sums exactly as seam_energy's did


def seam_samples(edges: tuple[np.ndarray, np.ndarray], quad: Quad, size: int, samples: int = 8) -> np.ndarray:
    """The edge strength across the grid's lines at each sample point (see seam_energy)."""
    return seam_samples_of(edges, [quad], size, samples)[0]


def seam_samples_of(edges: tuple[np.ndarray, np.ndarray], quads, size: int, samples: int = 8) -> np.ndarray:
    """seam_samples for several quads at once: shape (quads, points).

    refine_lattice and _settle_shift score many grids a step apart; per grid the
    work is a few hundred points, so numpy's per-call cost dominated (~170 calls
    a photo). Every element goes through the same float operations in the same
    order as one quad at a time would, so the samples are bit for bit the same.
    """
    gx, gy = edges
    h, w = gx.shape
    unit = np.float32([[0, 0], [size, 0], [size, size], [0, size]])
    hom = np.stack([cv2.getPerspectiveTransform(unit, np.float32(q)) for q in quads])[:, :, :, None]  # (n, 3, 3, 1)
    u, v, across = _line_samples(size, samples)
    mapped = hom[:, :, 0] * u + hom[:, :, 1] * v + hom[:, :, 2]  # (n, 3, points): x, y and the denominator, unscaled
    den = mapped[:, 2:]
    xy = mapped[:, :2] / den
    # across a vertical grid line (x = k) is d/du; across a horizontal one, d/dv
    step = hom[:, :, across, 0]  # (n, 3, points): the homography's column 0 or 1
    d = (step[:, :2] - xy * step[:, 2:]) / den
    norm = np.hypot(d[:, 0], d[:, 1]) + 1e-12
    xi = np.clip((xy[:, 0] + 0.5).astype(int), 0, w - 1)
    yi = np.clip((xy[:, 1] + 0.5).astype(int), 0, h - 1)
    at = yi * w + xi
    return (np.abs(d[:, 0]) * gx.ravel()[at] + np.abs(d[:, 1]) * gy.ravel()[at]) / norm


def shifted(quad: Quad, size: int, dx: float, dy: float, n: int | None = None) -> Quad:
    """The n x n grid (default: size) whose top-left is square (dx, dy) of the size x size grid in `quad`."""
    return shifted_all(quad, size, [(dx, dy)], n)[0]


def shifted_all(quad: Quad, size: int, steps, n: int | None = None) -> list[Quad]:
    """shifted() for each (dx, dy) in `steps`: one homography for them all (the same corners, bit for bit)."""
    n = size if n is None else n
    src = np.float32([[0, 0], [size, 0], [size, size], [0, size]])
    hom = cv2.getPerspectiveTransform(src, np.float32(quad))
    pts = np.float32([[0, 0], [n, 0], [n, n], [0, n]])[None] + np.float32(steps)[:, None]
    out = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), hom).reshape(-1, 4, 2).astype(np.float64)
    return list(out)


def refine_lattice(edges, quad: Quad, size: int, reach: float = 0.6) -> Quad:
    """Nudge corners (at most `reach` of a square) to sit the grid lines on the seams.

    Each round tries moving each corner by `step` along x and y, one move after
    another, keeping a move when it puts more edge on the lines. The moves still
    to try are scored together (seam_energies) from the grid as it stands; the
    first that gains is kept and the ones after it scored again from there: the
    same moves kept as trying them one at a time.
    """
    quad = np.asarray(quad, float).copy()
    pitch = side_length(quad) / size
    best = seam_energy(edges, quad, size)
    start = quad.copy()
    step = 0.2 * pitch
    known = {quad.tobytes(): best}  # a grid tried before (a move and its way back) is not scored again
    while step > 0.03 * pitch:
        improved = False
        first = 0
        while first < len(_MOVES):
            trials = []
            for m in range(first, len(_MOVES)):
                i, axis, sign = _MOVES[m]
                trial = quad.copy()
                trial[i, axis] += sign * step
                d = trial[i] - start[i]
                if math.sqrt(d.dot(d)) <= reach * pitch:  # np.linalg.norm's own sum, without its overhead
                    trials.append((m, trial))
            if not trials:
                break
            new = [t for _, t in trials if t.tobytes() not in known]
            known.update(zip((t.tobytes() for t in new), seam_energies(edges, new, size) if new else ()))
            energies = [known[t.tobytes()] for _, t in trials]
            gain = next((k for k, e in enumerate(energies) if e > best), None)
            if gain is None:
                break
            (m, quad), best, improved = trials[gain], energies[gain], True
            first = m + 1
        if not improved:
            step /= 2
    return quad


#: refine_lattice's moves in the order tried: (corner, axis, sign).
_MOVES = tuple((i, axis, sign) for i in range(4) for axis in range(2) for sign in (1, -1))


# ---------------------------------------------------------------- completion

_VIEW = 240  # rectified quad side while counting squares
_ROOM = 0.8  # margin round it, as a share of the side: room for missed rows


@dataclass(frozen=True)
class Period:
    pitch: float
    lines: np.ndarray  # positions of the lattice lines in the view


def _period(profile: np.ndarray, lo: float, hi: float) -> Period | None:
    """How many squares lie between lo and hi (the quad's edges), from an edge profile.

    The quad's edges come from the board's outline, so they sit on tile edges;
    the question is only how many squares fit between them. Each count is
    scored by the edge strength on its inner lines minus the strength half-way
    between them, so half the true count (every other seam) loses. The outer
    edges themselves are left out: they are strong for every count.
    """
    peak = np.maximum(profile, np.maximum(np.roll(profile, 1), np.roll(profile, -1)))
    n = len(profile)
    span = hi - lo
    scores = {}
    for count in range(3, 9):
        pitch = span / count
        teeth = np.clip(np.round(lo + np.arange(1, count) * pitch).astype(int), 0, n - 1)
        mids = np.clip(np.round(lo + (np.arange(count) + 0.5) * pitch).astype(int), 0, n - 1)
        scores[count] = float(peak[teeth].mean() - profile[mids].mean())
    count = max(scores, key=scores.get)
    if scores[count] <= 0:
        return None
    pitch = span / count
    return Period(pitch, lo + np.arange(-8, count + 9) * pitch)


def _view_edges(view: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return colour_gradients(view)


def _tileness(vfg, g_across, x0, x1, y_lines, pitch) -> float:
    """How much the strip x0..x1 (spanning the grid's rows y_lines) looks like tiles.

    Tiles: unlike the table (foreground) and crossed by the other axis's seams
    at the lattice's positions. g_across is the edge map across those seams,
    laid out [y, x].
    """
    h, w = vfg.shape
    a, b = int(max(round(x0 + 0.15 * pitch), 0)), int(min(round(x1 - 0.15 * pitch), w))
    y0, y1 = int(max(y_lines[0], 0)), int(min(y_lines[-1], h))
    if b <= a or y1 <= y0:
        return 0.0
    fgm = float(vfg[y0:y1, a:b].mean())
    on = [g_across[max(int(round(y)) - 1, 0) : int(round(y)) + 2, a:b].max(axis=0).mean() for y in y_lines[1:-1] if 0 < y < h - 1]
    mids = (y_lines[:-1] + y_lines[1:]) / 2
    off = [g_across[int(round(y)), a:b].mean() for y in mids if 0 <= y < h]
    if not on or not off:
        return fgm
    ratio = (np.mean(on) + 1.0) / (np.mean(off) + 1.0)
    return fgm + 0.5 * min(max(ratio - 1.0, 0.0), 2.0)


def complete_lattice(image: np.ndarray, fg: np.ndarray, quad: Quad) -> tuple[list[Quad], int | None]:
    """Count the squares the quad spans; add rows/columns the colours missed.

    Returns the grid's quad and its size; several quads (each placement of the
    missing rows) when the colours can't say on which side they lie but one
    side of the quad shows all its squares, so the size is sure; [quad] and
    None when the seams' period can't be read (fit_lattice then decides).
    """
    side, room = _VIEW, int(_ROOM * _VIEW)
    full = side + 2 * room
    dst = np.float32([[room, room], [room + side, room], [room + side, room + side], [room, room + side]])
    hom = cv2.getPerspectiveTransform(np.float32(quad), dst)
    view = cv2.warpPerspective(image, hom, (full, full), flags=cv2.INTER_LINEAR)
    vfg = cv2.warpPerspective(fg, hom, (full, full), flags=cv2.INTER_LINEAR)
    gx, gy = _view_edges(view)
    inner = slice(room + side // 20, room + side - side // 20)
    px = _period(gx[inner].mean(axis=0), room, room + side)
    py = _period(gy[:, inner].mean(axis=1), room, room + side)
    if px is None or py is None:
        return [quad], None
    ends = []
    for period in (px, py):
        i0 = int(np.argmin(np.abs(period.lines - room)))
        i1 = int(np.argmin(np.abs(period.lines - (room + side))))
        ends.append([i0, i1])
    counts = [e[1] - e[0] for e in ends]
    size = min(SIZES, key=lambda n: (abs(n - counts[0]) + abs(n - counts[1]), n))
    if abs(size - counts[0]) + abs(size - counts[1]) > 4:
        return [quad], None
    # adjust columns (axis 0, seams across: gy) then rows (axis 1, seams across: gx)
    columns = _line_ranges(ends[0], size, px, py.lines[ends[1][0] : ends[1][1] + 1], vfg, gy)
    if not columns:
        return [quad], None
    span = columns[0] if len(columns) == 1 else ends[0]  # the rows' tileness is judged across these columns
    options = [columns, _line_ranges(ends[1], size, py, px.lines[span[0] : span[1] + 1], vfg.T, gx.T)]
    inv = np.linalg.inv(hom)
    quads = []
    for e0 in options[0]:
        for e1 in options[1]:
            x0, x1 = px.lines[e0[0]], px.lines[e0[1]]
            y0, y1 = py.lines[e1[0]], py.lines[e1[1]]
            corners = np.float32([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]).reshape(-1, 1, 2)
            quads.append(cv2.perspectiveTransform(corners, inv).reshape(4, 2).astype(np.float64))
    if not quads or (len(quads) > 1 and size not in counts):
        # No room for the rows, or the colours couldn't place them and neither
        # side shows all its squares: the period may be misread (a steep view).
        return [quad], None
    return quads, size


def _line_ranges(ends: list[int], size: int, period: Period, y_lines: np.ndarray, fg_view, across) -> list[list[int]]:
    """The line index ranges [first, last] spanning `size` squares along one axis, grown or shrunk from `ends`.

    A row is added on the side that clearly holds tiles (see _tileness);
    when neither does, every split of the rows still missing is returned,
    for the seams to decide. [] when the lattice runs out of lines.
    """
    lines = period.lines
    e = list(ends)
    while e[1] - e[0] > size:
        left = _tileness(fg_view, across, lines[e[0]], lines[e[0] + 1], y_lines, period.pitch)
        right = _tileness(fg_view, across, lines[e[1] - 1], lines[e[1]], y_lines, period.pitch)
        if left < right:
            e[0] += 1
        else:
            e[1] -= 1
    while e[1] - e[0] < size:
        if e[0] == 0 or e[1] == len(lines) - 1:
            return []
        left = _tileness(fg_view, across, lines[e[0] - 1], lines[e[0]], y_lines, period.pitch)
        right = _tileness(fg_view, across, lines[e[1]], lines[e[1] + 1], y_lines, period.pitch)
        # Only when one side clearly holds tiles: a wrong guess costs a whole row.
        if max(left, right) < 0.3 or max(left, right) < 1.5 * min(left, right):
            missing = size - (e[1] - e[0])
            return [[e[0] - k, e[1] + missing - k] for k in range(missing + 1)
                    if e[0] - k >= 0 and e[1] + missing - k <= len(lines) - 1]
        if left > right:
            e[0] -= 1
        else:
            e[1] += 1
    return [e]


# ---------------------------------------------------------------- final fit

_FIT_PX = 32  # per square in the final fit's rectified view


def _seam_observations(g: np.ndarray, size: int, px: int, m: int, window: float = 0.3):
    """Sub-pixel seam positions across the vertical grid lines of a rectified view.

    g is the gradient across those lines (|d/dx|), the grid spanning [m, m+size*px].
    Per line k and half-square along it: (x, y, k, strength), where the edge
    profile peaks within `window` squares of the line; strength is the peak over
    the profile's median (no seam inside a domino: a weak, random peak).
    """
    half = px // 2
    r = int(window * px)
    rows = slice(int(0.1 * half), int(0.9 * half))  # of each half square: off the grid crossings
    ys = m + np.arange(2 * size) * half + (rows.start + rows.stop) / 2
    los = m + np.arange(size + 1) * px - r
    width = 2 * r + 1
    if los[0] < 1 or los[-1] + width > g.shape[1] - 1 or g.shape[0] < m + size * px:
        return _seam_observations_line_by_line(g, size, px, m, r, rows, ys)
    # Every line's window at once, as a view (line, half square, row, column across the line): the same
    # numbers as line by line (fit_seam_homography's views always leave the room), ~3x faster.
    band = g[m : m + size * px]
    s0, s1 = band.strides
    view = np.lib.stride_tricks.as_strided(band[:, los[0]:], (size + 1, 2 * size, half, width),
                                           (px * s1, half * s0, s0, s1), writeable=False)
    prof = view[:, :, rows].mean(axis=2)
    i = np.argmax(prof, axis=2)
    ok = (i > 0) & (i < width - 1)
    k, j = np.nonzero(ok)  # line by line, half squares in order, as the loop gave them
    i = i[ok]
    a, b, cc = prof[k, j, i - 1], prof[k, j, i], prof[k, j, i + 1]
    den = a - 2 * b + cc
    off = np.where(den < 0, 0.5 * (a - cc) / np.where(den < 0, den, -1.0), 0.0)
    strength = b / np.maximum(np.median(prof[k, j], axis=1), 1.0)
    return np.column_stack([los[k] + i + off, ys[j], k, strength])


def _seam_observations_line_by_line(g: np.ndarray, size: int, px: int, m: int, r: int, rows: slice, ys: np.ndarray):
    """_seam_observations one line at a time, where a line's window runs into the view's edge."""
    half = px // 2
    out = []
    for k in range(size + 1):
        c = m + k * px
        lo, hi = max(c - r, 1), min(c + r + 1, g.shape[1] - 1)
        prof = g[m : m + size * px, lo:hi].reshape(2 * size, half, hi - lo)[:, rows].mean(axis=1)
        i = np.argmax(prof, axis=1)
        ok = (i > 0) & (i < hi - lo - 1)
        j = np.nonzero(ok)[0]
        i = i[ok]
        a, b, cc = prof[j, i - 1], prof[j, i], prof[j, i + 1]
        den = a - 2 * b + cc
        off = np.where(den < 0, 0.5 * (a - cc) / np.where(den < 0, den, -1.0), 0.0)
        strength = b / np.maximum(np.median(prof[j], axis=1), 1.0)
        out.append(np.column_stack([lo + i + off, ys[j], np.full(len(j), k), strength]))
    return np.vstack(out) if out else np.zeros((0, 4))


def fit_seam_homography(image: np.ndarray, quad: Quad, size: int, min_strength: float = 1.6, max_move: float = 0.3) -> Quad:
    """The grid's corners re-fitted to the seams themselves, to a fraction of a pixel.

    In a rectified view, each grid line's seam is located per half square
    (sub-pixel peak of the edge profile across it); one homography maps those
    points onto their grid lines in least squares, refitted without the points
    it explains worst (no seam inside a domino, a standing castle's walls). A
    line constraint u(p) = k is linear in the homography's entries. The quad
    comes back unchanged when the seams are too few or a corner would move
    more than `max_move` squares.
    """
    px = _FIT_PX
    m = px // 2
    full = size * px + 2 * m
    dst = np.float32([[m, m], [m + size * px, m], [m + size * px, m + size * px], [m, m + size * px]])
    hom = cv2.getPerspectiveTransform(np.float32(quad), dst)
    view = cv2.warpPerspective(image, hom, (full, full), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    gx, gy = colour_gradients(view)
    gx, gy = cv2.GaussianBlur(gx, (0, 0), 1.0), cv2.GaussianBlur(gy, (0, 0), 1.0)
    vert = _seam_observations(gx, size, px, m)
    hor = _seam_observations(gy.T, size, px, m)[:, [1, 0, 2, 3]]  # back to (x, y, k, strength)
    obs = [o[o[:, 3] >= min_strength] for o in (vert, hor)]
    if min(len(o) for o in obs) < 3 * size or any(len(np.unique(o[:, 2])) < 3 for o in obs):
        return quad
    # grid coordinates from view ones: u = (a.p)/(c.p), v = (b.p)/(c.p), p = (x', y', 1), c3 = 1
    pts = [np.column_stack([(o[:, :2] - m) / px, np.ones(len(o))]) for o in obs]
    keep = [np.ones(len(o), bool) for o in obs]
    g = None
    for _ in range(4):
        rows, rhs = [], []
        for axis, (p, o, kp) in enumerate(zip(pts, obs, keep)):
            p, k, wgt = p[kp], o[kp, 2], np.sqrt(np.minimum(o[kp, 3], 4.0))
            row = np.zeros((len(p), 8))
            row[:, 3 * axis : 3 * axis + 3] = p  # a.p (axis 0) or b.p (axis 1)
            row[:, 6:8] = -k[:, None] * p[:, :2]  # - k * (c1 x + c2 y)
            rows.append(row * wgt[:, None])
            rhs.append(k * wgt)
        sol, *_ = np.linalg.lstsq(np.vstack(rows), np.concatenate(rhs), rcond=None)
        g = np.append(sol, 1.0).reshape(3, 3)
        resid = []
        for axis, (p, o) in enumerate(zip(pts, obs)):
            q = p @ g.T
            resid.append(np.abs(q[:, axis] / q[:, 2] - o[:, 2]))
        new_keep = [r < max(0.04, 2.5 * float(np.median(r[kp]))) for r, kp in zip(resid, keep)]
        if min(int(k.sum()) for k in new_keep) < 3 * size:
            break
        keep = new_keep
    grid = np.float64([[0, 0, 1], [size, 0, 1], [size, size, 1], [0, size, 1]])
    view_pts = grid @ np.linalg.inv(g).T
    view_pts = view_pts[:, :2] / view_pts[:, 2:] * px + m
    if np.max(np.linalg.norm(view_pts - dst, axis=1)) > max_move * px:
        return quad  # ran away: not the lattice the coarse fit found
    back = cv2.perspectiveTransform(view_pts.reshape(-1, 1, 2).astype(np.float64), np.linalg.inv(hom))
    return back.reshape(4, 2)


# ---------------------------------------------------------------- beyond the grid

#: Mean foreground of a square's middle above which a square just outside a grid is tile.
BEYOND_TILE = 0.6


def squares_beyond(fg: np.ndarray, quad: Quad, size: int) -> int:
    """How many squares of the ring just outside a size x size grid are tile (fg: the foreground map).

    The outline of a square block frames a 6x6 kingdom of a 7x7 game, laid by
    hand, as 5x5: the tiles go on past the grid, on its lattice. Beside a whole
    kingdom lies table (or a stray domino, further off). Each square's middle
    (its central 60%) is looked at, in a view of 8 px a square: cheap.
    """
    n, px = size + 2, 8
    grown = shifted(quad, size, -1, -1, n)
    side = n * px
    hom = cv2.getPerspectiveTransform(np.float32(grown), np.float32([[0, 0], [side, 0], [side, side], [0, side]]))
    view = cv2.warpPerspective(fg.astype(np.float32), hom, (side, side), flags=cv2.INTER_AREA)
    middle = view.reshape(n, px, n, px)[:, 1:-1, :, 1:-1].mean(axis=(1, 3))  # (row, col)
    ring = np.ones((n, n), bool)
    ring[1:-1, 1:-1] = False
    return int(np.sum(ring & (middle >= BEYOND_TILE)))
