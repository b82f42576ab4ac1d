"""Synthetic scenes of kingdoms laid by hand, domino by domino, with ground truth.

The scenes of kscore.lab.synth paste whole labelled boards: neat square blocks.
Players' tables look otherwise (issue 13, ../shared/data/photos-loose): each
domino is laid by hand, with gaps, offsets up to a quarter square and small
turns; the kingdom's extent is often smaller than its frame and holes are
anywhere; stray dominoes (the draft line, discards) lie nearby; surfaces are
busy. Here a kingdom is built from real dominoes of the box (game.tileset),
each half cut from a labelled square of the 500x500 boards (or, for a flat
castle, from the phone squares), and every domino is drawn on its own.

`make_loose_scene(bank, rng)` -> LooseScene(image, truth rows, score, strays, ...).
The truth is the occupied extent as the scene shows it (row 0 nearest the
top), the format of photos-loose, so kscore.lab.evaluate_photos'
extent matching scores it. `quads` holds where each of its squares truly lies
in the image, so reading can be measured apart from finding.
"""

from __future__ import annotations

import copy
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from kscore.game.kingdom import Square, Terrain
from kscore.game.tileset import KINGDOMINO
from kscore.lab.synth import background

#: Surfaces: the old synth kinds plus busy ones real tables show.
SURFACES = ("wood", "cloth", "carpet", "table", "mat", "dotted", "stone", "pattern", "felt")
#: Surfaces drawn only when asked for (`surface=`): adding them to SURFACES would change every seed's scenes.
#: "rug": the dark carpet of ../shared/data/photos-loose as it is (dense columns of dots graded in colour,
#: large dark-blue blotches, a lamp-lit middle), where "dotted" is a flat dark ground with sparse dot lines.
MORE_SURFACES = ("rug",)
#: Kinds of glare a scene can be asked for (`glare=`); by default half the scenes get soft white veils.
GLARES = ("veil", "broad")


@dataclass
class SquareBank:
    """Square crops (BGR, any size) per (terrain, crowns); castles: flat printed ones and board ones."""

    squares: dict
    flat_castles: list

    @classmethod
    def from_boards(cls, boards, flat_castle_folder: Path | None = None, limit: int = 60,
                    first: int = 0, whole_crowns: bool = False) -> "SquareBank":
        """Cut every labelled board (kscore.lab.dataset.LabelledBoard) into its squares.

        Flat castles: `limit` of the folder's files in name order from the `first`
        (a recogniser trained on the first N phone squares of each label reads
        castles it never saw when first >= N). whole_crowns: leave out the squares with a crown across
        their board's grid line (crowns_across_grid): what the benchmarks draw (holdout.scene_bank).
        """
        squares = defaultdict(list)
        for board in boards:
            image = cv2.imread(str(board.image))
            px = image.shape[0] // board.kingdom.size
            cut = crowns_across_grid(image, board.kingdom) if whole_crowns else set()
            for (r, c), sq in board.kingdom.squares():
                if sq.terrain is Terrain.EMPTY or (r, c) in cut:
                    continue
                key = (sq.terrain, 0 if sq.terrain is Terrain.CASTLE else sq.crowns)
                squares[key].append(image[r * px:(r + 1) * px, c * px:(c + 1) * px].copy())
        flats = []
        if flat_castle_folder is not None and flat_castle_folder.is_dir():
            for path in sorted(flat_castle_folder.glob("*.jpg"))[first:first + limit]:
                im = cv2.imread(str(path))
                if im is not None:
                    flats.append(im)
        return cls(dict(squares), flats)

    def square(self, key, rng) -> np.ndarray | None:
        options = self.squares.get(key)
        if not options:
            return None
        return cv2.resize(options[int(rng.integers(0, len(options)))], (100, 100), interpolation=cv2.INTER_AREA)

    def castle(self, rng, flat: bool) -> np.ndarray:
        pool = self.flat_castles if flat and self.flat_castles else self.squares[(Terrain.CASTLE, 0)]
        return cv2.resize(pool[int(rng.integers(0, len(pool)))], (100, 100), interpolation=cv2.INTER_AREA)


#: A crown whose centre lies nearer than this to its square's side (a share of the square) on a labelled
#: board crosses the board's grid line: the board was cropped a little off its tiles there, and the square
#: cut on the grid shows half a crown and a sliver of the next tile, which no tile on a table does. On the
#: boards, crowns lie 0.11, 0.13 and 0.17 of a square inside their square (5th, 10th, 50th percentile);
#: 5 squares fall under 0.09 (two of the held-out swamps with two crowns, three lakes with one), and
#: half-crowns on them were lost in scene after scene (eval_loose --seed 576: 4 of 25 scenes not exact).
CROWN_ACROSS_GRID = 0.09


def crowns_across_grid(image: np.ndarray, kingdom) -> set[tuple[int, int]]:
    """The squares of a labelled board (its image, its kingdom) whose crowns' centres, as the shipped crown
    models find them (the square's k likeliest candidates for its k crowns), lie within CROWN_ACROSS_GRID of
    the square's side."""
    from kscore.vision.read.crowns import crown_probability, find_candidates, likeliest, square_of
    from kscore.vision.read.features import CELL, prepare
    from kscore.vision.read.reader import default_models

    models, n = default_models(), kingdom.size
    candidates = find_candidates(prepare(image, n), models.crown_template, n)
    p_crown, own = crown_probability(models.candidate, candidates), square_of(candidates, n)
    out = set()
    for (r, c), sq in kingdom.squares():
        if not sq.crowns or sq.terrain in (Terrain.EMPTY, Terrain.CASTLE):
            continue
        best = likeliest(own, p_crown, r * n + c, sq.crowns)
        y, x = candidates.ys[best] + 0.5 - r * CELL, candidates.xs[best] + 0.5 - c * CELL
        if len(best) and (np.minimum.reduce([y, CELL - y, x, CELL - x]) < CROWN_ACROSS_GRID * CELL).any():
            out.add((r, c))
    return out


