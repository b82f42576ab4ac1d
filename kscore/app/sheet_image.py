"""The score sheet as a picture: `kscore game.kingdom --sheet sheet.png` (or .jpg, .svg).

A filled-in score pad to share in a group chat: the printed parts (rules, labels,
ruling) in dark type, what a player would write in (points, totals, places) in
blue ink, each player's kingdom drawn small above their column (for a photo: the
kingdom cut from the photo, squared up). The layout is a list of shapes, drawn by
OpenCV for PNG/JPEG or written as SVG text, so both formats show the same pad.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import cv2
import numpy as np

from kscore.app.sheet import Sheet, place_word, winner_sentence
from kscore.errors import KscoreError
from kscore.game.kingdom import Terrain

# Colours are BGR (OpenCV); the SVG writer turns them round.
PAPER = (226, 244, 250)
PRINT = (40, 40, 40)
INK = (150, 60, 20)  # blue ink
WIN = (40, 130, 30)
RULE = (180, 200, 210)
FONT = cv2.FONT_HERSHEY_DUPLEX
TERRAIN_BGR = {
    Terrain.WHEAT: (60, 200, 235), Terrain.GRASSLAND: (80, 205, 140), Terrain.FOREST: (40, 100, 30),
    Terrain.LAKE: (205, 130, 40), Terrain.SWAMP: (110, 150, 170), Terrain.MINE: (70, 70, 70),
    Terrain.CASTLE: (235, 235, 235), Terrain.EMPTY: (250, 250, 250), Terrain.VILLAGE: (60, 90, 190),
    Terrain.JUNGLE: (30, 140, 60), Terrain.QUARRY: (150, 150, 160), Terrain.DESERT: (130, 200, 230),
    Terrain.VOLCANO: (30, 30, 160),
}

MARGIN, LABEL_W, COL_W, ROW_H, THUMB = 28, 230, 170, 34, 140


@dataclass(frozen=True)
class Box:
    x: int
    y: int
    w: int
    h: int
    fill: tuple[int, int, int] | None = None
    line: tuple[int, int, int] | None = None
    thick: int = 1


@dataclass(frozen=True)
class Label:
    text: str
    x: int  # left edge, or right edge when `right`
    y: int  # baseline
    scale: float
    colour: tuple[int, int, int]
    thick: int = 1
    right: bool = False


@dataclass(frozen=True)
class Picture:
    x: int
    y: int
    image: np.ndarray  # BGR, already at its drawn size


def text_width(text: str, scale: float, thick: int = 1) -> int:
    return cv2.getTextSize(text, FONT, scale, thick)[0][0]


def check_sheet_path(path: Path) -> None:
    """Before any work: the sheet's file type must be one kscore draws."""
    suffix = Path(path).suffix.lower()
    if suffix == ".svg":
        return
    if suffix not in (".png", ".jpg", ".jpeg") or not cv2.haveImageWriter(str(path)):
        raise KscoreError(f"--sheet {path}: draw it as .png, .jpg or .svg")


