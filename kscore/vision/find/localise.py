"""Find every kingdom's grid in a photo, without clicks.

Stages, each a pure function on arrays:
1. `foreground`: colours that the photo's border strip (the table, mostly)
   does not show. Tiles are saturated and varied; a table, cloth or mat is a
   few colours that also fill the border. Colours are compared as a smoothed
   3D histogram so a lake tile on a navy cutting mat still differs by shade.
2. `candidate_quads`: cleaned-up blobs of foreground -> outline quadrilaterals
   (a long blob at the photo's edge, maybe a kingdom joined to a bright patch
   of table there, also in parts).
3. `refine_quad`: in a rectified view with a margin, fit a straight line to the
   board's edge on each side (where foreground ends), intersect -> corners.
   Repeated, so perspective left by the first guess shrinks each time.
4. lattice.py: the seams' period says how many squares the quad spans; a
   row or column the colours missed (lake tiles on a blue mat) is added back
   on the side that looks like tiles (when neither side does, each placement
   is settled on its seams and the best kept); the grid size (5 or 7) is the one whose
   seams the board shows, clutter shows none; finally the grid lines are
   nudged onto the seams.
A board filling the whole photo (a cropped top-down board) has no border
strip to learn the table from; it is tried as a whole-image quad, and first,
before any colour blob, when that quad's lattice fits the whole frame.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import cv2
import numpy as np

from kscore.vision.geometry import Quad, photo_order, quad_area, scaled_quad, side_length, side_lengths
from kscore.vision.find.lattice import MIN_SEAMS, complete_lattice, edge_maps, fit_lattice, fit_seam_homography, lattice_evidence, refine_lattice, seam_energies, seam_energy, seam_samples, seam_segments, shifted, shifted_all, squares_beyond
from kscore.vision.load import Photo
from kscore.vision.morphology import with_disc

WORK_LONG_SIDE = 800  # localisation resolution: corners to ~1/300 of a board
#: Seams shown by the photo taken whole, above which it is one board cut to its grid.
FULL_FRAME_SEAMS = 0.8  # the 54 labelled boards: 0.88 to 0.99
MIN_PARTIAL_SEAMS = 0.3
#: Local grey contrast (upper quartile, grey levels) a partial kingdom's region must show: see _textured.
MIN_TEXTURE = 3.0
#: Share of each side left out of its border strip at either end (see _border_likeness).
CORNER_SKIP = 0.1
#: Pieces per side of the border strip, and the colour share with the strip's median below which a piece is not table.
SEGMENTS = 8
TABLE_SHARE = 0.5
#: Grey contrast (upper quartile, 7x7) of a piece's unlike-table pixels above which they are tiles (clutter: <= 4).
TILE_DETAIL = 5.0
#: Share of a grid the colours must have found when no other grid settled (see _examine).
HALF = 0.5
#: Grids adding back a row or column the outline missed that are polished (those showing most seams as they stand).
MISSED_ROW_TRIES = 3
#: Opposite sides' mean lengths differing more than this: not one kingdom (45 degrees of tilt gives ~1.4).
SPLIT_ASPECT = 1.75
#: Seam refits letting a misplaced corner walk onto the lattice (synthetic: 8 gain nothing over 4).
WALK_STEPS = 4
#: A shifted grid must put this much more edge on its lines to replace the grid found.
SHIFT_GAIN = 1.02
#: Percentile of the grid's own edge samples at which every sample is capped when comparing shifts.
SHIFT_CAP = 75
#: Share of a partial kingdom's pixels that must be saturated (see _tile_colours).
TILE_SATURATED = 0.7
#: Squares along the photo's edge a kingdom's colours must run to be cut there whatever its outline says.
CUT_RUN = 1.5
#: ... and at least this many squares when its outline reaches that edge too: under it, a board turned
#: ~45 degrees whose corner lies a pixel inside the photo or just past it, the grid decides (see _partial).
NEAR_RUN = 0.25
#: Seam share below which the size counted is in doubt, and how close the other size's share on the
#: rough outline must come for both grids to be polished and compared.
SURE_SEAMS = 0.9
SIZE_DOUBT = 0.4
#: A blob at the photo's edge longer than this (long over short side) is also tried in parts (see candidate_quads).
JOINED_ASPECT = 1.4
#: A photo is one kingdom cut tight to its grid, read before any colour blob is examined (see _tight_crop),
#: when the other grid size shows TIGHT_MARGIN fewer seams over the whole frame (the 54 labelled boards:
#: 0.30 fewer and more; board 1 cut a quarter of a square inside its grid on two sides: 0.10).
TIGHT_MARGIN = 0.2
#: How near (in squares) a kingdom's outline must end to a frame-wide lattice line to end on it (see _frame_around_cut_kingdom).
ON_LINE = 0.2


@dataclass(frozen=True)
class FoundBoard:
    """One kingdom found in a photo.

    corners: TL, TR, BR, BL as the photo shows them, in original photo pixels
    (for a partial board: the visible part's outline). partial: cut by the
    photo's edge; `missing` says where and roughly how much.
    """

    corners: np.ndarray
    size: int
    partial: bool = False
    missing: str = ""
    seams: float = 0.0  # share of inner tile edges showing a seam
    contrast: float = 0.0  # edge strength on the seams / inside the squares
    cut: tuple[str, ...] = ()  # the photo's edges a partial board runs off: "left", "right", "top", "bottom"
    #: Squares of the ring just outside a 5x5 grid that are tile (lattice.squares_beyond): a kingdom of a
    #: 7x7 game larger than the square block its outline framed goes on past it.
    beyond: int = 0


@dataclass(frozen=True)
class Working:
    """What localise made of a photo that find.loose starts from too, for a photo with no whole grid or a grid
    in doubt (app.pipeline hands it on): the image at localisation resolution and the factor back to the
    photo's pixels (working_image: ~7 ms), and its foreground (~25 ms; None when localise read a tight crop
    before making it). Read-only: both finders are handed the very arrays."""

    image: np.ndarray
    factor: float
    foreground: np.ndarray | None = None


@dataclass(frozen=True)
class Localisation:
    boards: tuple[FoundBoard, ...]
    seen: str  # what the photo showed, for the "nothing found" message
    #: The largest tile-coloured region outside every whole kingdom found, in that kingdom's squares: another
    #: kingdom laid by hand, or the draft line, that no grid frames (tiles_elsewhere).
    elsewhere: float = 0.0
    #: What localise made of the photo, for find.loose to start from (app.pipeline hands it on).
    working: Working | None = field(default=None, repr=False, compare=False)


# ----------------------------------------------------------------- stage 1


def working_image(image: np.ndarray, long_side: int = WORK_LONG_SIDE) -> tuple[np.ndarray, float]:
    """The image at localisation resolution and the factor back to `image` pixels (localise's is handed on
    with its result: Localisation.working)."""
    original = max(image.shape[:2])
    factor = original / long_side
    if factor <= 1:
        return image, 1.0
    while factor >= 2:  # halving first: cheap, and the final linear resize then barely aliases
        image = cv2.pyrDown(image)
        factor /= 2
    if factor > 1.05:
        image = cv2.resize(image, None, fx=1 / factor, fy=1 / factor, interpolation=cv2.INTER_LINEAR)
    return image, original / max(image.shape[:2])


def foreground(image: np.ndarray, strip: float = 0.04, bins: int = 24, skip: np.ndarray | None = None) -> np.ndarray:
    """Per pixel in [0, 1]: how unlike the photo's border strip its colour is.

    Parts of the strip that look like tiles, not table (see _tile_segments,
    or `skip` when given), teach nothing. Shadows on the table (the
    photographer, a lamp) are darker than the border but keep its
    chromaticity and smoothness: they are taken out again.
    """
    h, w = image.shape[:2]
    blurred = cv2.GaussianBlur(image, (5, 5), 0)
    lab = cv2.cvtColor(blurred, cv2.COLOR_BGR2Lab)
    grey = lab[..., 0].astype(np.float32)
    mean, std = _local_contrast(grey, 7)
    s = max(2, int(strip * min(h, w)))
    if skip is None:
        skip = _tile_segments(lab, std, s)
    border = border_mask(h, w, s)
    table = border & ~skip if (border & ~skip).any() else border
    fg = _unlike_border(lab, s, bins, skip)
    chroma_like = _chroma_likeness(blurred, s, skip)  # chromaticity (intensity-free) likeness for the shadow test
    texture2 = _ramp_free_variance(std, mean)
    smooth_limit = 1.5 * float(np.sqrt(np.percentile(texture2[table], 75))) + 3.0
    darker = grey < float(np.median(grey[table]))
    shadow = np.multiply(chroma_like, darker, out=chroma_like)
    shadow *= texture2 < smooth_limit**2
    np.subtract(1.0, shadow, out=shadow)
    fg *= shadow
    return fg


# The two helpers below and foreground's last steps work the same float32 steps as ever in arrays already
# made, and their working-size temporaries die on return: each new working-size array cost page faults
# when scoring photo after photo (foreground took ~10 ms more in a run than alone).


def _unlike_border(lab: np.ndarray, s: int, bins: int, skip: np.ndarray) -> np.ndarray:
    """1 - how typical each pixel's Lab colour (binned bins^3) is of the border strip."""
    # Each channel's bin, already multiplied out into the 3D histogram's flat index, by table: one pass.
    ql, qa, qb = cv2.split(cv2.LUT(lab, _bin_offsets(bins)))
    fg = _border_likeness(cv2.add(cv2.add(ql, qa, dst=ql), qb, dst=ql), s, (bins,) * 3, skip)
    return np.subtract(1.0, fg, out=fg)