@dataclass(frozen=True)
class Placed:
    """One domino in the kingdom: its two squares' grid places and what they show."""

    cells: tuple[tuple[int, int], tuple[int, int]]
    squares: tuple[Square, Square]


@dataclass(frozen=True)
class LooseScene:
    image: np.ndarray
    rows: tuple[tuple[Square, ...], ...]  # the occupied extent as the scene shows it ('.' = Terrain.EMPTY)
    score: int
    strays: int  # stray dominoes drawn beside the kingdom
    surface: str
    size: int  # the frame: 5 or 7
    pitch: float  # pixels per square
    # Each square of `rows` -> where its print lies: 4x2 float (TL TR BR BL, image pixels, x y).
    quads: dict = field(default_factory=dict)
    light: str = "neutral"  # the colour cast: "warm", "cold" or "neutral"
    glare: int = 0  # veils or sheens of glare laid over the tiles (0 = none)
    # Every tile drawn (castle, dominoes, strays), in drawing order: its outline, 4x2 float image pixels.
    outlines: tuple = ()


def build_kingdom(rng: np.random.Generator, size: int, dominoes: int, bank: SquareBank) -> tuple[list[Placed], tuple]:
    """Real dominoes of the box laid one by one next to what is there, within a size x size frame.

    Returns the dominoes and the castle's cell; the frame is not filled unless
    by chance (kingdoms smaller than their frame, holes, ragged outlines).
    """
    box = [d for d in KINGDOMINO.dominoes
           if bank.squares.get((d[1][0], d[1][1])) and bank.squares.get((d[2][0], d[2][1]))]
    order = rng.permutation(len(box))
    castle = (0, 0)
    taken = {castle}
    placed: list[Placed] = []
    for i in order:
        if len(placed) >= dominoes:
            break
        _, a, b = box[int(i)]
        options = []
        for (r, c) in taken:
            for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
                first = (r + dr, c + dc)
                for er, ec in ((0, 1), (1, 0), (0, -1), (-1, 0)):
                    second = (first[0] + er, first[1] + ec)
                    if first in taken or second in taken:
                        continue
                    cells = taken | {first, second}
                    rows = [p[0] for p in cells]
                    cols = [p[1] for p in cells]
                    if max(rows) - min(rows) < size and max(cols) - min(cols) < size:
                        options.append((first, second))
        if not options:
            continue
        first, second = options[int(rng.integers(0, len(options)))]
        taken |= {first, second}
        placed.append(Placed((first, second), (Square(a[0], a[1]), Square(b[0], b[1]))))
    return placed, castle


def _tile_image(squares: list[np.ndarray], rng) -> np.ndarray:
    """A domino (or the castle tile) as one image, squares side by side, worn dark edges."""
    img = np.hstack(squares).astype(np.float32)
    h, w = img.shape[:2]
    edge = np.ones((h, w), np.float32)
    t = int(rng.integers(1, 4))
    edge[:t], edge[-t:], edge[:, :t], edge[:, -t:] = 0.6, 0.6, 0.6, 0.6
    return img * edge[..., None]


