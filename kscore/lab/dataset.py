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


@dataclass(frozen=True)
class LabelledExtent:
    """A kingdom labelled by its occupied extent (../shared/data/photos-loose): no corners, no frame.

    rows: the extent as the photo shows it (row 0 nearest its top), Squares,
    empty ones Terrain.EMPTY; score: its plain score.
    """

    rows: tuple[tuple[Square, ...], ...]
    score: int

    @property
    def squares(self) -> int:
        return sum(len(row) for row in self.rows)


def is_extent_format(folder: Path | str) -> bool:
    """Whether labels.json's items are extent-labelled (photos-loose) rather than corner-labelled."""
    items = json.loads((Path(folder) / "labels.json").read_text()).get("items", {})
    return any(isinstance(entry, dict) and "rows" in entry for entry in items.values())


def extent_square(token: str) -> Square:
    """'F1', 'C0' (the castle), '..' (empty) -> a Square."""
    from kscore.game.kingdom import BASE_LETTERS

    if token.strip(".") == "":
        return Square(Terrain.EMPTY)
    letter, crowns = token[0].upper(), token[1:] or "0"
    terrain = Terrain.CASTLE if letter == "C" else BASE_LETTERS[letter]
    return Square(terrain, 0 if terrain is Terrain.CASTLE else int(crowns))


def load_extent_items(folder: Path | str) -> dict[Path, list[LabelledExtent]]:
    """The extent-labelled `items` format: photo file -> {rows, score} (one kingdom per photo)."""
    folder = Path(folder)
    items = json.loads((folder / "labels.json").read_text())["items"]
    if not is_extent_format(folder):
        raise ValueError(f"{folder}/labels.json: items are not labelled by their extent (`rows`, `score`)")
    return {folder / file: [LabelledExtent(tuple(tuple(extent_square(t) for t in row.split()) for row in entry["rows"]),
                                           int(entry["score"]))]
            for file, entry in items.items()}


def _natural(key: str):
    return (0, int(key), "") if key.isdigit() else (1, 0, key)