def _chroma_likeness(blurred: np.ndarray, s: int, skip: np.ndarray, cb: int = 32) -> np.ndarray:
    """How typical each pixel's chromaticity (r and g shares, cb bins each) is of the border strip."""
    b, g, r = (np.add(channel, 1.0, dtype=np.float32) for channel in cv2.split(blurred))
    total = np.add(b, g, out=b)
    total += r
    chroma = _chroma_bin(r, total, cb)
    chroma *= cb
    chroma += _chroma_bin(g, total, cb)
    return _border_likeness(chroma, s, (cb, cb), skip)


@lru_cache(maxsize=4)
def _bin_offsets(bins: int) -> np.ndarray:
    """A 3-channel lookup table: Lab value v -> its bin (v * bins >> 8) times the channel's stride in a bins^3 histogram."""
    level = (np.arange(256, dtype=np.uint16) * bins) >> 8
    return np.stack([level * bins * bins, level * bins, level], axis=1).reshape(1, 256, 3).astype(np.uint16)


def _chroma_bin(channel: np.ndarray, total: np.ndarray, cb: int) -> np.ndarray:
    """min(channel / total * 3 * cb / 2, cb - 1) as int32: the same float32 steps, in place."""
    share = channel / total
    share *= 3
    share *= cb
    share /= 2
    return np.minimum(share, cb - 1, out=share).astype(np.int32)


def border_mask(h: int, w: int, s: int) -> np.ndarray:
    """The pixels within s of an h x w image's edges: where the table shows in a photo of a kingdom.

    >>> border_mask(4, 5, 1).astype(int).tolist()
    [[1, 1, 1, 1, 1], [1, 0, 0, 0, 1], [1, 0, 0, 0, 1], [1, 1, 1, 1, 1]]
    """
    border = np.zeros((h, w), bool)
    border[:s], border[-s:], border[:, :s], border[:, -s:] = True, True, True, True
    return border