def draw_surface(kind: str, rng, h: int, w: int) -> np.ndarray:
    """A float32 BGR surface: synth's kinds, plus dotted carpet, speckled stone, patterned carpet and felt."""
    if kind in ("wood", "cloth", "carpet", "table", "mat"):
        return background(kind, rng, h, w)
    if kind == "dotted":  # dark carpet with lines of bright coloured dots
        img = np.full((h, w, 3), rng.uniform(15, 45), np.float32) + rng.normal(0, 4, (h, w, 1)).astype(np.float32)
        r = int(rng.integers(2, 6))
        step = int(rng.integers(3 * r, 6 * r))
        for x in range(int(rng.integers(0, step)), w, step):
            colour = tuple(float(v) for v in rng.uniform(60, 255, 3))
            if rng.random() < 0.4:
                continue
            y0, y1 = sorted(rng.integers(0, h, 2))
            for y in range(int(y0), int(y1), int(2.5 * r)):
                cv2.circle(img, (x, y), r, colour, -1)
        return img
    if kind == "rug":
        return _rug(rng, h, w)
    if kind == "stone":  # beige or grey speckled countertop
        base = np.array(rng.choice([[150, 185, 205], [170, 170, 175], [120, 150, 175], [200, 205, 210]]), np.float32)
        speck = (rng.random((h, w)) < rng.uniform(0.02, 0.08)).astype(np.float32)
        speck = cv2.GaussianBlur(speck, (0, 0), 0.8) * rng.uniform(-300, 300)
        cloud = cv2.resize(rng.random((h // 40 + 2, w // 40 + 2)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
        return base[None, None] * (0.9 + 0.2 * cloud[..., None]) + speck[..., None]
    if kind == "pattern":  # a carpet with a repeated motif in muted colours
        base = rng.uniform(40, 140, 3).astype(np.float32)
        other = np.clip(base + rng.uniform(-50, 50, 3), 0, 255).astype(np.float32)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        period = rng.uniform(30, 120)
        motif = (np.abs(np.mod(xx + yy, period) - period / 2) + np.abs(np.mod(xx - yy, period) - period / 2)) < period / 3
        img = np.where(motif[..., None], other[None, None], base[None, None]).astype(np.float32)
        return cv2.GaussianBlur(img, (0, 0), 1.2) + rng.normal(0, 6, (h, w, 1)).astype(np.float32)
    if kind == "felt":  # a coloured gaming mat, fine fibres
        base = cv2.cvtColor(np.uint8([[[rng.uniform(0, 180), rng.uniform(80, 200), rng.uniform(60, 160)]]]),
                            cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)
        fibre = cv2.GaussianBlur(rng.random((h, w)).astype(np.float32), (0, 0), 0.7)
        return base[None, None] * (0.85 + 0.3 * fibre[..., None])
    raise ValueError(kind)


def _rug(rng, h: int, w: int) -> np.ndarray:
    """A dark pile carpet with large blue blotches and dense columns of dots whose colour drifts along them."""
    img = rng.uniform(8, 25) + rng.normal(0, 5, (h, w, 1)).astype(np.float32).repeat(3, axis=2)
    blotches = np.zeros((h, w), np.float32)
    for _ in range(int(rng.integers(3, 7))):  # triangles and wedges of dark blue, a third of the floor or so
        apex = rng.uniform([0, 0], [w, h])
        base = apex + rng.uniform(0.3, 0.9) * max(h, w) * np.array([np.cos(a := rng.uniform(0, 2 * np.pi)), np.sin(a)])
        half = rng.uniform(0.1, 0.3) * max(h, w) * np.array([-np.sin(a), np.cos(a)])
        cv2.fillConvexPoly(blotches, np.int32([apex, base + half, base - half]), 1.0)
    blotches = cv2.GaussianBlur(blotches, (0, 0), 3)
    blue = np.array([rng.uniform(45, 80), rng.uniform(8, 25), rng.uniform(4, 15)], np.float32)
    pile = 0.75 + 0.5 * rng.random((h, w, 1)).astype(np.float32)
    img = img * (1 - blotches[..., None]) + blue * pile * blotches[..., None]
    r = int(rng.integers(2, 5))
    step = int(rng.integers(3 * r, 5 * r))
    palettes = ([40, 40, 230], [30, 130, 250], [220, 120, 30], [250, 200, 60], [200, 60, 160], [60, 60, 200])
    dots = np.zeros((h, w, 3), np.float32)
    x, band = int(rng.integers(0, step)), 0
    while x < w:
        if band <= 0:  # a band of columns shares its two end colours
            top, bottom = (np.array(palettes[i], np.float32) for i in rng.choice(len(palettes), 2))
            band, bare = int(rng.integers(5, 20)), rng.random() < 0.3  # some bands are bare carpet
        band -= 1
        if bare:
            x += step
            continue
        y0, y1 = (0, h) if rng.random() < 0.7 else sorted(int(v) for v in rng.integers(0, h, 2))
        dim = rng.uniform(0.4, 1.0)
        for y in range(y0, y1, int(2.3 * r)):
            t = y / h
            cv2.circle(dots, (x, y), r, tuple(float(v) for v in dim * ((1 - t) * top + t * bottom)), -1)
        x += step
    lit = cv2.GaussianBlur((dots.max(axis=2) > 0).astype(np.float32), (0, 0), 0.8)[..., None]
    img = img * (1 - lit) + dots * (1 - 0.4 * blotches[..., None])
    return cv2.GaussianBlur(img, (0, 0), 0.7)


def _lamp(img: np.ndarray, rng) -> np.ndarray:
    """A lamp above the middle of the table: the middle lit up to 1.7 times as bright as the photo's border."""
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    cx, cy = w * rng.uniform(0.35, 0.65), h * rng.uniform(0.35, 0.65)
    spread = rng.uniform(0.25, 0.45) * min(h, w)
    gain = 1 + rng.uniform(0.3, 0.7) * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * spread**2))
    return img * gain[..., None]


#: BGR gains of the casts _warm_or_cold picks from, by name.
CASTS = {"warm": (0.75, 0.95, 1.15), "cold": (1.15, 1.0, 0.85), "neutral": (1.0, 1.0, 1.0)}


def _warm_or_cold(img: np.ndarray, rng) -> tuple[np.ndarray, str]:
    """A colour cast (warm lamp, cold daylight) and uneven light; returns the image and the cast's name."""
    h, w = img.shape[:2]
    cast = np.array(rng.choice([list(v) for v in CASTS.values()]), np.float32)
    name = next(k for k, v in CASTS.items() if np.allclose(cast, v))
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    angle = rng.uniform(0, 2 * np.pi)
    ramp = (xx * np.cos(angle) + yy * np.sin(angle)) / max(h, w)
    gain = rng.uniform(0.75, 1.05) + rng.uniform(0, 0.35) * (ramp - ramp.min())
    return img * gain[..., None] * cast, name


#: The light a glossy print mirrors, BGR levels added where a sheen is full: a lamp's white, a window's pale
#: and deep sky blue, a lavender dusk. Measured on photos-loose steps 4 and 5 (a window mirrored along a row of
#: forests): the forests' middle tones rose by about 110, 55, 45 in B, G, R and their spread of levels
#: stayed (blue's 2nd-98th percentile 62 levels unveiled, 62-70 veiled): light added over the print, which
#: keeps its drawing and takes its colour toward the light's, not white paint laid over it.
SHEEN_LIGHTS = ((230, 230, 230), (240, 205, 185), (240, 125, 100), (240, 140, 180))


def _shine(img: np.ndarray, veil: np.ndarray, light) -> np.ndarray:
    """`img` with `veil` (0-1 per pixel) times `light` (BGR) added, clipped as a camera's sensor clips."""
    return np.minimum(img + veil[..., None] * np.float32(light), 255)


def _glare(img: np.ndarray, tiles: np.ndarray, rng, pitch: float, painted: bool = False) -> tuple[np.ndarray, int]:
    """Soft veils on a few places of the tiles (the glossy print mirroring a lamp or a window); returns how many.

    Each veil adds one of SHEEN_LIGHTS, picked by its angle's draw (no draw of its own, so a seed's scenes
    stay the same kingdoms on the same tables). painted: the veils as drawn before 2026-12-02, a blend
    toward white that greys the print (scenes pinned by tests).
    """
    h, w = img.shape[:2]
    veil = np.zeros((h, w), np.float32)
    ys, xs = np.nonzero(tiles)
    veils = int(rng.integers(0, 3))
    light = SHEEN_LIGHTS[0]
    for k in range(veils):
        i = int(rng.integers(0, len(xs)))
        axes = (int(pitch * rng.uniform(0.5, 1.5)), int(pitch * rng.uniform(0.3, 0.8)))
        angle = float(rng.uniform(0, 180))
        if k == 0:  # one light for the scene's veils: the lamp or window they mirror
            light = SHEEN_LIGHTS[int(angle * 10) % len(SHEEN_LIGHTS)]
        cv2.ellipse(veil, (int(xs[i]), int(ys[i])), axes, angle, 0, 360, float(rng.uniform(0.25, 0.6)), -1)
    veil = cv2.GaussianBlur(veil, (0, 0), pitch / 3) * tiles
    if painted:
        return img * (1 - veil[..., None]) + 245 * veil[..., None], veils
    return _shine(img, veil, light), veils


#: The broad sheens' lights (BGR levels added where full): sky blue, lavender, pale blue (photos-loose steps 3-5).
BROAD_LIGHTS = ((200, 105, 85), (200, 115, 150), (200, 175, 160))


def _broad_glare(img: np.ndarray, tiles: np.ndarray, rng, pitch: float, theta: float,
                 painted: bool = False) -> tuple[np.ndarray, int]:
    """A window or ceiling lamp mirrored along a row of tiles: a long sheen of blue or lavender light, as on
    photos-loose steps 3-5 (a row of forests veiled over two dominoes); returns how many sheens.

    painted: the sheens as drawn before 2026-12-02, a blend toward a pale tint (scenes pinned by tests).
    """
    h, w = img.shape[:2]
    veil = np.zeros((h, w), np.float32)
    ys, xs = np.nonzero(tiles > 0.5)
    sheens = int(rng.integers(1, 3))
    for _ in range(sheens):
        i = int(rng.integers(0, len(xs)))
        along = theta + 90 * int(rng.integers(0, 2))  # along the kingdom's rows or its columns
        cv2.ellipse(veil, (int(xs[i]), int(ys[i])), (int(pitch * rng.uniform(1.5, 2.5)), int(pitch * rng.uniform(0.35, 0.6))),
                    float(along), 0, 360, float(rng.uniform(0.45, 0.75)), -1)
    veil = cv2.GaussianBlur(veil, (0, 0), pitch / 5) * tiles
    pick = int(rng.integers(0, 3))  # one draw, as rng.choice of the three painted tints drew
    if painted:
        tint = np.array([[250, 228, 215], [245, 215, 228], [250, 240, 235]][pick], np.float32)
        return img * (1 - veil[..., None]) + tint * veil[..., None], sheens
    return _shine(img, veil, BROAD_LIGHTS[pick]), sheens


def _rotation(degrees: float) -> np.ndarray:
    """The 2x2 matrix turning points (x, y) by `degrees` about the origin.

    >>> _rotation(90.0).round(6).tolist()
    [[0.0, -1.0], [1.0, 0.0]]
    """
    a = np.radians(degrees)
    return np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])


