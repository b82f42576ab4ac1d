"""`kscore eval PHOTO_FOLDER`: the whole photo pipeline on labelled photos.

The folder's labels.json holds `items` (file -> kingdoms with `size`,
`corners`, `terrain`, `crowns`; ../shared/data/photos is one). Reports
kingdoms found, mean corner error relative to the kingdom's side, squares
right, exact scores and time per photo. A labelled kingdom counts as found
when a complete kingdom was reported with corners within 10% of its side.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from kscore.lab.dataset import LabelledExtent, is_extent_format, load_extent_items, load_photo_items
from kscore.lab.measures import kingdom_points, squares_right
from kscore.errors import NothingRecognisedError
from kscore.game.rules import GameRules
from kscore.vision.geometry import corner_error

FOUND_WITHIN = 0.10  # corner error (share of the side) under which a kingdom counts as found


@dataclass
class KingdomResult:
    photo: str
    found: bool
    corner_error: float | None = None
    squares_right: int = 0
    squares: int = 0
    score_right: bool = False
    truth_score: int = 0
    read_score: int | None = None


@dataclass
class PhotoEvaluation:
    kingdoms: list[KingdomResult] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    false_finds: int = 0

    def lines(self) -> list[str]:
        n = len(self.kingdoms)
        found = [k for k in self.kingdoms if k.found]
        errors = [k.corner_error for k in found if k.corner_error is not None]
        squares = sum(k.squares for k in self.kingdoms)
        right = sum(k.squares_right for k in self.kingdoms)
        exact = sum(k.score_right for k in self.kingdoms)
        out = [
            f"photos: {len(self.seconds)}, labelled kingdoms: {n}",
            f"kingdoms found: {len(found)}/{n}" + (f" (+{self.false_finds} found where none is labelled)" if self.false_finds else ""),
            f"mean corner error: {np.mean(errors):.2%} of the side" if errors else "mean corner error: - (none labelled or none found)",
            f"squares right: {right}/{squares} = {right / max(squares, 1):.1%} (terrain and crowns; squares of kingdoms not found count as wrong)",
            f"exact scores: {exact}/{n}",
            f"time per photo: mean {np.mean(self.seconds):.2f} s, max {np.max(self.seconds):.2f} s" if self.seconds else "time per photo: -",
        ]
        for k in self.kingdoms:
            if k.found:
                where = f"corners {k.corner_error:.2%}, " if k.corner_error is not None else ""
                out.append(f"  {k.photo}: {where}squares {k.squares_right}/{k.squares}, "
                           f"score {k.read_score} (truth {k.truth_score})")
            else:
                out.append(f"  {k.photo}: NOT FOUND (truth score {k.truth_score})")
        out += [f"  {f}" for f in self.failures]
        return out


def extent_squares_right(truth: LabelledExtent, read) -> int:
    """Squares of the labelled extent read right, at the best of the read grid's turns and placements.

    The extent labels give no corners: the kingdom read (any frame) is matched
    up to rotation and translation. Squares the reading holds outside the
    extent are not counted here (its score says whether they matter).
    """
    rows, cols = len(truth.rows), len(truth.rows[0])
    best, grid = 0, read
    for _ in range(4):
        n = grid.size
        for dr in range(n - rows + 1):
            for dc in range(n - cols + 1):
                right = sum((grid[(dr + r, dc + c)].terrain, grid[(dr + r, dc + c)].crowns) == (sq.terrain, sq.crowns)
                            for r, row in enumerate(truth.rows) for c, sq in enumerate(row))
                best = max(best, right)
        grid = grid.rotated()
    return best


def evaluate_extent_items(folder: Path | str, tileset=None, models=None, echo=print) -> PhotoEvaluation:
    """Photos labelled by their kingdom's extent (photos-loose): found, squares right, exact scores, time.

    A labelled kingdom counts as found when a complete kingdom was reported
    matching at least half its squares (up to rotation and translation; the
    best-matching one is taken, any others are false finds); corner errors
    are not known.
    """
    rules = _rules(tileset)
    result = PhotoEvaluation()
    for path, labelled in load_extent_items(folder).items():
        found = _read_timed(path, rules, models, result)
        used = set()
        for truth in labelled:
            entry = KingdomResult(path.name, False, squares=truth.squares, truth_score=truth.score)
            options = [(extent_squares_right(truth, f.kingdom), i) for i, f in enumerate(found) if i not in used]
            if options and max(options)[0] >= truth.squares / 2:
                right, i = max(options)
                used.add(i)
                entry.found, entry.squares_right = True, right
                entry.read_score = kingdom_points(found[i].kingdom)
                entry.score_right = entry.read_score == truth.score
            result.kingdoms.append(entry)
        result.false_finds += len(found) - len(used)
    return _said(result, echo)


def evaluate_photo_items(folder: Path | str, tileset=None, models=None, echo=print, **_ignored) -> PhotoEvaluation:
    """Run read_photo on every labelled photo of `folder` and compare with the labels."""
    if is_extent_format(folder):
        return evaluate_extent_items(folder, tileset, models, echo)
    from kscore.lab.progress import Progress

    rules = _rules(tileset)
    result = PhotoEvaluation()
    items = load_photo_items(folder)
    progress = Progress("eval", len(items), quiet=echo is None or len(items) < 2)
    for path, labelled in items.items():
        found = _read_timed(path, rules, models, result)
        progress.step(f"photos read ({path.name})")
        used = set()
        for truth in labelled:
            truth_corners = np.array(truth.corners)
            entry = KingdomResult(path.name, False, squares=truth.size**2, truth_score=kingdom_points(truth.kingdom))
            if found:
                errors = [corner_error(np.array(f.corners), truth_corners) for f in found]
                i = int(np.argmin(errors))
                if errors[i] < FOUND_WITHIN and found[i].kingdom.size == truth.size:
                    used.add(i)
                    read = found[i].kingdom
                    entry.found = True
                    entry.corner_error = errors[i]
                    entry.squares_right = squares_right(truth.kingdom, read)
                    entry.read_score = kingdom_points(read)
                    entry.score_right = entry.read_score == entry.truth_score
            result.kingdoms.append(entry)
        result.false_finds += len(found) - len(used)
    return _said(result, echo)


def _rules(tileset) -> GameRules:
    """The rules a photo is read under: the box's tile set, or none (no decoding against a box)."""
    name = getattr(tileset, "name", "kingdomino") if tileset else "kingdomino"
    return GameRules(use_tileset=tileset is not None, tileset=name)


def _read_timed(path: Path, rules: GameRules, models, result: PhotoEvaluation) -> list:
    """The kingdoms read in one photo (none when nothing is recognised: each labelled kingdom is
    then missed), its time and failure recorded in `result`."""
    from kscore.app.pipeline import read_photo

    start = time.perf_counter()
    try:
        found = list(read_photo(path, rules, models=models).found)
    except NothingRecognisedError as error:
        found = []
        result.failures.append(str(error))
    result.seconds.append(time.perf_counter() - start)
    return found


def _said(result: PhotoEvaluation, echo) -> PhotoEvaluation:
    if echo:
        for line in result.lines():
            echo(line)
    return result
