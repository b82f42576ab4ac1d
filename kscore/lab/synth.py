"""Synthetic photos of kingdoms on a table, with ground truth for free.

The labelled 500x500 boards are pasted into procedurally made scenes (wood,
cloth, carpet, white table, cutting mat with a printed grid, clutter) through a
random camera (any rotation, tilt up to ~45 degrees, scale), then lit unevenly,
shadowed, blurred, noised and JPEG-compressed. Used by tests and by
benchmarks/eval_synthetic.py to measure localisation and the whole pipeline on
kingdoms the recogniser never trained on.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from kscore.game.kingdom import Kingdom
from kscore.vision.geometry import photo_order

BACKGROUNDS = ("wood", "cloth", "carpet", "table", "mat", "clutter")


@dataclass(frozen=True)
class BoardSource:
    """A top-down board image whose corners are its grid's corners."""

    image: np.ndarray  # BGR, square
    kingdom: Kingdom
    name: str


@dataclass(frozen=True)
class SynthKingdom:
    corners: np.ndarray  # (4, 2) TL, TR, BR, BL as the scene shows them
    kingdom: Kingdom  # rows in the scene's orientation
    name: str
    partial: bool  # part of the board lies outside the scene


@dataclass(frozen=True)
class SynthScene:
    image: np.ndarray
    kingdoms: tuple[SynthKingdom, ...]
    background: str


def compose_board(squares: list[tuple[np.ndarray, object]], size: int, name: str, px: int = 100) -> BoardSource:
    """A size x size board from square crops (image, Square): for 7x7 scenes."""
    image = np.zeros((size * px, size * px, 3), np.uint8)
    rows = []
    for r in range(size):
        row = []
        for c in range(size):
            crop, square = squares[r * size + c]
            image[r * px : (r + 1) * px, c * px : (c + 1) * px] = cv2.resize(crop, (px, px))
            row.append(square)
        rows.append(row)
    return BoardSource(image, Kingdom.from_rows(name, rows), name)


# ---------------------------------------------------------------- backgrounds


def _noise(rng: np.random.Generator, h: int, w: int, scale: float) -> np.ndarray:
    """Smooth value noise in [0, 1] with features about `scale` px wide."""
    gh, gw = max(2, int(h / scale) + 2), max(2, int(w / scale) + 2)
    small = rng.random((gh, gw)).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC).clip(0, 1)


def _wood(rng, h, w):
    base = np.array(rng.choice([[60, 110, 170], [40, 80, 130], [90, 150, 200], [30, 55, 90]]), np.float32)
    base = base * rng.uniform(0.8, 1.15)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    theta = rng.uniform(0, np.pi)
    u = xx * np.cos(theta) + yy * np.sin(theta)
    v = -xx * np.sin(theta) + yy * np.cos(theta)
    warp = _noise(rng, h, w, rng.uniform(80, 300)) * rng.uniform(20, 80)
    grain = 0.5 + 0.5 * np.sin((v + warp) * rng.uniform(0.05, 0.2))
    fine = _noise(rng, h, w, 3)
    shade = 0.75 + 0.2 * grain + 0.1 * fine
    img = base[None, None, :] * shade[..., None]
    # planks
    if rng.random() < 0.6:
        pitch = rng.uniform(120, 400)
        seam = (np.mod(u, pitch) < 3).astype(np.float32)
        img *= (1 - 0.5 * seam)[..., None]
    return img


def _cloth(rng, h, w):
    hue = rng.uniform(0, 180)
    sat = rng.uniform(20, 160)
    val = rng.uniform(60, 220)
    hsv = np.uint8([[[hue, sat, val]]])
    base = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    pitch = rng.uniform(3, 8)
    weave = 0.5 + 0.25 * (np.sin(xx * 2 * np.pi / pitch) + np.sin(yy * 2 * np.pi / pitch))
    folds = _noise(rng, h, w, rng.uniform(100, 400))
    shade = 0.8 + 0.1 * weave + 0.25 * (folds - 0.5)
    return base[None, None, :] * shade[..., None]


def _carpet(rng, h, w):
    grey = rng.uniform(90, 200)
    tint = rng.uniform(-15, 15, 3)
    fine = rng.random((h, w)).astype(np.float32)
    fine = cv2.GaussianBlur(fine, (0, 0), 1.0)
    blotch = _noise(rng, h, w, rng.uniform(20, 60))
    shade = 0.7 + 0.4 * fine + 0.2 * (blotch - 0.5)
    return (grey + tint)[None, None, :] * shade[..., None]


def _table(rng, h, w):
    base = rng.uniform(200, 245) + rng.uniform(-8, 8, 3)
    shade = 0.95 + 0.05 * _noise(rng, h, w, 50)
    return base[None, None, :] * shade[..., None]