def tile_corners(cells: list[tuple[int, int]], gap: float, shift: np.ndarray, turn: float) -> np.ndarray:
    """Where a hand lays a tile covering `cells` (one square or two side by side): its corners TL TR BR BL in
    grid units (x = column, y = row), `gap` squares less on each axis, turned `turn` degrees about its middle
    and moved by `shift` (squares)."""
    rows_ = sorted({p[0] for p in cells})
    cols_ = sorted({p[1] for p in cells})
    corners = np.array([[cols_[0], rows_[0]], [cols_[-1] + 1, rows_[0]],
                        [cols_[-1] + 1, rows_[-1] + 1], [cols_[0], rows_[-1] + 1]], float)
    mid = corners.mean(axis=0)
    span = np.array([len(cols_), len(rows_)], float)
    corners = mid + (corners - mid) * (1 - gap / span)
    return mid + (corners - mid) @ _rotation(turn).T + shift


#: Tiles laid by hand touch or leave a gap; they never lie on one another. A tile whose jitter would put it
#: over one already on the table is slid out of it, as a hand pushes it against its neighbour.
#: This much clearance (in squares) is left past the touch, so float rounding never reads as overlap.
CLEARANCE = 0.002
#: Rounds of sliding off the tiles already down before a tile is taken to have no room there (see settle).
SLIDES = 20


