"""One stored upload -> its kingdoms, read by the CLI's own pipeline, and a view of each to draw on.

Runs in a worker thread (the app allows one per core): everything here is plain
blocking code, the same calls `kscore photo.jpg` makes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from kscore.app.inputs import load_game
from kscore.game.kingdom import Kingdom
from kscore.game.rules import GameRules

#: Pixels per square of a view: enough to see crowns on a phone, ~60 kB a kingdom.
VIEW_SQUARE_PX = 80


@dataclass
class PhotoReading:
    """What one photo gave: kingdoms (in photo order) with their places, and notes for the page."""

    photo: Path
    kingdoms: list[Kingdom] = field(default_factory=list)
    places: list[dict] = field(default_factory=list)  # {"photo", "corners", "view"} per kingdom
    notes: list[str] = field(default_factory=list)


def read_upload(photo: Path, rules: GameRules, views: Path, label: str | None = None) -> PhotoReading:
    """Read the photo as `kscore photo.jpg` does (raises KscoreError), and write each kingdom's view into `views`.

    Notes name the photo by `label`, the player's own name for it, when given."""
    import cv2

    from kscore.vision.find.rectify import rectify
    from kscore.vision.load import load_photo

    game = load_game(photo, rules)
    reading = PhotoReading(photo)
    label = label or photo.name
    decoded = load_photo(photo)  # the reduced decode again: cheap next to reading, and it frees the pipeline's
    for number, found in enumerate(game.found, start=1):
        view = views / f"{photo.stem}-{number}.jpg"
        image = rectify(decoded, found.corners, found.kingdom.size, VIEW_SQUARE_PX)
        ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 85])
        if ok:
            view.write_bytes(encoded.tobytes())
        reading.kingdoms.append(found.kingdom)
        reading.places.append({"photo": f"photos/{photo.name}", "corners": [list(c) for c in found.corners],
                               "view": view.name if ok else None})
        reading.notes += [f"{label}: {change}" for change in found.changes]
    reading.notes += [f"{label}: a kingdom {part.missing}; it is not scored" for part in game.partial]
    reading.notes += [f"{label}: {note}" for note in game.notes]  # strays, finds left out
    return reading
