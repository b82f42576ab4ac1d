"""Draw what kscore read onto the photo: `kscore photo.jpg --overlay out.jpg`.

Per kingdom: the grid, each square's reading (terrain letter and crowns),
unsure squares shaded red, every scoring property outlined with its points,
and the kingdom's name and score. Partial kingdoms get a dashed outline and
"not scored". Drawn on the decoded photo (reduced resolution is plenty).
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import cv2
import numpy as np

from kscore.game.kingdom import Terrain
from kscore.vision.load import load_photo

_LETTER = {Terrain.WHEAT: "W", Terrain.GRASSLAND: "G", Terrain.FOREST: "F", Terrain.LAKE: "L", Terrain.SWAMP: "S",
           Terrain.MINE: "M", Terrain.CASTLE: "C", Terrain.EMPTY: ".", Terrain.VILLAGE: "V"}
_PROPERTY_COLOURS = [(0, 215, 255), (255, 128, 0), (60, 220, 60), (255, 0, 255), (0, 128, 255), (255, 255, 0)]


def _grid_to_image(corners: np.ndarray, size: int) -> np.ndarray:
    src = np.float32([[0, 0], [size, 0], [size, size], [0, size]])
    return cv2.getPerspectiveTransform(src, np.float32(corners))


def _project(hom: np.ndarray, points) -> np.ndarray:
    return cv2.perspectiveTransform(np.float32(points).reshape(-1, 1, 2), hom).reshape(-1, 2)


def draw_kingdom(canvas: np.ndarray, corners: np.ndarray, score, scale: float) -> None:
    """Draw one scored kingdom (a KingdomScore) whose grid has `corners` in canvas pixels."""
    kingdom = score.kingdom
    n = kingdom.size
    hom = _grid_to_image(corners, n)
    side = float(np.mean([np.linalg.norm(corners[(i + 1) % 4] - corners[i]) for i in range(4)]))
    cell = side / n
    thick = max(1, int(round(cell / 40)))
    # unsure squares: translucent red
    shade = canvas.copy()
    for (r, c), square in kingdom.squares():
        if square.uncertain:
            poly = _project(hom, [[c, r], [c + 1, r], [c + 1, r + 1], [c, r + 1]]).astype(np.int32)
            cv2.fillConvexPoly(shade, poly, (0, 0, 255))
    cv2.addWeighted(shade, 0.35, canvas, 0.65, 0, dst=canvas)
    # grid
    for k in range(n + 1):
        for a, b in (([k, 0], [k, n]), ([0, k], [n, k])):
            p, q = _project(hom, [a, b]).astype(np.int32)
            cv2.line(canvas, tuple(p), tuple(q), (255, 255, 255), thick, cv2.LINE_AA)
    # property outlines: edges between a property square and anything else
    owner = {}
    for i, prop in enumerate(score.properties):
        for pos in prop.positions:
            owner[pos] = i
    for i, prop in enumerate(score.properties):
        if prop.points == 0:
            continue
        colour = _PROPERTY_COLOURS[i % len(_PROPERTY_COLOURS)]
        for r, c in prop.positions:
            for (dr, dc), edge in (((-1, 0), ([c, r], [c + 1, r])), ((1, 0), ([c, r + 1], [c + 1, r + 1])),
                                   ((0, -1), ([c, r], [c, r + 1])), ((0, 1), ([c + 1, r], [c + 1, r + 1]))):
                if owner.get((r + dr, c + dc)) != i:
                    p, q = _project(hom, [edge[0], edge[1]])
                    inset = (_project(hom, [[c + 0.5, r + 0.5]])[0] - (p + q) / 2) * 0.12
                    cv2.line(canvas, tuple((p + inset).astype(int)), tuple((q + inset).astype(int)), colour, 2 * thick + 1, cv2.LINE_AA)
        r, c = prop.positions[len(prop.positions) // 2]
        at = _project(hom, [[c + 0.5, r + 0.75]])[0]
        radius = int(max(cell * 0.17, 8))
        cv2.circle(canvas, tuple(at.astype(int)), radius, colour, -1, cv2.LINE_AA)
        _text(canvas, f"{prop.points}", at, radius / 14, (0, 0, 0), outline=False)
    # square readings
    for (r, c), square in kingdom.squares():
        label = _LETTER.get(square.terrain, "?") + (str(square.crowns) if square.crowns else "")
        at = _project(hom, [[c + 0.5, r + 0.4]])[0]
        _text(canvas, label + ("?" if square.uncertain else ""), at, cell / 90, (255, 255, 255))
    title = f"{kingdom.name}: {score.total} points"
    scale = max(cell / 70, 0.6)
    (tw, th), _ = cv2.getTextSize(title, cv2.FONT_HERSHEY_SIMPLEX, scale, max(1, int(round(scale * 2))))
    pad = th / 2
    # Above the grid's top-left corner; below its bottom-left when the photo has no room up there.
    room = th / 2 + pad + 2  # from the title's centre to the edge of its band, and a little air
    above = np.array([corners[0][0] + tw / 2, min(corners[0][1], corners[1][1]) - room])
    below = np.array([corners[3][0] + tw / 2, max(corners[2][1], corners[3][1]) + room])
    anchor = above if above[1] >= room or below[1] > canvas.shape[0] - room else below
    anchor[0] = min(max(anchor[0], tw / 2 + pad + 2), canvas.shape[1] - tw / 2 - pad - 2)
    anchor[1] = min(max(anchor[1], room), canvas.shape[0] - room)
    # A dark band behind the title makes it readable on a white table; never
    # over the grid (a photo with no room around it), where it would hide readings.
    x0, y0 = (anchor - [tw / 2 + pad, th / 2 + pad]).astype(int)
    x1, y1 = (anchor + [tw / 2 + pad, th / 2 + pad]).astype(int)
    gx0, gy0 = corners.min(axis=0)
    gx1, gy1 = corners.max(axis=0)
    if x1 < gx0 or x0 > gx1 or y1 < gy0 or y0 > gy1:
        band = canvas[max(y0, 0) : y1, max(x0, 0) : x1]
        band[:] = (band * 0.4).astype(canvas.dtype)
    _text(canvas, title, anchor, scale, (255, 255, 255))


def _text(canvas, text, centre, scale, colour, outline=True):
    scale = max(scale, 0.35)
    thick = max(1, int(round(scale * 2)))
    (w, h), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
    org = (int(centre[0] - w / 2), int(centre[1] + h / 2))
    if outline:
        cv2.putText(canvas, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), thick + 2, cv2.LINE_AA)
    cv2.putText(canvas, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thick, cv2.LINE_AA)


def draw_partial(canvas: np.ndarray, corners: np.ndarray, note: str) -> None:
    pts = np.asarray(corners, float)
    for i in range(4):
        p, q = pts[i], pts[(i + 1) % 4]
        for t in np.arange(0, 1, 0.05)[::2]:
            a, b = p + (q - p) * t, p + (q - p) * (t + 0.05)
            cv2.line(canvas, tuple(a.astype(int)), tuple(b.astype(int)), (0, 0, 255), 3)
    _text(canvas, "partial: not scored", pts.mean(axis=0), max(canvas.shape[:2]) / 1500, (0, 0, 255))


def write_overlay(photo_path: Path | str, game, scores: Sequence, out: Path | str) -> Path:
    """Draw a PhotoGame's kingdoms (with their KingdomScores, same order) on its photo, save to `out`."""
    photo = load_photo(photo_path)
    canvas = photo.image.copy()
    for found, score in zip(game.found, scores):
        draw_kingdom(canvas, np.asarray(found.corners, float) / photo.scale, score, photo.scale)
    for part in game.partial:
        draw_partial(canvas, np.asarray(part.corners, float) / photo.scale, part.missing)
    out = Path(out)
    if not cv2.imwrite(str(out), canvas):
        raise OSError(f"cannot write the overlay to {out} (is the extension an image type?)")
    return out