def _mat(rng, h, w):
    base = np.array(rng.choice([[90, 45, 20], [100, 60, 30], [40, 80, 30], [50, 50, 50]]), np.float32)
    img = np.broadcast_to(base, (h, w, 3)).copy()
    img *= (0.9 + 0.2 * _noise(rng, h, w, 200))[..., None]
    pitch = rng.uniform(15, 45)
    line = tuple(float(v) for v in np.clip(base + rng.uniform(90, 160), 0, 255))
    for i, pos in enumerate(np.arange(rng.uniform(0, pitch), max(h, w), pitch)):
        t = 2 if i % 5 == 0 else 1
        p = int(pos)
        cv2.line(img, (p, 0), (p, h), line, t)
        cv2.line(img, (0, p), (w, p), line, t)
    img = img.clip(0, 255).astype(np.uint8)  # putText draws on 8-bit images only
    for _ in range(int(rng.integers(3, 12))):
        org = (int(rng.integers(0, w)), int(rng.integers(0, h)))
        cv2.putText(img, str(int(rng.integers(0, 60))), org, cv2.FONT_HERSHEY_SIMPLEX, rng.uniform(0.6, 2.0), line, 2)
    return img.astype(np.float32)


def _clutter(rng, h, w):
    # the base only: objects are added by _add_clutter once the boards are placed
    return [_wood, _cloth, _carpet, _table][int(rng.integers(0, 4))](rng, h, w)


def _add_clutter(img, rng, keep_clear: np.ndarray, count: int) -> None:
    """Draw objects (cards, dice, pads...) that do not touch the boards.

    Objects touching or covering a board are out of scope: colour alone cannot
    tell a red card from a red roof, and players clear the table to score.
    """
    h, w = img.shape[:2]
    for _ in range(count):
        colour = tuple(float(v) for v in rng.uniform(0, 255, 3))
        cx, cy = int(rng.integers(0, w)), int(rng.integers(0, h))
        s = int(rng.uniform(0.03, 0.15) * max(h, w))
        shape = np.zeros((h, w), np.uint8)
        kind = rng.integers(0, 3)
        if kind == 0:
            box = cv2.boxPoints(((cx, cy), (s, s * rng.uniform(0.3, 1.5)), rng.uniform(0, 180))).astype(np.int32)
            cv2.fillPoly(shape, [box], 1)
        elif kind == 1:
            cv2.ellipse(shape, (cx, cy), (s, int(s * rng.uniform(0.3, 1))), rng.uniform(0, 180), 0, 360, 1, -1)
        else:
            pts = (np.array([cx, cy]) + rng.normal(0, s, (5, 2))).astype(np.int32)
            cv2.fillPoly(shape, [pts], 1)
        if np.any(shape & keep_clear):
            continue
        img[shape.astype(bool)] = colour


_MAKERS = {"wood": _wood, "cloth": _cloth, "carpet": _carpet, "table": _table, "mat": _mat, "clutter": _clutter}


def background(kind: str, rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A float32 BGR background of the given kind."""
    return _MAKERS[kind](rng, h, w).astype(np.float32)


# ---------------------------------------------------------------- camera


def _cross(a, b) -> float:
    return float(a[0] * b[1] - a[1] * b[0])


@dataclass(frozen=True)
class Camera:
    """A pinhole camera over the table: board coordinates to scene pixels.

    Board coordinates: x, y across the board from its top-left corner, z up from
    the table, all in board sides. Standing castles are drawn through it, so they
    lean as far as the camera's angle makes them: barely from above, about their
    height from a chair.
    """

    rotation: np.ndarray  # (3, 3) board -> camera
    distance: float  # camera to board centre, in board sides
    offset: np.ndarray  # (2,) subtracted after the projection...
    scale: float  # ...then scaled...
    centre: np.ndarray  # ...and placed here in the scene

    def project(self, points: np.ndarray) -> np.ndarray:
        pts = (np.asarray(points, float) - [0.5, 0.5, 0.0]) * [1.0, 1.0, -1.0]  # up = towards the camera
        cam = pts @ self.rotation.T
        proj = cam[:, :2] / (cam[:, 2:3] + self.distance)
        return (proj - self.offset) * self.scale + self.centre

    def quad(self) -> np.ndarray:
        """The board's corners, clockwise from its top-left."""
        return self.project(np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]], float))


