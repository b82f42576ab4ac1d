"""Readers for the labelled data sets' formats (../shared/data/*/labels.json).

Used by training, evaluation and tests; kscore itself never needs them to score.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from kscore.game.kingdom import Kingdom, Square, Terrain


def kingdom_from_labels(name: str, terrain_rows, crown_rows) -> Kingdom:
    """A Kingdom from the labels' `terrain` (words) and `crowns` (ints) rows."""
    return Kingdom.from_rows(
        name,
        [[Square(Terrain(t), int(c)) for t, c in zip(trow, crow)] for trow, crow in zip(terrain_rows, crown_rows)],
    )


@dataclass(frozen=True)
class LabelledBoard:
    """A top-down board image cut to its grid, with its labels."""

    board_id: str
    image: Path
    group: str  # the physical kingdom: split train/test by this, never by photo
    kingdom: Kingdom


def load_boards(folder: Path | str) -> list[LabelledBoard]:
    folder = Path(folder)
    boards = json.loads((folder / "labels.json").read_text())["boards"]
    return [
        LabelledBoard(
            board_id,
            folder / entry["image"],
            entry.get("kingdom", board_id),
            kingdom_from_labels(board_id, entry["terrain"], entry["crowns"]),
        )
        for board_id, entry in sorted(boards.items(), key=lambda kv: _natural(kv[0]))
    ]


@dataclass(frozen=True)
class LabelledPhotoKingdom:
    """One kingdom in a labelled photo: its grid corners and its labels."""

    size: int
    corners: tuple[tuple[float, float], ...]  # TL, TR, BR, BL as the photo shows them
    kingdom: Kingdom


def load_photo_items(folder: Path | str) -> dict[Path, list[LabelledPhotoKingdom]]:
    """The `items` format: photo file -> the kingdoms it shows."""
    folder = Path(folder)
    items = json.loads((folder / "labels.json").read_text())["items"]
    return {
        folder / file: [
            LabelledPhotoKingdom(
                entry["size"],
                tuple((float(x), float(y)) for x, y in entry["corners"]),
                kingdom_from_labels(f"{Path(file).stem}", entry["terrain"], entry["crowns"]),
            )
            for entry in entries
        ]
        for file, entries in items.items()
    }


def _natural(key: str):
    return (0, int(key), "") if key.isdigit() else (1, 0, key)