def _separation(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The shortest move of convex polygon `a` (Nx2) that clears convex polygon `b`; zero when they are apart.

    Separating axes: two convex shapes overlap only if their shadows overlap on every edge normal of both.
    """
    best, move = np.inf, np.zeros(2)
    for poly in (a, b):
        edges = np.roll(poly, -1, axis=0) - poly
        for ex, ey in edges:
            axis = np.array([-ey, ex]) / np.hypot(ex, ey)
            pa, pb = a @ axis, b @ axis
            depth = min(pa.max(), pb.max()) - max(pa.min(), pb.min())
            if depth <= 0:
                return np.zeros(2)
            if depth < best:
                away = 1.0 if pa.mean() >= pb.mean() else -1.0
                best, move = depth, axis * away * (depth + CLEARANCE)
    return move


def slide_clear(corners: np.ndarray, table: list[np.ndarray]) -> np.ndarray | None:
    """`corners` moved the shortest way off every tile of `table` (round after round, as pushing off one may
    push onto another); None if they still overlap after SLIDES rounds."""
    for _ in range(SLIDES):
        moves = [_separation(corners, other) for other in table]
        hits = [m for m in moves if m.any()]
        if not hits:
            return corners
        corners = corners + max(hits, key=lambda m: float(m @ m))
    return None


def _push_apart(tiles: list[np.ndarray], rounds: int = 500) -> list[np.ndarray]:
    """Tiles that overlap each pushed half the way off the other, round after round, until none overlap:
    a tile laid where there is no room for it nudges its neighbours aside."""
    tiles = [t.copy() for t in tiles]
    for _ in range(rounds):
        moved = False
        for j in range(len(tiles)):
            for i in range(j):
                move = _separation(tiles[j], tiles[i])
                if move.any():
                    tiles[j] += move / 2
                    tiles[i] -= move / 2
                    moved = True
        if not moved:
            return tiles
    raise RuntimeError("tiles still overlap after pushing them apart")


def settle(tiles: list[np.ndarray]) -> list[np.ndarray]:
    """Tiles (corners, Nx2) laid one after another where the hand's jitter put them, none on another.

    Each is slid the shortest way off those already down (slide_clear); one that finds no room (laid into a
    notch narrower than itself) pushes the tiles it lands on aside instead (_push_apart).
    """
    down: list[np.ndarray] = []
    for corners in tiles:
        slid = slide_clear(corners, down)
        down = down + [slid] if slid is not None else _push_apart(down + [corners])
    return down


#: The widest gap between a kingdom's tiles, a share of a square.
MAX_GAP = 0.06
#: The most a kingdom photographed close (make_loose_scene(close=True)) is turned in the photo, degrees.
CLOSE_TURN = 5


def make_loose_scene(bank: SquareBank, rng: np.random.Generator, surface: str | None = None,
                     size: int | None = None, strays: int | None = None, jpeg: bool = True,
                     dominoes: tuple[int, int] | None = None, glare: str | None = None,
                     overlapping: bool = False, painted_glare: bool | None = None,
                     frame: tuple[int, int] | None = None, square: float | None = None,
                     table: np.ndarray | None = None, close: bool = False, tilt: float | None = None) -> LooseScene:
    """One kingdom laid by hand on a random surface, maybe with stray dominoes beside it.

    surface: one of SURFACES or MORE_SURFACES (by default a random one of SURFACES). glare: "veil"
    (soft white veils) or "broad" (long tinted sheens along a row of tiles) on every scene; by
    default half the scenes get veils, and the same seed draws the same scenes as before these options.

    dominoes: (fewest, most) dominoes beside the castle, for kingdoms in progress (a game photographed
    after every round: 1 after the first); by default any count up to a full frame, and the same seed
    draws the same scenes as before this option existed.

    Tiles never overlap: one whose jitter would put it on a tile already down is slid off it (slide_clear),
    touching or leaving a gap, so offsets accumulate along a row as on a real table. overlapping=True draws
    tiles where their jitter puts them, over earlier ones: the scenes every seed drew before 2026-12-02
    (tests that pin a scene ask for it). Both draw the same random numbers, so a seed's scenes are the same
    kingdoms, tables and light either way; only where the tiles lie (and so where veils fall) differs.

    Glare is light the glossy print mirrors, added over it (SHEEN_LIGHTS). painted_glare=True draws it as
    before, a blend toward white or a pale tint over the print, easier to read through than the real sheen of
    photos-loose; the same random numbers either way. By default it goes with `overlapping`: the old scenes
    whole, as tests pin them.

    frame (w, h), square (px per square) and table (an h x w draw_surface image) fix the image's size, the
    tiles' and the surface in place of the drawn ones (drawn all the same, so the scene is otherwise the
    seed's): two halves of one table, at one square, joined make a photo of two kingdoms on one table
    (benchmarks/eval_two_loose.py). The square must leave room for the kingdom and its strays in the frame
    (w over 12 and h over 10 squares fit any).

    close=True frames the scene as players photograph their kingdom: its 5x5 or 7x7 frame, turned and with
    its gaps at their widest, fills 85-100% of the photo's short side (photos-loose: 5.1 squares across it,
    the 7x7 photos of ../shared/data/photos 7.6), turned at most CLOSE_TURN degrees, no strays in the photo.
    By default the kingdom and three squares round it fit the photo: squares of 30-80 px in the finder's
    800 px image, where the real photos show 60-120. A seed's kingdoms and tables stay its own (drawn
    before the strays); its light and glare do not.

    tilt (degrees, up to MAX_TILT): the photo taken from a chair, the camera tilted off straight down by
    tilt/2 to tilt degrees toward the photo's bottom (tilted_view): the far rows smaller than the near ones,
    squares foreshortened, the kingdom's sides converging. The table is drawn on a canvas TILT_CANVAS times
    the frame (the tilted camera sees more of it at the far side) from a copy of the generator: a seed's scenes
    are its untilted ones (kingdoms, surfaces, light, glare), seen from a chair on a table drawn anew.
    """
    from kscore.game.kingdom import Kingdom
    from kscore.game.scoring import score_kingdom

    if glare not in (None, *GLARES):
        raise ValueError(f"glare {glare!r}: expected one of {', '.join(GLARES)}")
    if tilt and (table is not None or not 0 < tilt <= MAX_TILT):
        raise ValueError(f"tilt {tilt!r}: 0 to {MAX_TILT} degrees, on a table the scene draws")
    surface = surface or SURFACES[int(rng.integers(0, len(SURFACES)))]
    size = size or int(rng.choice([5, 5, 5, 7]))
    most = (size * size - 1) // 2
    if dominoes is not None:
        count = int(rng.integers(min(dominoes[0], most), min(dominoes[1], most) + 1))
    elif rng.random() < 0.5:
        count = int(rng.integers(1, most + 1))
    else:
        count = int(rng.integers(max(1, most - 3), most + 1))
    placed, castle = build_kingdom(rng, size, count, bank)
    strays = int(rng.choice([0, 0, 1, 2, 3])) if strays is None else strays
    w, h = int(rng.choice([1600, 1400, 1200])), int(rng.choice([1200, 1050, 900]))
    w, h = frame or (w, h)
    cells = [castle] + [p for d in placed for p in d.cells]
    r0, c0 = min(p[0] for p in cells), min(p[1] for p in cells)
    rows_n, cols_n = max(p[0] for p in cells) - r0 + 1, max(p[1] for p in cells) - c0 + 1
    share = rng.uniform(0.6, 0.9)
    pitch = share * min(w / (cols_n + 3 + 2 * (strays > 0)), h / (rows_n + 3), 170)
    theta = rng.uniform(-25, 25)
    if close:  # the frame, turned and its gaps at their widest, fills 85-100% of the short side
        strays, theta = 0, theta * CLOSE_TURN / 25
        turned = np.cos(np.radians(CLOSE_TURN)) + np.sin(np.radians(CLOSE_TURN))
        pitch = (0.85 + (share - 0.6) / 2) * min(w, h) / (size * (1 + MAX_GAP) * turned)
    pitch = square or pitch
    # The table as drawn top-down: the photo's frame, or for a tilted camera a larger canvas round it.
    cw, ch = (round(w * TILT_CANVAS), round(h * TILT_CANVAS)) if tilt else (w, h)
    img = draw_surface(surface, rng, h, w).astype(np.float32)
    if tilt:  # the seed's draws go on as untilted (that table drawn and left); the canvas from a copy of them
        camera_rng = copy.deepcopy(rng)
        img = draw_surface(surface, camera_rng, ch, cw).astype(np.float32)
    img = img if table is None else table.astype(np.float32)
    tiles = np.zeros((ch, cw), np.float32)
    centre = np.array([w / 2 + rng.uniform(-0.1, 0.1) * w, h / 2 + rng.uniform(-0.1, 0.1) * h])
    if close:  # the frame's middle near the photo's: (size - extent) / 2 squares of room either way
        room = np.array([size - cols_n, size - rows_n]) * pitch / 2
        centre = np.array([w / 2, h / 2]) + (centre - [w / 2, h / 2]) / (0.1 * np.array([w, h])) * room
    if strays:
        centre[0] -= pitch * 1.2  # room on the right for the draft line
    centre += [(cw - w) / 2, (ch - h) / 2]
    rot = _rotation(theta)

    def to_scene(r: float, c: float) -> np.ndarray:
        local = np.array([c - c0 - cols_n / 2, r - r0 - rows_n / 2]) * pitch
        return centre + rot @ local

    gap = rng.uniform(0.01, MAX_GAP)
    loose = rng.uniform(0.02, 0.1)  # how carelessly dominoes are laid (sd of offsets, in squares)

    quads: dict = {}  # kingdom cell -> its square's quad in the image
    laid: list = []  # every tile (castle, dominoes, strays) in the order laid: (image, rows, cols, corners, record)

    def lay(pieces: dict, shift: np.ndarray, turn: float, record: bool = True) -> None:
        """One tile: its squares (cell -> 100 px image, one or two side by side) moved and turned as one.

        Its corners are in grid units (x = column, y = row); it is drawn once every tile is laid.
        record: keep each square's quad in `quads` (the kingdom's squares, not strays').
        """
        rows_ = sorted({p[0] for p in pieces})
        cols_ = sorted({p[1] for p in pieces})
        if len(rows_) == 1:
            image = _tile_image([pieces[(rows_[0], c)] for c in cols_], rng)
        else:
            image = np.rot90(_tile_image([np.rot90(pieces[(r, cols_[0])], 1) for r in rows_], rng), -1)  # first row on top
        laid.append((np.ascontiguousarray(image), rows_, cols_, tile_corners(list(pieces), gap, shift, turn), record))

    def draw(image: np.ndarray, rows_: list, cols_: list, corner_cells: np.ndarray, record: bool) -> np.ndarray:
        """One laid tile drawn on the table, later tiles over earlier ones; returns its outline in the image."""
        dst = np.array([to_scene(y, x) for x, y in corner_cells], np.float32)
        src = np.float32([[0, 0], [image.shape[1], 0], [image.shape[1], image.shape[0]], [0, image.shape[0]]])
        hom = cv2.getPerspectiveTransform(src, dst)
        if record:
            side_x, side_y = image.shape[1] / len(cols_), image.shape[0] / len(rows_)
            for i, r in enumerate(rows_):
                for j, c in enumerate(cols_):
                    x0, y0 = j * side_x, i * side_y
                    square = np.float32([[[x0, y0], [x0 + side_x, y0], [x0 + side_x, y0 + side_y], [x0, y0 + side_y]]])
                    quads[(r, c)] = cv2.perspectiveTransform(square, hom)[0].astype(np.float64)
        shadow = np.zeros((ch, cw), np.float32)
        cv2.fillConvexPoly(shadow, (dst + pitch * 0.03).astype(np.int32), 1.0)
        shadow = cv2.GaussianBlur(shadow, (0, 0), max(1.0, pitch * 0.04))
        img[:] *= (1 - 0.45 * shadow)[..., None]
        warped = cv2.warpPerspective(image, hom, (cw, ch), flags=cv2.INTER_LINEAR)
        mask = cv2.warpPerspective(np.ones(image.shape[:2], np.float32), hom, (cw, ch), flags=cv2.INTER_LINEAR)
        img[:] = img * (1 - mask[..., None]) + warped * mask[..., None]
        tiles[:] = np.maximum(tiles, mask)
        return dst.astype(np.float64)

    def jitter() -> tuple[np.ndarray, float]:
        return np.clip(rng.normal(0, loose, 2), -0.25, 0.25), float(np.clip(rng.normal(0, 1.5), -4, 4))

    grid: dict = {castle: Square(Terrain.CASTLE)}
    shift, turn = jitter()
    lay({castle: bank.castle(rng, flat=rng.random() < 0.5)}, shift, turn)
    for d in placed:
        shift, turn = jitter()
        lay({cell: bank.square((sq.terrain, sq.crowns), rng) for cell, sq in zip(d.cells, d.squares)}, shift, turn)
        grid[d.cells[0]], grid[d.cells[1]] = d.squares
    # Stray dominoes: a draft line to the right, at least a square and a half away.
    used = {(d.squares[0].terrain, d.squares[0].crowns, d.squares[1].terrain, d.squares[1].crowns) for d in placed}
    box = [d for d in KINGDOMINO.dominoes if (d[1][0], d[1][1], d[2][0], d[2][1]) not in used
           and bank.squares.get((d[1][0], d[1][1])) and bank.squares.get((d[2][0], d[2][1]))]
    for k in range(strays):
        _, a, b = box[int(rng.integers(0, len(box)))]
        row, col = r0 + round(k * 1.5), c0 + cols_n + 2
        shift, turn = jitter()
        shift = shift + [rng.uniform(0, 0.4), rng.uniform(-0.2, 0.2)]
        lay({(row, col): bank.square((a[0], a[1]), rng), (row, col + 1): bank.square((b[0], b[1]), rng)}, shift, turn,
            record=False)
    places = [corners for _, _, _, corners, _ in laid]
    if not overlapping:
        places = settle(places)
    outlines = tuple(draw(image, rows_, cols_, corners, record)
                     for (image, rows_, cols_, _, record), corners in zip(laid, places))
    if surface == "rug":
        img = _lamp(img, rng)
    img, light = _warm_or_cold(img, rng)
    veils = 0
    painted_glare = overlapping if painted_glare is None else painted_glare
    if glare == "broad":
        img, veils = _broad_glare(img, tiles, rng, pitch, theta, painted_glare)
    elif glare == "veil" or (glare is None and rng.random() < 0.5):
        img, veils = _glare(img, tiles, rng, pitch, painted_glare)
    if tilt:
        img, quads, outlines, pitch = _photographed_tilted(img, quads, outlines, pitch, (w, h),
                                                           tilt * camera_rng.uniform(0.5, 1))
    if rng.random() < 0.6:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.2))
    img = np.clip(img + rng.normal(0, rng.uniform(1, 5), img.shape).astype(np.float32), 0, 255).astype(np.uint8)
    if jpeg:
        _ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(60, 95))])
        img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    rows = tuple(tuple(grid.get((r, c), Square(Terrain.EMPTY)) for c in range(c0, c0 + cols_n))
                 for r in range(r0, r0 + rows_n))
    frame = [[Square(Terrain.EMPTY)] * size for _ in range(size)]
    for r, row in enumerate(rows):
        for c, sq in enumerate(row):
            frame[r][c] = sq
    score = score_kingdom(Kingdom.from_rows("truth", frame), check=False).total
    extent_quads = {(r - r0, c - c0): q for (r, c), q in quads.items()}
    return LooseScene(img, rows, score, strays, surface, size, float(pitch), extent_quads, light, veils,
                      outlines)


#: The canvas a tilted scene's table is drawn on, in frames (both ways): a camera tilted MAX_TILT degrees sees
#: the table up to 1.5 frames wide and deep round its centre (more when zoomed out to keep a kingdom whole).
TILT_CANVAS = 1.8
#: The most a scene's camera is tilted off straight down, degrees (make_loose_scene(tilt=)).
MAX_TILT = 30
#: Half the camera's field of view across the photo's short side, degrees (a phone's main camera: ~25).
HALF_VIEW = 25


def tilted_view(canvas: tuple[int, int], frame: tuple[int, int], tilt: float, points: np.ndarray,
                margin: float = 0.0) -> np.ndarray:
    """The homography from a table drawn top-down on a `canvas` (w, h) to a photo `frame` (w, h) taken by a
    camera tilted `tilt` degrees off straight down toward the photo's bottom (where the player sits): it looks
    at the canvas' centre, at the canvas' scale there, zoomed out (never in) so every one of `points` (n x 2,
    canvas pixels) lies `margin` pixels inside the frame.

    A pinhole camera at height f (its focal length, HALF_VIEW across half the frame's short side) over the
    centre, turned by the tilt about the x axis: a table point (X, Y) from the centre is seen at
    (X, Y cos t) / (1 - Y sin t / f).

    >>> centre, near, far = np.float64([[100, 100], [100, 150], [100, 50]])
    >>> hom = tilted_view((200, 200), (100, 100), 20, np.float64([[60, 60], [140, 140]]))
    >>> seen = cv2.perspectiveTransform(np.float64([[centre, near, far]]), hom)[0]
    >>> seen[0].round(6).tolist()  # the centre in the middle of the photo
    [50.0, 50.0]
    >>> bool(seen[1, 1] - 50 > 50 - seen[2, 1])  # a step toward the player looks longer than one away
    True
    """
    t = np.radians(tilt)
    f = min(frame) / 2 / np.tan(np.radians(HALF_VIEW))
    to_centre = np.float64([[1, 0, -canvas[0] / 2], [0, 1, -canvas[1] / 2], [0, 0, 1]])
    camera = np.float64([[1, 0, 0], [0, np.cos(t), 0], [0, -np.sin(t) / f, 1]])
    seen = cv2.perspectiveTransform(np.float64(points).reshape(1, -1, 2), camera @ to_centre)[0]
    reach = np.abs(seen).max(axis=0)
    zoom = min(1.0, (frame[0] / 2 - margin) / max(reach[0], 1e-9), (frame[1] / 2 - margin) / max(reach[1], 1e-9))
    to_frame = np.float64([[zoom, 0, frame[0] / 2], [0, zoom, frame[1] / 2], [0, 0, 1]])
    return to_frame @ camera @ to_centre


def _photographed_tilted(img: np.ndarray, quads: dict, outlines: tuple, pitch: float, frame: tuple[int, int],
                         tilt: float) -> tuple[np.ndarray, dict, tuple, float]:
    """The drawn canvas as a camera tilted `tilt` degrees sees it in `frame` (tilted_view), every tile whole
    in the photo: the photo, its squares' quads, the tiles' outlines and the pitch at the kingdom (its
    squares' mean side, scaled as the view scales them)."""
    hom = tilted_view((img.shape[1], img.shape[0]), frame, tilt, np.concatenate(outlines), margin=0.2 * pitch)
    img = cv2.warpPerspective(img, hom, frame, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT_101)

    def seen(quad: np.ndarray) -> np.ndarray:
        return cv2.perspectiveTransform(np.float64(quad).reshape(1, -1, 2), hom)[0]

    def side(quad: np.ndarray) -> float:
        return float(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1).mean())

    before = np.mean([side(q) for q in quads.values()])
    quads = {cell: seen(q) for cell, q in quads.items()}
    pitch *= np.mean([side(q) for q in quads.values()]) / before
    return img, quads, tuple(seen(o) for o in outlines), float(pitch)


#: How far the photo's edge cuts into a cut kingdom (cut_by_edge), in squares past its outermost tile's side:
#: from a third of a square (most of that tile in the photo) to a square and a half.
CUT_DEPTH = (0.35, 1.5)


def cut_by_edge(scene: LooseScene, rng: np.random.Generator) -> tuple[np.ndarray, str, tuple[int, int]]:
    """The scene's photo cropped on one side (drawn at random) through its kingdom's outermost tiles, that
    side, and where the crop's top-left corner lies in the scene (x, y): a kingdom partly out of the photo,
    which kscore must say is cut and never score as whole.

    >>> from types import SimpleNamespace
    >>> square = np.float64([[40, 40], [60, 40], [60, 60], [40, 60]])
    >>> scene = SimpleNamespace(image=np.zeros((100, 120, 3), np.uint8), quads={(0, 0): square}, pitch=20.0)
    >>> image, side, corner = cut_by_edge(scene, np.random.default_rng(0))
    >>> side, image.shape[:2], corner  # the bottom edge now crosses the tile (rows 40 to 60)
    ('bottom', (47, 120), (0, 0))
    """
    pts = np.concatenate(list(scene.quads.values()))
    side = ("left", "right", "top", "bottom")[int(rng.integers(0, 4))]
    depth = rng.uniform(*CUT_DEPTH) * scene.pitch
    if side == "left":
        x0 = int(round(pts[:, 0].min() + depth))
        return scene.image[:, x0:], side, (x0, 0)
    if side == "right":
        return scene.image[:, :int(round(pts[:, 0].max() - depth))], side, (0, 0)
    if side == "top":
        y0 = int(round(pts[:, 1].min() + depth))
        return scene.image[y0:], side, (0, y0)
    return scene.image[:int(round(pts[:, 1].max() - depth))], side, (0, 0)


__all__ = ["BROAD_LIGHTS", "CASTS", "GLARES", "MAX_TILT", "SHEEN_LIGHTS", "MORE_SURFACES", "SURFACES", "SquareBank", "LooseScene", "build_kingdom", "cut_by_edge", "draw_surface", "make_loose_scene", "settle", "slide_clear", "tile_corners", "tilted_view"]
