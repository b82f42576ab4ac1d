"""`kscore eval FOLDER`: measure the stage a labelled folder's labels.json is for.

`boards` (top-down crops, per-square labels) -> kscore.lab.evaluate_squares;
`items` (photos with corners and labels) -> kscore.lab.evaluate_photos.
"""

from __future__ import annotations

import json
from pathlib import Path

from kscore.errors import KscoreError
from kscore.game.tileset import KINGDOMINO, TileSet
from kscore.lab.evaluate_photos import evaluate_photo_items as evaluate_photos
from kscore.lab.evaluate_squares import evaluate_boards
from kscore.vision.read.model import Models


def evaluate_photo_items(folder: Path | str, cv: bool = False, tileset: TileSet | None = KINGDOMINO,
                         models: Models | None = None, echo: bool = True, **_options) -> object:
    """Labelled photos (labels.json `items`): the photo stage's evaluation (kscore.lab.evaluate_photos)."""
    if cv:
        raise KscoreError(f"{folder}: --cv retrains on labelled boards (labels.json `boards`); this folder holds photos")
    return evaluate_photos(folder, tileset=tileset, models=models, echo=print if echo else None)


def evaluate(folder: Path | str, cv: bool = False, **options) -> object:
    """Dispatch on the folder's labels.json: `boards` -> evaluate_boards, `items` -> evaluate_photo_items."""
    labels = json.loads((Path(folder) / "labels.json").read_text())
    if "items" in labels:
        return evaluate_photo_items(folder, cv=cv, **options)
    return evaluate_boards(folder, cv=cv, **options)