def _ramp_free_variance(std: np.ndarray, mean: np.ndarray) -> np.ndarray:
    """Local grey variance (7x7) less what a straight ramp of the local slope gives.

    A shadow's soft edge is a ramp from lit table to shade: its plain std
    made it pass for texture, and its rim for tiles (a 7x7 box over a ramp
    of slope g has variance 4 g^2; Sobel gives 8 g). Tiles' detail is not a ramp.
    """
    gx = cv2.Sobel(mean, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(mean, cv2.CV_32F, 0, 1, ksize=3)
    ramp = cv2.add(cv2.multiply(gx, gx, dst=gx), cv2.multiply(gy, gy, dst=gy), dst=gx)
    return cv2.max(cv2.scaleAdd(ramp, -1.0 / 16, cv2.multiply(std, std, dst=gy), dst=gy), 0.0, dst=gy)


def _strip_segments(h: int, w: int, s: int, per_side: int = SEGMENTS) -> list[tuple[slice, slice]]:
    """The border strips (short of the corners, as in _border_likeness) cut into equal pieces."""
    cx, cy = int(CORNER_SKIP * w), int(CORNER_SKIP * h)
    out = []
    xs = np.linspace(cx, w - cx, per_side + 1).astype(int)
    ys = np.linspace(cy, h - cy, per_side + 1).astype(int)
    for rows in (slice(0, s), slice(h - s, h)):
        out += [(rows, slice(a, b)) for a, b in zip(xs[:-1], xs[1:])]
    for cols in (slice(0, s), slice(w - s, w)):
        out += [(slice(a, b), cols) for a, b in zip(ys[:-1], ys[1:])]
    return out


def _tile_segments(lab: np.ndarray, std: np.ndarray, s: int) -> np.ndarray:
    """Mask of the border strip's pieces that show tiles rather than table.

    The table is what most of the strip shows: a piece whose colours (a, b
    only: light is uneven) share under TABLE_SHARE with the pieces' median is
    something else, and when that something shows detail (TILE_DETAIL) it is
    a kingdom cut by the photo's edge, whose colours must not pass for table.
    Flat clutter (cards, boxes) shows none and stays. Synthetic strips (seed
    11 partial, 3 usual): 182/258 pieces of tiles left out, 1/4754 of table.
    """
    h, w = lab.shape[:2]
    segments = _strip_segments(h, w, s)
    bins = []
    for box in segments:
        ab = lab[box][..., 1:].reshape(-1, 2).astype(np.int32) // 16
        bins.append(ab[:, 0] * 16 + ab[:, 1])
    counts = np.array([np.bincount(b, minlength=256) for b in bins], np.float32).reshape(-1, 16, 16)
    hists = _blur_bins(counts, axes=(1, 2)).reshape(len(bins), -1)  # each piece's histogram blurred on its own
    hists /= np.maximum(hists.sum(axis=1, keepdims=True), 1e-9)
    profile = np.median(hists, axis=0)
    profile /= max(float(profile.sum()), 1e-9)
    share = np.minimum(hists, profile).sum(axis=1)
    skip = np.zeros((h, w), bool)
    odd = []
    for box, b, sh in zip(segments, bins, share):
        if sh >= TABLE_SHARE:
            odd.append(False)
            continue
        other = profile[b] < 0.2 * profile.max()  # the piece's pixels unlike the table
        detail = float(np.percentile(std[box].ravel()[other], 75)) if other.sum() > 20 else 0.0
        odd.append(detail > TILE_DETAIL)
    if np.mean(odd) < 0.5:  # else there is no majority to call table
        for box, out in zip(segments, odd):
            skip[box] = out
    return skip


def _border_likeness(index: np.ndarray, s: int, shape: tuple[int, ...], skip: np.ndarray | None = None) -> np.ndarray:
    """Per pixel in [0, 1]: how typical its (binned) colour is of the photo's edges.

    Each side's strip votes separately and a colour must be common on two
    sides: a kingdom cut by one edge of the photo fills part of that side's
    strip, and its colours must not become "table".
    """
    n = int(np.prod(shape))
    all_hist = _blur_bins(np.bincount(index.ravel(), minlength=n).astype(np.float32).reshape(shape))
    # The strips stop short of the photo's corners: a kingdom cut by a corner
    # fills both strips there and would pass for table, being on two sides.
    h, w = index.shape
    cx, cy = int(CORNER_SKIP * w), int(CORNER_SKIP * h)
    boxes = ((slice(0, s), slice(cx, w - cx)), (slice(h - s, h), slice(cx, w - cx)),
             (slice(cy, h - cy), slice(0, s)), (slice(cy, h - cy), slice(w - s, w)))
    ratios = []
    for box in boxes:
        strip = index[box] if skip is None else index[box][~skip[box]]
        if strip.size < 0.1 * index[box].size:
            continue  # a side that is all tiles teaches nothing
        hist = _blur_bins(np.bincount(strip.ravel(), minlength=n).astype(np.float32).reshape(shape))
        share = strip.size / index.size
        ratios.append(np.clip(hist / np.maximum(all_hist, 1e-3) / share, 0, 1).reshape(-1))
    second = np.sort(np.stack(ratios), axis=0)[-min(2, len(ratios))]  # common on at least two sides
    return np.take(second, index)


def _blur_bins(hist: np.ndarray, axes: tuple[int, ...] | None = None) -> np.ndarray:
    """[1 2 1]/4 along every axis, or along `axes` only (zero outside)."""
    for axis in range(hist.ndim) if axes is None else axes:
        padded = np.pad(hist, [(1, 1) if a == axis else (0, 0) for a in range(hist.ndim)])
        lo = np.take(padded, range(0, hist.shape[axis]), axis=axis)
        hi = np.take(padded, range(2, hist.shape[axis] + 2), axis=axis)
        hist = 0.5 * hist + 0.25 * (lo + hi)
    return hist


# ----------------------------------------------------------------- stage 2


def candidate_quads(fg: np.ndarray, min_area_frac: float = 0.015) -> list[tuple[Quad, np.ndarray, bool]]:
    """Outline quads of large foreground blobs, with each blob's mask and whether it is a part of a blob also tried whole.

    Kingdoms laid close together merge into one blob; a blob that is not one
    quad is eroded until it falls apart, and each part is tried on its own.
    """
    h, w = fg.shape
    mask = (cv2.GaussianBlur(fg, (0, 0), 1.5) > 0.5).astype(np.uint8)
    k = max(3, int(min(h, w) * 0.006)) | 1
    opened = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))  # thin mat lines, specks
    mask = _close(opened, 3 * k)  # seams, dim tiles
    min_area = min_area_frac * h * w
    out = []
    for blob, contour in _blobs(mask, min_area):
        quad = _blob_quad(contour)
        if quad is not None and cv2.contourArea(contour) > 0.8 * quad_area(quad) and _aspect(quad) < SPLIT_ASPECT:
            out.append((quad, blob, False))
            if _touches_edge(blob) and _aspect(quad) > JOINED_ASPECT:
                # Long and at the photo's edge: a kingdom joined to something
                # there (a bright patch of table) as well as a cut one. Its
                # parts are tried too (see localise).
                out += [(q, part, True) for part, c in _split(blob, opened & blob, k, min_area)
                        for q in [_blob_quad(c)] if q is not None]
            continue
        parts = _split(blob, opened & blob, k, min_area)
        for part, part_contour in parts or [(blob, contour)]:
            quad = _blob_quad(part_contour)
            if quad is not None:
                out.append((quad, part, False))
    return out


