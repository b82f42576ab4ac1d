"""Draw what kscore read onto the photo: `kscore photo.jpg --overlay out.jpg`.

Per kingdom: the grid, each square's reading (terrain letter and crowns),
unsure squares framed in red (not shaded: the player must see the print to check it), every scoring property outlined in its
own colour with its points, and the kingdom's name and score (in the strip under
the photo when there is no room beside the grid; the strip also holds a legend). Partial kingdoms get a dashed outline and
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
UNSURE = (0, 0, 255)  # red: unsure squares' tint and frame; property colours keep away from red


def property_colours(count: int) -> list[tuple[int, int, int]]:
    """`count` distinct bright colours (BGR) around the hue circle, red left out for the unsure squares."""
    import colorsys

    out = []
    for i in range(count):
        # 29 to 317 degrees (orange round to violet, never red), stepped by the golden ratio: properties
        # next to each other in reading order get far-apart hues, and no two the same
        hue = 0.08 + 0.8 * ((i * 0.6180339887) % 1.0)
        r, g, b = colorsys.hsv_to_rgb(hue, 0.85 if i % 2 else 1.0, 1.0)
        out.append((int(b * 255), int(g * 255), int(r * 255)))
    return out


def colours_for(properties) -> dict[int, tuple[int, int, int]]:
    """Index of each property that scores -> its own colour (no two share one)."""
    scoring = [i for i, p in enumerate(properties) if p.points]
    return dict(zip(scoring, property_colours(len(scoring))))


def _grid_to_image(corners: np.ndarray, size: int) -> np.ndarray:
    src = np.float32([[0, 0], [size, 0], [size, size], [0, size]])
    return cv2.getPerspectiveTransform(src, np.float32(corners))


def _project(hom: np.ndarray, points) -> np.ndarray:
    return cv2.perspectiveTransform(np.float32(points).reshape(-1, 1, 2), hom).reshape(-1, 2)


def draw_kingdom(canvas: np.ndarray, corners: np.ndarray, score, scale: float, title: bool = True) -> str | None:
    """Draw one scored kingdom (a KingdomScore) whose grid has `corners` in canvas pixels.

    Returns its title when there was no room for it beside the grid (the caller puts it in the
    strip under the photo: never over the squares it would hide)."""
    kingdom = score.kingdom
    n = kingdom.size
    hom = _grid_to_image(corners, n)
    side = float(np.mean([np.linalg.norm(corners[(i + 1) % 4] - corners[i]) for i in range(4)]))
    cell = side / n
    thick = max(1, int(round(cell / 40)))
    # unsure squares are framed below, never shaded: a red wash hid the very print (often a glared one)
    # the player has to look at to check the square
    unsure = [(r, c) for (r, c), square in kingdom.squares() if square.uncertain]
    # grid
    for k in range(n + 1):
        for a, b in (([k, 0], [k, n]), ([0, k], [n, k])):
            p, q = _project(hom, [a, b]).astype(np.int32)
            cv2.line(canvas, tuple(p), tuple(q), (255, 255, 255), thick, cv2.LINE_AA)
    for r, c in unsure:
        inset = 0.08
        poly = _project(hom, [[c + inset, r + inset], [c + 1 - inset, r + inset], [c + 1 - inset, r + 1 - inset],
                              [c + inset, r + 1 - inset]]).astype(np.int32)
        cv2.polylines(canvas, [poly], True, (255, 255, 255), 3 * thick + 2, cv2.LINE_AA)
        cv2.polylines(canvas, [poly], True, UNSURE, 2 * thick + 1, cv2.LINE_AA)
    # property outlines: edges between a property square and anything else
    owner = {}
    for i, prop in enumerate(score.properties):
        for pos in prop.positions:
            owner[pos] = i
    colours = colours_for(score.properties)
    for i, prop in enumerate(score.properties):
        if i not in colours:
            continue
        colour = colours[i]
        for r, c in prop.positions:
            for (dr, dc), edge in (((-1, 0), ([c, r], [c + 1, r])), ((1, 0), ([c, r + 1], [c + 1, r + 1])),
                                   ((0, -1), ([c, r], [c, r + 1])), ((0, 1), ([c + 1, r], [c + 1, r + 1]))):
                if owner.get((r + dr, c + dc)) != i:
                    p, q = _project(hom, [edge[0], edge[1]])
                    inset = (_project(hom, [[c + 0.5, r + 0.5]])[0] - (p + q) / 2) * 0.12
                    cv2.line(canvas, tuple((p + inset).astype(int)), tuple((q + inset).astype(int)), colour, 2 * thick + 1, cv2.LINE_AA)
        r, c = prop.positions[len(prop.positions) // 2]
        bubble(canvas, _project(hom, [[c + 0.5, r + 0.75]])[0], str(prop.points), colour, cell)
    # square readings
    for (r, c), square in kingdom.squares():
        label = _LETTER.get(square.terrain, "?") + (str(square.crowns) if square.crowns else "")
        at = _project(hom, [[c + 0.5, r + 0.4]])[0]
        _text(canvas, label + ("?" if square.uncertain else ""), at, cell / 90, (255, 255, 255))
    text = f"{kingdom.name}: {score.total} points"
    if title and not _draw_title(canvas, corners, text, max(cell / 70, 0.6)):
        return text
    return None


def bubble(canvas: np.ndarray, at, text: str, colour, cell: float) -> int:
    """A property's points in a filled circle wide enough for its digits (`12`, `104`); returns the radius."""
    scale = max(cell / 130, 0.35)
    thick = max(1, int(round(scale * 2)))
    (w, h), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
    radius = int(np.ceil(max(cell * 0.17, 8, np.hypot(w, h) / 2 + 2 + thick)))
    centre = tuple(np.asarray(at).astype(int))
    cv2.circle(canvas, centre, radius, colour, -1, cv2.LINE_AA)
    cv2.circle(canvas, centre, radius, (0, 0, 0), 1, cv2.LINE_AA)
    _text(canvas, text, at, scale, (0, 0, 0), outline=False)
    return radius