def grid_thumbnail(kingdom, side: int) -> np.ndarray:
    """A kingdom drawn small: terrain colours, a dot per crown, unsure squares framed in red."""
    n = kingdom.size
    cell = side // n
    image = np.full((cell * n, cell * n, 3), 255, np.uint8)
    for (r, c), square in kingdom.squares():
        x0, y0 = c * cell, r * cell
        cv2.rectangle(image, (x0, y0), (x0 + cell - 1, y0 + cell - 1), TERRAIN_BGR.get(square.terrain, (200, 200, 200)), -1)
        if square.terrain is Terrain.CASTLE:
            cv2.rectangle(image, (x0 + cell // 4, y0 + cell // 3), (x0 + 3 * cell // 4, y0 + 3 * cell // 4), (60, 60, 200), -1)
        for k in range(square.crowns):
            centre = (x0 + cell // 4 + k * cell // 4, y0 + cell // 5 + 1)
            cv2.circle(image, centre, max(2, cell // 10), (0, 215, 255), -1, cv2.LINE_AA)
            cv2.circle(image, centre, max(2, cell // 10), (0, 0, 0), 1, cv2.LINE_AA)
        cv2.rectangle(image, (x0, y0), (x0 + cell - 1, y0 + cell - 1), (255, 255, 255), 1)
        if square.uncertain:
            cv2.rectangle(image, (x0 + 1, y0 + 1), (x0 + cell - 2, y0 + cell - 2), (0, 0, 230), 2)
    return image


def photo_thumbnails(games: Sequence, side: int) -> dict[int, np.ndarray]:
    """id(kingdom) -> the kingdom cut from its photo and squared up (photo kingdoms only)."""
    found = [(g, f) for g in games for f in getattr(g, "found", ())]
    if not found:
        return {}
    from kscore.vision.find.rectify import rectify
    from kscore.vision.load import PhotoError, load_photo

    out, photos = {}, {}
    for game, f in found:
        try:
            photo = photos.get(game.source) or photos.setdefault(game.source, load_photo(game.source))
        except PhotoError:
            continue  # the grid drawing stands in
        board = rectify(photo, f.corners, f.kingdom.size, px=max(8, side // f.kingdom.size + 1))
        out[id(f.kingdom)] = cv2.resize(board, (side, side), interpolation=cv2.INTER_AREA)
    return out


def layout(sheet: Sheet, thumbnails: Sequence[np.ndarray | None]) -> tuple[tuple[int, int], list]:
    """(width, height) and the shapes of the pad, top to bottom."""
    n = len(sheet.players)
    width = 2 * MARGIN + LABEL_W + n * COL_W
    shapes: list = []
    y = MARGIN + 26
    shapes.append(Label("Score sheet", MARGIN, y, 0.9, PRINT, 2))
    if sheet.title:  # on its own line: a viewer's font for the SVG may be wider than the layout measured
        y += 26
        shapes.append(Label(_fit(sheet.title, 0.5, width - 2 * MARGIN), MARGIN, y, 0.5, PRINT))
    y += 22
    col_x = [MARGIN + LABEL_W + i * COL_W for i in range(n)]
    winners = set(sheet.winners)
    # Names (in ink: the players wrote them) and each kingdom small.
    y += 30
    for i, name in enumerate(sheet.players):
        shown = name
        while text_width(shown, 0.75, 2) > COL_W - 14 and len(shown) > 2:
            shown = shown[:-2] + "~"
        shapes.append(Label(shown, col_x[i] + COL_W - 10, y, 0.75, WIN if i in winners else INK, 2, right=True))
    y += 10
    if any(t is not None for t in thumbnails):
        for i, thumb in enumerate(thumbnails):
            if thumb is not None:
                x = col_x[i] + COL_W - 10 - thumb.shape[1]
                shapes.append(Picture(x, y, thumb))
                shapes.append(Box(x - 1, y - 1, thumb.shape[1] + 2, thumb.shape[0] + 2, line=PRINT))
        y += max(t.shape[0] for t in thumbnails if t is not None) + 10
    top = y
    shapes.append(Box(MARGIN, y, width - 2 * MARGIN, 2, fill=PRINT))
    y += 2

    def row(label: str, cells: Sequence[str], scale=0.7, bold=False, colours=None):
        nonlocal y
        base = y + ROW_H - 10
        shapes.append(Label(label, MARGIN + 8, base, 0.65, PRINT, 2 if bold else 1))
        for i, text in enumerate(cells):
            colour = (colours or {}).get(i, INK)
            shapes.append(Label(text, col_x[i] + COL_W - 12, base, scale, colour, 2, right=True))
        y += ROW_H
        shapes.append(Box(MARGIN, y - 1, width - 2 * MARGIN, 1, fill=RULE))

    for r in sheet.rows:
        cells = ["" if v is None else (str(v) if r.kind == "terrain" else f"{v:+d}") for v in r.values]
        row(r.label, cells)
    shapes.append(Box(MARGIN, y, width - 2 * MARGIN, 2, fill=PRINT))
    y += 2
    win = {i: WIN for i in winners}
    row("total", [str(t) for t in sheet.totals], scale=1.0, bold=True, colours=win)
    if sheet.ranked:
        row("place", [place_word(p) for p in sheet.places], colours=win)
        row("decided by", list(sheet.tiebreaks), scale=0.55)
    # Column rules, like the printed pad's.
    for x in col_x:
        shapes.append(Box(x, top, 1, y - top, fill=RULE))
    for i in winners:  # the winner's column framed
        shapes.append(Box(col_x[i] + 2, top + 2, COL_W - 4, y - top - 4, line=WIN, thick=2))
    y += 28
    # The winner's sentence says which tiebreak decided and by how much: on a pad as narrow as two players'
    # columns it ran past the edge and was cut at "largest property ...", so it is wrapped, as the notes are.
    for line in wrapped(winner_sentence(sheet), 0.55, width - 2 * MARGIN):
        shapes.append(Label(line, MARGIN, y, 0.55, WIN, 1))
        y += 24
    for note in sheet.notes[:6]:
        for line in wrapped(f"{note.player}, {note.label} +0: {note.reason}", 0.45, width - 2 * MARGIN, most=2):
            shapes.append(Label(line, MARGIN, y, 0.45, PRINT))
            y += 20
    return (width, y + MARGIN - 8), shapes


def wrapped(text: str, scale: float, width: int, most: int = 3) -> list[str]:
    """The text broken between words into lines at most `width` px wide at this scale, at most `most` of them
    (the last cut short with "..." if the text runs on; so is a word wider than a line).

    >>> wrapped("Alice wins with 67 points (tied on 67 points with Bob)", 0.55, 160)
    ['Alice wins with 67', 'points (tied on 67', 'points with Bob)']
    >>> wrapped("Alice wins with 67 points (tied on 67 points with Bob)", 0.55, 160, most=2)
    ['Alice wins with 67', 'points (tied on 67 ...']
    >>> wrapped("", 0.55, 200)
    []
    """
    lines: list[str] = []
    for word in text.split():
        if lines and text_width(f"{lines[-1]} {word}", scale) <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    if len(lines) > most:
        lines[most - 1:] = [" ".join(lines[most - 1:])]
    return [_fit(line, scale, width) for line in lines]


def _fit(text: str, scale: float, width: int) -> str:
    while text_width(text, scale) > width and len(text) > 4:
        text = text[:-4] + "..."
    return text


def render_png(size: tuple[int, int], shapes: Sequence) -> np.ndarray:
    width, height = size
    canvas = np.full((height, width, 3), PAPER, np.uint8)
    for s in shapes:
        if isinstance(s, Box):
            if s.fill is not None:
                cv2.rectangle(canvas, (s.x, s.y), (s.x + s.w - 1, s.y + s.h - 1), s.fill, -1)
            if s.line is not None:
                cv2.rectangle(canvas, (s.x, s.y), (s.x + s.w - 1, s.y + s.h - 1), s.line, s.thick)
        elif isinstance(s, Picture):
            h, w = s.image.shape[:2]
            canvas[s.y : s.y + h, s.x : s.x + w] = s.image
        else:
            x = s.x - text_width(s.text, s.scale, s.thick) if s.right else s.x
            cv2.putText(canvas, s.text, (x, s.y), FONT, s.scale, s.colour, s.thick, cv2.LINE_AA)
    return canvas


def _rgb(bgr) -> str:
    return f"rgb({bgr[2]},{bgr[1]},{bgr[0]})"


def render_svg(size: tuple[int, int], shapes: Sequence) -> str:
    from xml.sax.saxutils import escape

    width, height = size
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">',
           f'<rect width="{width}" height="{height}" fill="{_rgb(PAPER)}"/>']
    for s in shapes:
        if isinstance(s, Box):
            fill = _rgb(s.fill) if s.fill is not None else "none"
            stroke = f' stroke="{_rgb(s.line)}" stroke-width="{s.thick}"' if s.line is not None else ""
            out.append(f'<rect x="{s.x}" y="{s.y}" width="{s.w}" height="{s.h}" fill="{fill}"{stroke}/>')
        elif isinstance(s, Picture):
            ok, png = cv2.imencode(".png", s.image)
            data = base64.b64encode(png.tobytes()).decode()
            h, w = s.image.shape[:2]
            out.append(f'<image x="{s.x}" y="{s.y}" width="{w}" height="{h}" href="data:image/png;base64,{data}"/>')
        else:
            anchor = ' text-anchor="end"' if s.right else ""
            weight = ' font-weight="bold"' if s.thick > 1 else ""
            px = round(s.scale * 30)  # Hershey's scale 1.0 is about 30 px tall
            # textLength: the width the layout measured, whatever font the viewer has (no overlaps)
            length = text_width(s.text, s.scale, s.thick)
            out.append(f'<text x="{s.x}" y="{s.y}" font-family="sans-serif" font-size="{px}" '
                       f'textLength="{length}" lengthAdjust="spacingAndGlyphs" '
                       f'fill="{_rgb(s.colour)}"{anchor}{weight}>{escape(s.text)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def draw_sheet(sheet: Sheet, scores: Sequence, games: Sequence = ()) -> tuple[tuple[int, int], list]:
    """The pad's layout with each kingdom's thumbnail: from its photo when it has one, else drawn."""
    from_photos = photo_thumbnails(games, THUMB)
    thumbs = [from_photos.get(id(s.kingdom)) if id(s.kingdom) in from_photos else grid_thumbnail(s.kingdom, THUMB)
              for s in scores]
    return layout(sheet, thumbs)


def write_sheet_image(path: Path, sheet: Sheet, scores: Sequence, games: Sequence = ()) -> None:
    size, shapes = draw_sheet(sheet, scores, games)
    if Path(path).suffix.lower() == ".svg":
        Path(path).write_text(render_svg(size, shapes), encoding="utf-8")
        return
    if not cv2.imwrite(str(path), render_png(size, shapes)):
        raise OSError(f"cannot write the sheet to {path}")