def _close(mask: np.ndarray, k: int) -> np.ndarray:
    """Morphological closing with the photo's outside empty.

    OpenCV's erosion treats pixels past the image as set, so a closing glued
    any blob within half a kernel of the photo's edge onto it, and a whole
    board a few pixels from the edge passed for one cut by it.
    """
    padded = cv2.copyMakeBorder(mask, k, k, k, k, cv2.BORDER_CONSTANT, value=0)
    closed = cv2.morphologyEx(padded, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    return closed[k:-k, k:-k]


def _blobs(mask: np.ndarray, min_area: float) -> list[tuple[np.ndarray, np.ndarray]]:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = []
    for contour in sorted(contours, key=cv2.contourArea, reverse=True):
        if cv2.contourArea(contour) < min_area:
            break
        blob = np.zeros(mask.shape, np.uint8)
        cv2.drawContours(blob, [contour], -1, 1, -1)
        out.append((blob, contour))
    return out


def _blob_quad(contour: np.ndarray) -> Quad | None:
    quad = _hull_to_quad(cv2.convexHull(contour))
    return None if quad is None else _fit_sides(contour.reshape(-1, 2).astype(np.float64), quad)


def _split(blob: np.ndarray, unclosed: np.ndarray, k: int, min_area: float) -> list[tuple[np.ndarray, np.ndarray]]:
    """The blob's parts once eroded apart (each grown back inside the blob), or [].

    Eroded from the mask before its gaps were closed: the gap between two
    kingdoms is often narrower than what closing fills.
    """
    for grow in (1, 2, 4, 7):
        kernel = np.ones((grow * k, grow * k), np.uint8)
        parts = _blobs(cv2.erode(unclosed, kernel), min_area / 2)
        if len(parts) >= 2:
            return [(b, c) for b, c in (_regrow(p, kernel, blob) for p, _ in parts) if c is not None]
    return []


def _regrow(part: np.ndarray, kernel: np.ndarray, blob: np.ndarray):
    grown = cv2.dilate(part, kernel) & blob
    contours, _ = cv2.findContours(grown, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return grown, (max(contours, key=cv2.contourArea) if contours else None)


def _aspect(quad: Quad) -> float:
    """Long over short, from the means of opposite sides."""
    sides = side_lengths(quad)
    a, b = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    return max(a, b) / max(min(a, b), 1e-9)


def _hull_to_quad(hull: np.ndarray) -> Quad | None:
    perimeter = cv2.arcLength(hull, True)
    for eps in np.linspace(0.01, 0.12, 23):
        approx = cv2.approxPolyDP(hull, eps * perimeter, True)
        if len(approx) == 4:
            return approx.reshape(4, 2).astype(np.float64)
        if len(approx) < 4:
            break
    rect = cv2.boxPoints(cv2.minAreaRect(hull))
    return rect.astype(np.float64)


def _fit_sides(points: np.ndarray, quad: Quad) -> Quad:
    """Refit each side of a rough quad as the dominant straight run of the outline.

    A standing castle or a touching object bulges the outline; a side's line is
    the one most outline points agree with (RANSAC), so a bulge is ignored.
    """
    rng = np.random.default_rng(0)
    side_len = side_length(quad)
    tol = max(1.5, 0.01 * side_len)
    pts = _densified(points)
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        d = b - a
        length = np.linalg.norm(d)
        u = d / max(length, 1e-9)
        rel = pts - a
        along = rel @ u
        across = rel @ np.array([-u[1], u[0]])
        near = pts[(along > -0.1 * length) & (along < 1.1 * length) & (np.abs(across) < 0.15 * length)]
        if len(near) < 10:
            lines.append(np.array([a, b]))
            continue
        best = _most_inliers(near, rng, 0.2 * length, tol)
        if best is None:
            lines.append(np.array([a, b]))
            continue
        p, v = best
        dist = np.abs((near - p) @ np.array([-v[1], v[0]]))
        inl = near[dist < tol]
        centre = inl.mean(axis=0)
        _, vecs = np.linalg.eigh(np.cov((inl - centre).T))
        direction = vecs[:, -1]  # principal axis of the inliers
        lines.append(np.array([centre, centre + direction]))
    corners = [_intersect(lines[i - 1], lines[i]) for i in range(4)]
    if any(c is None for c in corners):
        return quad
    out = np.array(corners, float)
    if np.max(np.linalg.norm(out - quad, axis=1)) > 0.25 * side_len:
        return quad  # the refit ran away: keep the rough quad
    return out


def _densified(points: np.ndarray, step: float = 2.0) -> np.ndarray:
    """The closed outline with a point every `step` pixels, so long straight runs have many.

    >>> _densified(np.array([[0.0, 0.0], [4.0, 0.0], [4.0, 2.0]])).tolist()
    [[0.0, 0.0], [2.0, 0.0], [4.0, 0.0], [4.0, 2.0], [2.0, 1.0]]
    """
    ends = np.roll(points, -1, axis=0)
    counts = np.maximum(1, (np.linalg.norm(ends - points, axis=1) / step).astype(int))
    start = np.repeat(np.arange(len(points)), counts)
    k = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)  # 0..n-1 along each piece
    return points[start] + (ends - points)[start] * k[:, None] / np.repeat(counts, counts)[:, None]


def _most_inliers(near: np.ndarray, rng: np.random.Generator, shortest: float, tol: float, tries: int = 60):
    """RANSAC: of `tries` lines through two random points at least `shortest` apart, the one with
    most points within `tol`, as (point, unit direction); None when no pair was far enough apart.
    The first such line wins a tie."""
    pairs = random_pairs(rng, len(near), tries)
    p, q = near[pairs[:, 0]], near[pairs[:, 1]]
    span = np.linalg.norm(q - p, axis=1)
    usable = span >= shortest
    if not usable.any():
        return None
    v = (q - p) / np.maximum(span, 1e-12)[:, None]
    normal = np.stack([-v[:, 1], v[:, 0]], axis=1)
    # |(near - p) . normal| for every line and point, worked in place: the einsum over a (tries, points, 2)
    # difference it replaces built that array first and took 5x as long (the same sums, bit for bit).
    dist = np.subtract(near[:, 0], p[:, 0, None])
    dist *= normal[:, 0, None]
    across = np.subtract(near[:, 1], p[:, 1, None])
    across *= normal[:, 1, None]
    dist += across
    np.abs(dist, out=dist)
    inliers = np.where(usable, np.count_nonzero(dist < tol, axis=1), -1)
    best = int(np.argmax(inliers))
    return p[best], v[best]


def random_pairs(rng: np.random.Generator, n: int, tries: int) -> np.ndarray:
    """`tries` pairs of distinct indices below n: the very pairs, and generator state after, of
    `[rng.choice(n, 2, replace=False) for _ in range(tries)]`, drawn in one call.

    numpy's choice without replacement (Floyd's algorithm, then a shuffle) draws,
    per pair, one integer in [0, n-2], one in [0, n-1] (taken as n-1 when it
    equals the first) and one in [0, 1] (1 keeps the order); `integers` with
    those bounds draws the same numbers from the stream. A call a pair cost
    ~15 us and _fit_sides makes 240 a blob (tests/test_localise_speed.py holds it to choice's pairs).
    """
    highs = np.tile(np.array([n - 2, n - 1, 1], np.int64), tries)
    first, second, keep = rng.integers(0, highs, endpoint=True).reshape(tries, 3).T
    second = np.where(second == first, n - 1, second)
    return np.where(keep[:, None] == 1, np.stack([first, second], axis=1), np.stack([second, first], axis=1))


# ----------------------------------------------------------------- stage 3

_CANON = 240  # rectified board side during refinement
_MARGIN = 0.15
#: Distance (canonical view pixels) within which an edge sample agrees with a side's line (see _most_agreeing).
EDGE_TOL = 2.0


def _canonical(quad: Quad, side: int = _CANON, margin: float = _MARGIN) -> tuple[np.ndarray, int]:
    """Homography image -> canonical frame where the quad is [m, m+side]^2."""
    m = margin * side
    dst = np.float32([[m, m], [m + side, m], [m + side, m + side], [m, m + side]])
    return cv2.getPerspectiveTransform(np.float32(quad), dst), int(round(side + 2 * m))


def refine_quad(signal: np.ndarray, quad: Quad, rounds: int = 3) -> Quad:
    """Move each side onto the board's edge in `signal` (foreground in [0, 1])."""
    for r in range(rounds):
        hom, full = _canonical(quad)
        view = cv2.warpPerspective(signal, hom, (full, full), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
        view = cv2.GaussianBlur(view, (0, 0), 1.2)
        reach = _MARGIN * _CANON * (0.9 if r == 0 else 0.45)
        lines = [_edge_line(view, side, reach) for side in range(4)]
        if any(line is None for line in lines):
            return quad
        corners = [_intersect(lines[i - 1], lines[i]) for i in range(4)]  # TL=left&top, TR=top&right...
        if any(c is None for c in corners):
            return quad
        inv = np.linalg.inv(hom)
        pts = cv2.perspectiveTransform(np.float32(corners).reshape(-1, 1, 2), inv).reshape(4, 2)
        quad = pts.astype(np.float64)
    return quad


def _edge_line(view: np.ndarray, side: int, reach: float):
    """Fit the board edge on one side of the canonical view: (point, direction).

    side 0 top, 1 right, 2 bottom, 3 left. Along the side, for each sample the
    position of the steepest fall of foreground going outwards; a robust line
    through them.
    """
    m = _MARGIN * _CANON
    lo, hi = m - reach, m + reach
    ts = np.linspace(m + 0.04 * _CANON, m + 0.96 * _CANON, 48)
    # Make every side look like "top": rotate the view.
    v = np.rot90(view, k=side)  # np.rot90 is anticlockwise: side 1 (right) becomes top
    a, b = int(max(lo, 0)), int(min(hi, v.shape[0] - 2))
    if b <= a:
        return None
    # Increasing downward = entering the board; only the rows within reach, all samples' columns at once.
    grad = np.diff(v[a : b + 1, np.round(ts).astype(int)], axis=0)
    i = np.argmax(grad, axis=0)
    falls = grad[i, np.arange(len(ts))] > 0.08
    if falls.sum() < 10:
        return None
    pts = np.column_stack([ts[falls], a + i[falls] + 0.5])
    # robust line fit y = p0 + p1 * x: the line most samples agree with, then
    # least squares on those, trimming outliers
    keep = _most_agreeing(pts)
    if keep.sum() < 8:
        keep = np.ones(len(pts), bool)  # scattered: no line stands out
    for _ in range(3):
        p1, p0 = np.polyfit(pts[keep, 0], pts[keep, 1], 1)
        resid = np.abs(pts[:, 1] - (p0 + p1 * pts[:, 0]))
        thr = max(1.0, 2.5 * np.median(resid[keep]))
        keep = resid <= thr
        if keep.sum() < 8:
            break
    # back to the un-rotated frame: two points on the line
    n = v.shape[0]
    line_pts = np.array([[x, p0 + p1 * x] for x in (0.0, float(n))])
    return np.array([_unrotate(p, side, n) for p in line_pts])


def _most_agreeing(pts: np.ndarray, tol: float = EDGE_TOL) -> np.ndarray:
    """Mask of the samples near the line through two of them that most samples lie near.

    Where tiles the colour of the table (forest on a green cloth) end a side's
    foreground a row early, its samples lie on a parallel line a row in: a
    fit through all of them tilted the side across the grid. The larger run
    wins instead, and a line a row in is a grid line the squares count fixes.
    """
    i, j = np.triu_indices(len(pts), 1)
    keep = np.abs(pts[j, 0] - pts[i, 0]) > 0.2 * np.ptp(pts[:, 0])
    i, j = i[keep], j[keep]
    if not len(i):
        return np.ones(len(pts), bool)
    slope = (pts[j, 1] - pts[i, 1]) / (pts[j, 0] - pts[i, 0])
    # |y - (y_i + slope (x - x_i))| for every pair's line and sample, in one array worked in place
    # (~1,100 lines x 48 samples, 12 times a quad: the temporaries cost more than the arithmetic).
    resid = np.subtract(pts[None, :, 0], pts[i, 0, None])
    resid *= slope[:, None]
    resid += pts[i, 1, None]
    np.subtract(pts[None, :, 1], resid, out=resid)
    np.abs(resid, out=resid)
    resid *= 1.0 / np.sqrt(1.0 + slope[:, None] ** 2)  # distance to the line, not vertical offset
    near = resid < tol
    return near[int(np.argmax(np.count_nonzero(near, axis=1)))]


def _unrotate(p, side, n):
    """Map a point (x, y) in np.rot90(view, side) back to view coordinates."""
    x, y = p
    for _ in range(side):
        # rot90 anticlockwise maps view (x, y) -> (y, n - 1 - x); invert once
        x, y = n - 1 - y, x
    return (x, y)


def _intersect(l1, l2):
    (x1, y1), (x2, y2) = l1
    (x3, y3), (x4, y4) = l2
    d = (x1 - x2) * (y3 - y4) - (y1 - y2) * (x3 - x4)
    if abs(d) < 1e-9:
        return None
    a, b = x1 * y2 - y1 * x2, x3 * y4 - y3 * x4
    return ((a * (x3 - x4) - (x1 - x2) * b) / d, (a * (y3 - y4) - (y1 - y2) * b) / d)


# ----------------------------------------------------------------- driver


def localise(photo: Photo, frame_first: bool = True) -> Localisation:
    """Every kingdom in the photo, largest first.

    frame_first: a photo that is one kingdom cut tight to its grid (see
    _tight_crop) is read as the whole frame before any colour blob is
    examined; False examines the blobs first, as before (for benchmarks/bench_crops.py).
    """
    work, factor = working_image(photo.image)
    to_original = factor * photo.scale
    edges = edge_maps(work)
    frame = _whole_frame(work, edges, to_original)
    if frame is not None and frame_first and _tight_crop(work, frame):
        return Localisation((frame,), "", working=_handed_on(photo, work, factor))
    fg = foreground(work)  # at full working resolution: at half, corners got worse (synthetic 95% -> 89%)
    working = _handed_on(photo, work, factor, fg)
    boards, tried, long_blobs = _blob_boards(work, fg, edges, to_original)
    around = _frame_around_cut_kingdom(work, edges, boards, to_original) if frame is None else None
    if around is not None:
        return Localisation((around,), "", working=working)
    if frame is not None and frame.seams >= max((b.seams for b in boards), default=0.0):
        # Parts of a board cut to its grid may pass for kingdoms; those show
        # fewer seams than the whole (a real kingdom on a lined mat shows more).
        return Localisation((frame,), "", working=working)
    seen = _describe(fg, tried, long_blobs)
    boards = _without_covered_partials(boards)
    return Localisation(tuple(boards), seen, tiles_elsewhere(fg, [b for b in boards if not b.partial], to_original),
                        working)


def _handed_on(photo: Photo, work: np.ndarray, factor: float, fg: np.ndarray | None = None) -> Working:
    """localise's working image and foreground as find.loose is handed them, made read-only: one writing into
    them would change what the other reads (an error instead). A photo small enough to be its own working
    image is left writable: it is the caller's."""
    for array in (work, fg):
        if array is not None and array is not photo.image:
            array.flags.writeable = False
    return Working(work, factor, fg)


#: How far past a whole kingdom's frame its own tiles may reach (ragged rows, shadows), in its squares.
_FRAME_MARGIN = 0.5


def tiles_elsewhere(fg: np.ndarray, whole: list[FoundBoard], to_original: float) -> float:
    """The largest region the foreground holds outside every whole board's frame (grown by half a square) and
    clear of the photo's edge, in squares of the largest board (0: no board, or no such region).

    A photo of the table shows every player's kingdom; one laid by hand, that no grid frames, is otherwise
    never looked for beside a grid read with no doubt. Costs a fill and a labelling at working size.

    >>> fg = np.zeros((400, 400), np.float32); fg[50:150, 50:150] = 1; fg[300:330, 300:390] = 1
    >>> board = FoundBoard(np.float32([[50, 50], [150, 50], [150, 150], [50, 150]]), 5)
    >>> round(tiles_elsewhere(fg, [board], 1.0), 2)  # 30x90 px at 20 px a square, its corners rounded by the opening
    6.71
    """
    if not whole:
        return 0.0
    # At half the working size: the regions wanted are squares of tens of pixels there (13 ms -> a few).
    outside = np.ascontiguousarray((fg[::2, ::2] > 0.5).astype(np.uint8))
    sides = []
    for board in whole:
        quad = board.corners.astype(np.float32) / (2 * to_original)
        side = float(np.sqrt(abs(cv2.contourArea(quad)))) / board.size
        sides.append(side)
        grown = scaled_quad(quad, 1 + 2 * _FRAME_MARGIN / board.size)
        cv2.fillConvexPoly(outside, np.round(grown).astype(np.int32), 0)
    square = max(sides) ** 2
    if cv2.countNonZero(outside) < square:  # not a square's worth of tile colour left: nothing to label
        return 0.0
    # Opened by a third of a square: a carpet's dotted lines no longer join a kingdom to the photo's edge.
    k = max(3, int(round(max(sides) / 3)) | 1)
    outside = with_disc(outside, cv2.MORPH_OPEN, k)
    count, _, stats, _ = cv2.connectedComponentsWithStats(outside)
    h, w = outside.shape
    x, y, cw, ch, area = (stats[1:, i] for i in range(5))
    # A region the photo's edge cuts is no whole kingdom (a sleeve, a box lid, or a kingdom not scored anyway).
    inside = (x > 0) & (y > 0) & (x + cw < w) & (y + ch < h)
    return float(area[inside].max(initial=0)) / square


def _blob_boards(work, fg, edges, to_original: float) -> tuple[list[FoundBoard], int, int]:
    """The kingdoms the colour blobs hold: (boards, blobs tried, blobs refused as two kingdoms touching)."""
    boards: list[FoundBoard] = []
    tried = 0
    long_blobs = 0
    for quad, blob, part in candidate_quads(fg):
        tried += not part
        refined = refine_quad(fg, quad)
        if _aspect(refined) >= SPLIT_ASPECT and not _touches_edge(blob):
            long_blobs += 1  # two kingdoms touching? Cutting it in two guesses where: refused instead.
            continue
        board = _examine(work, fg, edges, refined, blob, to_original)
        if board is not None and part and (board.partial or board.seams < SURE_SEAMS):
            continue  # a part of a blob tried whole counts only as a whole kingdom that shows its seams clearly
        if board is not None:
            boards.append(board)
    return boards, tried, long_blobs


def _whole_frame(work, edges, to_original: float) -> FoundBoard | None:
    """The photo taken whole as one board cut to its grid, when it may be one, else None.

    Such a photo (like the 500x500 boards) is squarish, its "border strip" is
    tiles, so colours can't find the board (its edge is the photo's edge), and
    a lattice over the whole frame shows FULL_FRAME_SEAMS.
    """
    h, w = work.shape[:2]
    if not (0.8 < w / h < 1.25 and _tiles_along_border(work)):
        return None
    fit = fit_lattice(work, _frame_quad(work))
    if fit.seams < FULL_FRAME_SEAMS:
        return None
    return _frame_board(work, edges, fit, to_original)


def _frame_board(work, edges, fit, to_original: float) -> FoundBoard:
    """The whole photo read as one kingdom's frame of fit.size squares a side."""
    corners = refine_lattice(edges, _frame_quad(work), fit.size, reach=0.15)
    return FoundBoard(corners * to_original, fit.size, False, "", fit.seams, fit.contrast)


def _frame_around_cut_kingdom(work, edges, boards: list[FoundBoard], to_original: float) -> FoundBoard | None:
    """The whole photo as the frame of a kingdom that only seemed cut by its edges, else None.

    A tight crop of a finished kingdom laid smaller than its frame (a 4x4
    block in the top-left of its 5x5 frame, or two corners empty) shows its
    tiles running into two edges of the photo and the table elsewhere, so the
    colours call it cut and the table squares' missing seams keep it under
    FULL_FRAME_SEAMS. The box's geometry says otherwise: the photo is as wide
    as high, a lattice of 5 (or 7) squares across it shows TIGHT_MARGIN more
    seams than the other size, and the tiles' outline ends on that lattice's
    lines on the sides where it is not cut. A kingdom really cut by the photo
    shows no seams on a frame-wide lattice (its own pitch differs) and ends on
    such a lattice's lines only by chance, on every free side at once.
    """
    cut = [b for b in boards if b.partial]
    h, w = work.shape[:2]
    if len(cut) != 1 or len(boards) != 1 or not 0.9 < w / h < 1.11:
        return None
    fit = fit_lattice(work, _frame_quad(work))
    if fit.seams < MIN_SEAMS or not _tight_crop(work, fit):
        return None
    outline = cut[0].corners / to_original
    ends = {"left": outline[:, 0].min() / w, "right": outline[:, 0].max() / w,
            "top": outline[:, 1].min() / h, "bottom": outline[:, 1].max() / h}  # as shares of the photo
    for side, end in ends.items():
        squares = end * fit.size
        if side not in cut[0].cut and abs(squares - round(squares)) > ON_LINE:
            return None
    rows = range(round(ends["top"] * fit.size), round(ends["bottom"] * fit.size))
    cols = range(round(ends["left"] * fit.size), round(ends["right"] * fit.size))
    if _seams_among(work, fit.size, rows, cols) < FULL_FRAME_SEAMS:
        return None
    return _frame_board(work, edges, fit, to_original)


def _seams_among(work, size: int, rows: range, cols: range) -> float:
    """Share of the inner edges between two squares of rows x cols (of the frame's size x size grid) showing a seam.

    The tiles of a kingdom cut tight to its frame show their seams on the
    frame's lattice as clearly as a whole board does; those of a kingdom
    really cut by the photo, on a lattice a fraction of a square off, do not.
    """
    present = seam_segments(work, _frame_quad(work), size)[0]
    shown = [present[0, k - 1, j] for k in cols[1:] for j in rows]  # vertical line x = k, beside row j
    shown += [present[1, k - 1, j] for k in rows[1:] for j in cols]  # horizontal line y = k, above column j
    return float(np.mean(shown)) if shown else 0.0


def _frame_quad(work) -> Quad:
    h, w = work.shape[:2]
    return np.array([[0, 0], [w, 0], [w, h], [0, h]], float)


def _tight_crop(work, frame) -> bool:
    """The whole frame is one kingdom cut tight to its grid: no colour blob need be examined.

    frame: the whole frame's FoundBoard, or its LatticeFit (a size and its seams).

    The frame's lattice shows its seams (FULL_FRAME_SEAMS, see _whole_frame)
    and the other grid size's far fewer (TIGHT_MARGIN): a lattice of that
    pitch fits the photo edge to edge. (Where the grid settles says little:
    refine_lattice lets it move 0.15 of a square at most.) Examined first, the
    blobs of such a photo never showed more seams than the frame (the 54
    labelled boards: up to as many), so the frame won anyway.
    """
    return lattice_evidence(work, _frame_quad(work), 12 - frame.size).seams <= frame.seams - TIGHT_MARGIN


def _without_covered_partials(boards: list[FoundBoard]) -> list[FoundBoard]:
    """The finds less the partial ones centred on a whole one (a kingdom joined to something at the photo's edge)."""
    whole = [b.corners.astype(np.float32).reshape(-1, 1, 2) for b in boards if not b.partial]
    return [b for b in boards if not b.partial or not any(
        cv2.pointPolygonTest(poly, tuple(float(v) for v in b.corners.mean(axis=0)), False) >= 0 for poly in whole)]


def _examine(work, fg, edges, quad: Quad, blob: np.ndarray, to_original: float) -> FoundBoard | None:
    """The kingdom in this quad, if its lattice says there is one."""
    h, w = work.shape[:2]
    if not _plausible(quad, w, h) and not (_touches_edge(blob) and _plausible(quad, w, h, cut=True)):
        return None
    outline = quad
    options, size = complete_lattice(work, fg, quad)
    quad = options[0]
    if len(options) > 1:
        # Rows the colours missed (dark tiles on a dark mat) that could lie on
        # either side: each placement, and the outline as it stands, settles on
        # its seams; the one showing most wins.
        settled = [r for r in (_polish(work, edges, q, size, rescue=False) for q in options + [outline]) if r]
        if settled:
            quad = max(settled, key=lambda r: (r[1].seams, r[1].contrast))[0]
    fit = fit_lattice(work, quad, (size,) if size else None)
    if size is not None and quad is not outline:
        # Counting squares can misread the period (a steep view, a castle on a
        # seam) and cut a whole board down: the outline as it stands may be better.
        as_is = fit_lattice(work, outline)
        if as_is.seams > fit.seams:
            quad, fit = outline, as_is
    cut, touched = _partial(blob, quad, w, h, np.sqrt(quad_area(quad)) / fit.size)
    if cut:
        return _cut_board(work, blob, outline, fit, cut + touched, to_original)
    results = [_polish(work, edges, quad, fit.size)]
    other = 12 - fit.size  # 5 <-> 7
    if fit.seams < SURE_SEAMS and lattice_evidence(work, outline, other).seams > fit.seams - SIZE_DOUBT:
        # Not that clear, and the outline shows the other size's seams nearly
        # as well (counting squares can grow a 7x7's missed rows wrongly): let
        # both grids settle on their seams, then compare.
        results.append(_polish(work, edges, outline, other, rescue=False))
    results = [r for r in results if r is not None]
    if not results and not touched:
        # No grid settled: the outline may be a row and a column short (dark
        # tiles on a dark mat). Added back, a grid counts only when its seams
        # show clearly, there being no grid to compare it with, and the colours
        # found most of it (a mat's printed lattice shows seams as clearly).
        results = [r for r in _missed_row_grids(work, edges, outline, (fit.size, other))
                   if r[1].seams >= SURE_SEAMS and _share_inside(fg, r[0]) > HALF]
    if not results:
        return _cut_board(work, blob, outline, fit, touched, to_original) if touched else None
    best, best_fit = max(results, key=lambda r: (r[1].seams, r[1].contrast))
    if best_fit.seams < SURE_SEAMS:
        # Seams that show this weakly: the outline may have missed a row or a
        # column (tiles the colour of the table) and lie across the grid where
        # its ragged edge cut them, so counting squares failed. Each way of
        # adding them back settles on its seams; the one showing most wins,
        # if its outer lines also lie on more edge (as in _settle_shift).
        cap, energy = _capped_seam_energy(edges, best, best_fit.size)
        least = SHIFT_GAIN * energy
        settled = _missed_row_grids(work, edges, outline, (best_fit.size, 12 - best_fit.size))
        better = [r for r in settled if seam_energy(edges, r[0], r[1].size, cap=cap) > least]
        best, best_fit = max([(best, best_fit)] + better, key=lambda r: (r[1].seams, r[1].contrast))
    past = [side for side in touched if side in _sides_past(best, w, h)]
    if past:
        # Its colours touched the edge only briefly (a corner): the grid settled
        # on its seams says whether the board runs past it.
        return _cut_board(work, blob, outline, fit, past, to_original)
    # Past an edge by over a third of a square: the grid runs off the photo.
    off = _sides_past(best, w, h, np.sqrt(quad_area(best)) / best_fit.size / 3)
    beyond = squares_beyond(fg, best, best_fit.size) if best_fit.size == 5 and not off else 0
    return FoundBoard(photo_order(best)[0] * to_original, best_fit.size, bool(off), _cut_text(off), best_fit.seams,
                      best_fit.contrast, tuple(off), beyond)


def _cut_board(work, blob: np.ndarray, outline: Quad, fit, sides: list[str], to_original: float) -> FoundBoard | None:
    """A board the photo's edge cuts on `sides`, reported by its visible outline, or None when it isn't one.

    A cut board shows a lattice that doesn't fit 5 or 7 squares across:
    weaker evidence, but it is only reported, never scored.
    """
    x, y, bw, bh = cv2.boundingRect(blob)
    box = (slice(y, y + bh), slice(x, x + bw))
    if fit.seams < MIN_PARTIAL_SEAMS or not _tile_colours(work[box], blob[box]) or not _textured(work[box], blob[box]):
        return None
    # Reported by its visible outline: the lattice completed past the photo's edge is a guess.
    return FoundBoard(photo_order(outline)[0] * to_original, fit.size, True, _cut_text(sides), fit.seams, fit.contrast,
                      tuple(sides))


def _polish(work, edges, quad: Quad, size: int, rescue: bool = True):
    """The size x size grid near `quad` put on its seams: (quad, fit), or None when no lattice shows.

    rescue: when the seams don't show, also try the grid shifted by a square.
    """
    h, w = work.shape[:2]
    quad = refine_lattice(edges, quad, size)
    fit = fit_lattice(work, quad, (size,))
    if fit.seams < MIN_SEAMS:
        # The outline may be a square or more off where the colours missed tiles
        # (lakes on a blue mat) or took table for tiles: walk the grid onto the
        # seams of the part that shows them, or (rescue) shift it by a square.
        fits = [(fit_lattice(work, g, (size,)), g) for g in [_walk(work, quad, size)] if _plausible(g, w, h)]
        if rescue:
            grown = [g for g in (refine_lattice(edges, q, n) for q, n in _grown(quad, size)) if _plausible(g, w, h)]
            fits += [(fit_lattice(work, g, (size,)), g) for g in grown]
        if not fits:
            return None
        fit, quad = max(fits, key=lambda f: (f[0].seams, f[0].contrast))
        if fit.seams < MIN_SEAMS:
            return None
    quad = fit_seam_homography(work, quad, size)
    # A corner the outline misplaced by up to a square or two (a castle's bulge,
    # tiles the colour of the table): refitted on the seams again and again the
    # grid walks onto them, the well-placed part leading; kept only when the
    # lattice then shows more seams.
    walked = _walk(work, quad, size)
    pitch = np.sqrt(quad_area(quad)) / size
    if np.max(np.linalg.norm(walked - quad, axis=1)) > 0.1 * pitch and _plausible(walked, w, h):
        walked_fit = fit_lattice(work, walked, (size,))
        if walked_fit.seams > fit.seams:
            quad, fit = walked, walked_fit
    return _settle_shift(work, edges, quad, fit)


def _missed_row_grids(work, edges, outline: Quad, sizes: tuple[int, ...]) -> list:
    """Grids adding back a row and/or column the outline missed, settled on their seams: [(quad, fit)].

    Only the MISSED_ROW_TRIES showing most seams as they stand are polished.
    """
    options = [(lattice_evidence(work, q, n), q) for n in sizes for q in _missed_rows(outline, n)]
    options.sort(key=lambda o: (o[0].seams, o[0].contrast), reverse=True)
    settled = [_polish(work, edges, q, f.size, rescue=False) for f, q in options[:MISSED_ROW_TRIES]]
    return [r for r in settled if r is not None]


def _share_inside(fg: np.ndarray, quad: Quad) -> float:
    """Mean foreground over the quad."""
    inside = np.zeros(fg.shape, np.uint8)
    cv2.fillConvexPoly(inside, np.round(quad).astype(np.int32), 1)
    return float(fg[inside.astype(bool)].mean()) if inside.any() else 0.0


def _missed_rows(quad: Quad, size: int) -> list[Quad]:
    """The size x size grids that take `quad` as size - 1 squares along one axis or both, the missing one on either side."""
    hom = cv2.getPerspectiveTransform(np.float32([[0, 0], [1, 0], [1, 1], [0, 1]]), np.float32(quad))
    square = np.float32([[0, 0], [size, 0], [size, size], [0, size]])
    out = []
    for across in (size - 1, size):
        for down in (size - 1, size):
            if across == down == size:
                continue
            for dx in range(size - across + 1):
                for dy in range(size - down + 1):
                    grid = (square - [dx, dy]) / [across, down]
                    pts = cv2.perspectiveTransform(np.float32(grid).reshape(-1, 1, 2), hom)
                    out.append(pts.reshape(4, 2).astype(np.float64))
    return out


def _walk(work, quad: Quad, size: int) -> Quad:
    """The grid refitted on its seams, a square and a half at most each time, until it settles."""
    pitch = np.sqrt(quad_area(quad)) / size
    for _ in range(WALK_STEPS):
        step = fit_seam_homography(work, quad, size, max_move=1.5)
        moved = float(np.max(np.linalg.norm(step - quad, axis=1)))
        quad = step
        if moved < 0.05 * pitch:
            break  # settled: the usual case, a grid already on its seams
    return quad


def _settle_shift(work, edges, quad: Quad, fit):
    """The grid or its copy shifted by a square (8 ways), whichever puts most edge on its lines.

    The seams inside cannot tell a grid from its shifted copy (a row of table
    taken for the row of dark tiles it hides), but the board's outline can: on
    the true grid every outer line is the board's edge (synthetic: the true
    grid beats all 8 shifts in 301 of 302 kingdoms, by 7% at the 95th pct,
    measured before the cap). Each edge sample is capped at the grid's own
    SHIFT_CAP percentile: a cutting mat's printed lines outshine seams and
    pulled a well-placed grid a square onto them.
    """
    h, w = work.shape[:2]
    for _ in range(2):  # a corner two squares off comes back in two steps
        # Samples count at most as much as the grid's typical strong one: a mat's
        # printed lines, far stronger than seams, must not pull the grid onto them.
        cap, best = _capped_seam_energy(edges, quad, fit.size)
        moves = [g for g in shifted_all(quad, fit.size, _SHIFTS) if _plausible(g, w, h)]
        if not moves:
            break
        energies = seam_energies(edges, moves, fit.size, cap=cap)
        i = int(np.argmax(energies))
        if energies[i] <= SHIFT_GAIN * best:
            break
        quad = fit_seam_homography(work, moves[i], fit.size)
        fit = fit_lattice(work, quad, (fit.size,))
    return quad, fit


def _capped_seam_energy(edges, quad: Quad, size: int) -> tuple[float, float]:
    """The grid's SHIFT_CAP percentile of edge across its lines, and its seam_energy capped at that: one sampling
    gives both (the same numbers as seam_energy(..., cap=cap))."""
    samples = seam_samples(edges, quad, size)
    cap = float(np.percentile(samples, SHIFT_CAP))
    return cap, float(np.mean(np.minimum(samples, cap)))


#: The 8 shifts by a square _settle_shift tries, in its order.
_SHIFTS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]


def _grown(quad: Quad, size: int) -> list[tuple[Quad, int]]:
    """The grid shifted by one square each way: when the outline took a row of
    table for a row of tiles, the shift that gives it up and takes the lost one."""
    # shifted by one square: the same size, one row/column in, one out
    return [(shifted(quad, size, dx, dy), size) for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1))]