def _draw_title(canvas, corners, title, scale) -> bool:
    """The kingdom's name and score above its grid (below when the photo has no room up there), on a dark band.
    False, and nothing drawn, when neither fits without covering the grid."""
    (tw, th), _ = cv2.getTextSize(title, cv2.FONT_HERSHEY_SIMPLEX, scale, max(1, int(round(scale * 2))))
    pad = th / 2
    room = th / 2 + pad + 2  # from the title's centre to the edge of its band, and a little air
    gx0, gy0 = corners.min(axis=0)
    gx1, gy1 = corners.max(axis=0)
    height, width = canvas.shape[:2]
    for anchor in (np.array([corners[0][0] + tw / 2, gy0 - room]), np.array([corners[3][0] + tw / 2, gy1 + room])):
        anchor[0] = min(max(anchor[0], tw / 2 + pad + 2), width - tw / 2 - pad - 2)
        x0, y0 = (anchor - [tw / 2 + pad, th / 2 + pad]).astype(int)
        x1, y1 = (anchor + [tw / 2 + pad, th / 2 + pad]).astype(int)
        inside = x0 >= 0 and y0 >= 0 and x1 <= width and y1 <= height
        clear = x1 < gx0 or x0 > gx1 or y1 < gy0 or y0 > gy1
        if inside and clear:
            band = canvas[y0:y1, x0:x1]
            band[:] = (band * 0.4).astype(canvas.dtype)
            _text(canvas, title, anchor, scale, (255, 255, 255))
            return True
    return False


LEGEND = ("red frame, ?: unsure, check it | outlined: a property that scores, its points in the circle | "
          "W wheat, G grassland, F forest, L lake, S swamp, M mine, C castle, . empty")


def add_strip(canvas: np.ndarray, lines: list[str]) -> np.ndarray:
    """The photo with a dark strip under it: titles that found no room, then the legend."""
    width = canvas.shape[1]
    scale = max(width / 2600, 0.4)
    thick = max(1, int(round(scale * 2)))
    (_, th), _ = cv2.getTextSize("Mg", cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
    step = int(th * 2)
    strip = np.full((step * len(lines) + step // 2, width, 3), 30, np.uint8)
    for i, line in enumerate(lines):
        while cv2.getTextSize(line, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)[0][0] > width - 2 * th and len(line) > 8:
            line = line[: -4] + "..."
        colour = (255, 255, 255) if i < len(lines) - 1 else (200, 200, 200)
        cv2.putText(strip, line, (th, step * (i + 1)), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thick, cv2.LINE_AA)
    return np.vstack([canvas, strip])


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
    untitled = []
    for found, score in zip(game.found, scores):
        left = draw_kingdom(canvas, np.asarray(found.corners, float) / photo.scale, score, photo.scale)
        if left:
            untitled.append(left)
    for part in game.partial:
        draw_partial(canvas, np.asarray(part.corners, float) / photo.scale, part.missing)
    canvas = add_strip(canvas, ["; ".join(untitled)] * bool(untitled) + [LEGEND])
    out = Path(out)
    if not cv2.imwrite(str(out), canvas):
        raise OSError(f"cannot write the overlay to {out} (is the extension an image type?)")
    return out
