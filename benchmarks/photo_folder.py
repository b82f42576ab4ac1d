"""A folder of N photos for the throughput benchmarks, shaped like the folder issue 16
describes: a tournament organiser's photos of kingdoms, taken with phones (the issue's
200 photos took 116 s, 0.58 s a photo, and says HEIC is an iPhone's default).

One round of the mix is every phone-sized photo we have, then two board crops:
- ../shared/data/photos: three real photos of finished kingdoms, 9 and 16 MP;
- ../shared/data/photos-loose: five 3 MP phone photos of a kingdom laid tile by tile;
- sample_images/table_5x5.jpg (2 MP), tests/data/photo/table_5x5_turned.heic (an
  iPhone-style HEIC) and tests/data/photo/mat_7x7.jpg (a 7x7 kingdom, 1000x562);
- two 500x500 board crops (../shared/data/kingdomino/boards, a different two each
  round, else tests/data/photo/board1.jpg and board2.jpg): a crop is what a phone
  rarely gives, so crops are a minority (2 of 13).
Rounds repeat until N; the files are copied to the folder (kscore writes a reading beside
each photo, so never point it at the shared data).
"""

from __future__ import annotations

import shutil
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]
SHARED = PROJECT.parent / "shared" / "data"
BOARDS = SHARED / "kingdomino" / "boards"
CROPS_PER_ROUND = 2


def phone_photos() -> list[Path]:
    found = [*sorted((SHARED / "photos").glob("*.jpg")), *sorted((SHARED / "photos-loose").glob("*.jpg"))]
    if not found:
        print(f"(no {SHARED / 'photos'}: the folder repeats the photos of the repository)")
    photo = PROJECT / "tests" / "data" / "photo"
    return found + [PROJECT / "sample_images" / "table_5x5.jpg", photo / "table_5x5_turned.heic", photo / "mat_7x7.jpg"]


def board_crops() -> list[Path]:
    if BOARDS.is_dir():
        return sorted(BOARDS.glob("*.jpg"), key=lambda p: int(p.stem) if p.stem.isdigit() else 0)
    return sorted((PROJECT / "tests" / "data" / "photo").glob("board*.jpg"))


def mix(count: int) -> list[Path]:
    """The first `count` photos of the repeated rounds (phone photos, then two crops)."""
    phones, crops = phone_photos(), board_crops()
    out: list[Path] = []
    round_ = 0
    while len(out) < count:
        out += phones
        out += [crops[(round_ * CROPS_PER_ROUND + k) % len(crops)] for k in range(CROPS_PER_ROUND)]
        round_ += 1
    return out[:count]


def make_folder(folder: Path, count: int) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for i, source in enumerate(mix(count)):
        target = folder / f"{i:03}-{source.stem}{source.suffix}"
        shutil.copy(source, target)
        out.append(target)
    return out


def describe(paths: list[Path]) -> str:
    """'100 photos: 84 phone photos, 16 board crops' for the benchmark's first line."""
    crops = sum(1 for p in paths if p.stem.split("-", 1)[-1].isdigit() or "board" in p.stem)
    return f"{len(paths)} photos: {len(paths) - crops} phone photos, {crops} board crops"


def clear_readings(folder: Path) -> None:
    for reading in folder.glob("*.kingdom*"):
        reading.unlink()