def _border_sides(image: np.ndarray, share: float = 0.08) -> list[np.ndarray]:
    """The pixels near each of the image's edges (top, bottom, left, right), each as one row of pixels."""
    h, w = image.shape[:2]
    s = max(2, int(share * min(h, w)))
    return [image[:s].reshape(1, -1, 3), image[-s:].reshape(1, -1, 3),
            image[s:-s, :s].reshape(1, -1, 3), image[s:-s, -s:].reshape(1, -1, 3)]


def _tiles_along_border(image: np.ndarray) -> bool:
    """The photo's edge runs along tiles: all round, or on two sides at least.

    A kingdom cut tight to its frame whose last row and column are empty
    (a 4x4 kingdom in the top-left of its 5x5 frame) shows the table along
    two sides: its border strip taken whole is half table.
    """
    sides = _border_sides(image)
    return _tile_colours(np.concatenate(sides, axis=1)) or sum(_tile_colours(side) for side in sides) >= 2


def _tile_colours(image: np.ndarray, mask: np.ndarray | None = None) -> bool:
    """Mostly saturated and of several hues (wheat, grass, forest, lake): tiles, not a table or mat.

    mask: the region's own pixels may say so instead, more strictly saturated:
    a tilted kingdom's bounding box is up to half table, and a white table made
    it fail (synthetic kingdoms' own pixels: 70% saturated and up but one;
    flat clutter's 57%). The box stays a way in: a small cut part may show
    one or two hues only, and the table adds one.
    """
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    return _saturated_hues(hsv, 0.5) or (mask is not None and _saturated_hues(hsv[mask.astype(bool)][None], TILE_SATURATED))