def random_camera(rng, side, centre, max_tilt_deg) -> Camera:
    """A camera that shows a square board of the given apparent size (sqrt of its area) at `centre`."""
    yaw = rng.uniform(0, 2 * np.pi)
    tilt = np.deg2rad(rng.uniform(0, max_tilt_deg))
    tilt_dir = rng.uniform(0, 2 * np.pi)
    cz, sz = np.cos(yaw), np.sin(yaw)
    rz = np.array([[cz, -sz, 0], [sz, cz, 0], [0, 0, 1]])
    axis = np.array([np.cos(tilt_dir), np.sin(tilt_dir), 0.0])
    rt, _ = cv2.Rodrigues(axis * tilt)
    distance = rng.uniform(1.3, 2.5)  # board size relative to camera distance: perspective strength
    rotation = rt @ rz
    unit = Camera(rotation, distance, np.zeros(2), 1.0, np.zeros(2)).quad()
    offset = unit.mean(axis=0)
    scale = side / np.sqrt(max(abs(_cross(unit[1] - unit[0], unit[3] - unit[0])), 1e-9))
    return Camera(rotation, distance, offset, scale, np.asarray(centre, float))


def make_scene(
    boards: list[BoardSource],
    rng: np.random.Generator,
    size: tuple[int, int] | None = None,
    background_kind: str | None = None,
    max_tilt_deg: float = 45.0,
    allow_partial: bool = False,
    jpeg: bool = True,
    castles: float = 0.5,
    light: bool = True,
) -> SynthScene:
    """Paste `boards` into one random scene; returns the image and ground truth.

    `castles`: the share of boards whose castle stands in 3D on its square.
    `light`: uneven light, colour cast and cast shadows over the whole scene.
    """
    w, h = size or (int(rng.choice([1600, 1200, 1400])), int(rng.choice([1200, 1600, 1050])))
    kind = background_kind or BACKGROUNDS[int(rng.integers(0, len(BACKGROUNDS)))]
    img = background(kind, rng, h, w)
    occupied = np.zeros((h, w), np.uint8)
    truths: list[SynthKingdom] = []
    n = len(boards)
    for board in boards:
        for _attempt in range(30):
            side = rng.uniform(0.25, 0.6 if n == 1 else 0.42) * min(w, h)
            margin = -0.3 * side if allow_partial else 0.75 * side
            centre = (rng.uniform(margin, w - margin), rng.uniform(margin, h - margin))
            camera = random_camera(rng, side, centre, max_tilt_deg)
            quad = camera.quad()
            poly = np.zeros_like(occupied)
            cv2.fillConvexPoly(poly, quad.astype(np.int32), 1)
            inside = bool(np.all((quad >= 2) & (quad <= [w - 3, h - 3])))
            if not allow_partial and not inside:
                continue
            grown = cv2.dilate(poly, np.ones((int(side * 0.15) | 1,) * 2, np.uint8))
            if np.any(grown & occupied) or poly.sum() < 0.5 * side * side * 0.3:
                continue
            occupied |= grown
            truths.append(paste_board(img, board, quad, rng, camera if rng.random() < castles else None))
            break
    if kind == "clutter" or rng.random() < 0.2:
        _add_clutter(img, rng, occupied, int(rng.integers(3, 12)))
    if light:
        img = _light(img, rng)
    if rng.random() < 0.7:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.8))
    img = img + rng.normal(0, rng.uniform(1, 7), img.shape).astype(np.float32)
    img = np.clip(img, 0, 255).astype(np.uint8)
    if jpeg:
        _ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(45, 95))])
        img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return SynthScene(img, tuple(truths), kind)


def scene_with_quads(
    boards: list[BoardSource], quads: list[np.ndarray], rng: np.random.Generator, size=(1200, 900), background_kind="wood"
) -> SynthScene:
    """A scene with boards exactly where asked (corners clockwise from each board's TL)."""
    w, h = size
    img = background(background_kind, rng, h, w)
    truths = tuple(paste_board(img, b, np.asarray(q, float), rng) for b, q in zip(boards, quads))
    img = np.clip(img + rng.normal(0, 2, img.shape), 0, 255).astype(np.uint8)
    return SynthScene(img, truths, background_kind)