def _saturated_hues(hsv: np.ndarray, least: float) -> bool:
    saturated = hsv[..., 1] > 70
    if saturated.mean() < least:
        return False
    hist = np.bincount(hsv[..., 0][saturated] // 15, minlength=12) / saturated.sum()
    hist = hist[hist > 0]
    return float(-(hist * np.log(hist)).sum()) > 0.6


def _textured(image: np.ndarray, mask: np.ndarray) -> bool:
    """Tiles show detail (trees, waves, crops); cards, dice boxes and other flat clutter don't.

    The upper quartile of local grey contrast over the mask (synthetic: flat
    clutter cut by the photo's edge 0.9-1.8, partial kingdoms 5.6 and up).
    """
    _mean, std = _local_contrast(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32), 5)
    return float(np.percentile(std[mask.astype(bool)], 75)) > MIN_TEXTURE


def _local_contrast(grey: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Local mean and standard deviation of a float grey image over k x k boxes."""
    mean = cv2.blur(grey, (k, k))
    var = cv2.blur(grey * grey, (k, k))
    var -= mean * mean
    np.maximum(var, 0, out=var)
    return mean, np.sqrt(var, out=var)


def _touches_edge(blob: np.ndarray, edge: int = 2) -> bool:
    return bool(blob[:, :edge].any() or blob[:, -edge:].any() or blob[:edge].any() or blob[-edge:].any())


def _plausible(quad: Quad, w: int, h: int, cut: bool = False) -> bool:
    """Convex, not tiny, not wildly non-square even under 45 degrees of tilt.

    cut: the visible part of a kingdom the photo's edge cuts, of any shape.
    """
    if not cv2.isContourConvex(np.float32(quad).reshape(-1, 1, 2)):
        return False
    if quad_area(quad) < 0.01 * w * h:
        return False
    if cut:
        return True
    sides = side_lengths(quad)
    return sides.min() > 0.3 * sides.max() and _aspect(quad) < SPLIT_ASPECT


def _partial(blob: np.ndarray, quad: Quad, w: int, h: int, pitch: float) -> tuple[list[str], list[str]]:
    """Which edges of the photo the board runs off: (cut, touched).

    Cut on a side when its colours reach that edge of the photo and so does
    its outline (within a third of a square), or its colours run along that
    edge for more than a square and a half: a castle standing past a board
    near the edge reaches it alone but narrowly, and an outline overshooting
    a board near the edge by a pixel does so alone. (A four-sided outline
    cuts the corner off a kingdom whose corner the photo's edge cut.)
    Touched, not known to be cut, when the colours meet the edge over less
    than NEAR_RUN squares: a corner a pixel inside the photo or just past it.
    """
    edge, m = 2, pitch / 3
    cut, touched = [], []
    for side, strip, near in (
        ("left", blob[:, :edge], quad[:, 0].min() < m), ("right", blob[:, -edge:], quad[:, 0].max() > w - m),
        ("top", blob[:edge], quad[:, 1].min() < m), ("bottom", blob[-edge:], quad[:, 1].max() > h - m),
    ):
        run = int(strip.any(axis=int(strip.shape[0] > strip.shape[1])).sum())  # pixels along the edge
        if run > CUT_RUN * pitch or (near and run > NEAR_RUN * pitch):
            cut.append(side)
        elif near and run:
            touched.append(side)
    return cut, touched


def _sides_past(quad: Quad, w: int, h: int, margin: float = 0.0) -> list[str]:
    """The photo edges a corner of the grid lies past by more than `margin` pixels."""
    x, y = quad[:, 0], quad[:, 1]
    return [side for side, out in (("left", x.min() < -margin), ("right", x.max() > w + margin),
                                   ("top", y.min() < -margin), ("bottom", y.max() > h + margin)) if out]


def _cut_text(cut: list[str]) -> str:
    return f"cut by the photo's {' and '.join(cut)} edge: part of the kingdom is not in the photo" if cut else ""


def _describe(fg: np.ndarray, tried: int, long_blobs: int = 0) -> str:
    share = float((fg > 0.5).mean())
    if tried == 0:
        return f"no tile-coloured region stood out from the background ({share:.0%} of the photo looked unlike its border)"
    text = f"{tried} tile-coloured region(s), none with a 5x5 or 7x7 grid of squares"
    if long_blobs:
        text += f"; {long_blobs} of them about twice as long as wide: kingdoms touching each other? leave a gap between them"
    return text