def paste_board(img, board: BoardSource, quad, rng, castle_camera: Camera | None = None) -> SynthKingdom:
    """Draw the board (with a drop shadow) where `quad` says; its ground truth.

    With `castle_camera` (the camera that gave `quad`) a 3D castle stands on the castle square."""
    h, w = img.shape[:2]
    partial = not bool(np.all((quad >= 2) & (quad <= [w - 3, h - 3])))
    bs = board.image.shape[0]
    src = np.float32([[0, 0], [bs, 0], [bs, bs], [0, bs]])
    hom = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
    # drop shadow and the tiles' dark sides just outside the grid
    shadow = np.zeros((h, w), np.float32)
    offset = rng.normal(0, 0.015, 2) * np.sqrt(max(abs(_cross(quad[1] - quad[0], quad[3] - quad[0])), 1))
    cv2.fillConvexPoly(shadow, (quad + offset).astype(np.int32), 1.0)
    shadow = cv2.GaussianBlur(shadow, (0, 0), rng.uniform(2, 12))
    img *= (1 - rng.uniform(0.2, 0.5) * shadow)[..., None]
    warped = cv2.warpPerspective(board.image, hom, (w, h), flags=cv2.INTER_LINEAR).astype(np.float32)
    mask = cv2.warpPerspective(np.ones((bs, bs), np.float32), hom, (w, h), flags=cv2.INTER_LINEAR)[..., None]
    img *= 1 - mask
    img += warped * mask
    if castle_camera is not None and board.kingdom.castles():
        draw_standing_castle(img, castle_camera, board.kingdom.castles()[0], board.kingdom.size, rng)
    ordered, turns = photo_order(quad)
    # The board's own corner `turns` (clockwise from its TL) is the scene's TL:
    # the scene shows the board turned `turns` quarter turns anticlockwise.
    kingdom = board.kingdom
    for _ in range((4 - turns) % 4):
        kingdom = kingdom.rotated()
    return SynthKingdom(ordered, kingdom, board.name, partial)


def draw_standing_castle(img, camera: Camera, square: tuple[int, int], size: int, rng) -> None:
    """A standing 3D castle on `square` (row, column) of a size x size board seen by `camera`.

    A box of stone walls under a pyramid roof in a player's colour.
    Projected through the camera, it hides the squares behind it as seen from
    the chair and may stick out past the board's edge: what localisation and
    the recogniser must shrug off. Sizes are in squares: base 0.6-0.8, walls
    0.6-1.0 high, roof 0.3-0.5 more (a Kingdomino castle is about a square tall).
    """
    r, c = square
    cell = 1.0 / size
    half = rng.uniform(0.3, 0.4) * cell
    cx, cy = (c + 0.5) * cell + rng.normal(0, 0.05) * cell, (r + 0.5) * cell + rng.normal(0, 0.05) * cell
    wall_h, roof_h = rng.uniform(0.6, 1.0) * cell, rng.uniform(0.3, 0.5) * cell
    foot3 = np.array([[cx - half, cy - half, 0], [cx + half, cy - half, 0], [cx + half, cy + half, 0],
                      [cx - half, cy + half, 0]], float)
    top3 = foot3 + [0, 0, wall_h]
    tip3 = np.array([[cx, cy, wall_h + roof_h]])
    foot, top, tip = camera.project(foot3), camera.project(top3), camera.project(tip3)[0]
    colour = np.array(rng.choice([[200, 120, 220], [60, 200, 230], [80, 170, 90], [210, 140, 60]]), float)
    wall = 0.5 * colour + 0.5 * np.array([150, 150, 155])
    eye = camera.rotation.T @ np.array([0, 0, -camera.distance])  # the camera in board coordinates...
    eye = eye * [1, 1, -1] + [0.5, 0.5, 0]  # ...with z up, as the castle is built

    def far_first(faces3):
        return sorted(faces3, key=lambda f: -np.linalg.norm(np.mean(f[0], axis=0) - eye))

    walls = [(np.array([foot3[i], foot3[(i + 1) % 4], top3[(i + 1) % 4], top3[i]]),
              np.array([foot[i], foot[(i + 1) % 4], top[(i + 1) % 4], top[i]]), wall * rng.uniform(0.6, 1.0))
             for i in range(4)]
    roofs = [(np.array([top3[i], top3[(i + 1) % 4], tip3[0]]), np.array([top[i], top[(i + 1) % 4], tip]),
              colour * rng.uniform(0.7, 1.0)) for i in range(4)]
    for _faces3, face, shade in far_first(walls) + far_first(roofs):
        cv2.fillConvexPoly(img, face.astype(np.int32), tuple(float(v) for v in shade))


def _light(img, rng):
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    angle = rng.uniform(0, 2 * np.pi)
    ramp = (xx * np.cos(angle) + yy * np.sin(angle)) / max(h, w)
    gain = rng.uniform(0.7, 1.05) + rng.uniform(0, 0.45) * (ramp - ramp.min())
    if rng.random() < 0.4:  # a soft cast shadow across the scene
        poly = (rng.random((4, 2)) * [w, h]).astype(np.int32)
        shade = np.zeros((h, w), np.float32)
        cv2.fillPoly(shade, [poly], 1.0)
        gain = gain * (1 - rng.uniform(0.15, 0.4) * cv2.GaussianBlur(shade, (0, 0), rng.uniform(10, 40)))
    tint = rng.uniform(0.9, 1.1, 3).astype(np.float32)
    return img * gain[..., None] * tint
