"""A folder of N photos for the throughput benchmarks: sample_images/table_5x5.jpg,
tests/data/photo/*.jpg and ../shared/data/kingdomino board crops (500x500), repeated
in that order until N, copied to a temporary folder (readings get written beside them)."""

from __future__ import annotations

import shutil
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]
BOARDS = PROJECT.parent / "shared" / "data" / "kingdomino" / "boards"


def sources() -> list[Path]:
    found = [PROJECT / "sample_images" / "table_5x5.jpg", *sorted((PROJECT / "tests" / "data" / "photo").glob("*.jpg"))]
    if BOARDS.is_dir():
        found += sorted(BOARDS.glob("*.jpg"), key=lambda p: int(p.stem) if p.stem.isdigit() else 0)
    else:
        print(f"(no {BOARDS}: the folder repeats the {len(found)} photos of the repository)")
    return found


def make_folder(folder: Path, count: int) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    pool = sources()
    out = []
    for i in range(count):
        source = pool[i % len(pool)]
        target = folder / f"{i:03}-{source.stem}{source.suffix}"
        shutil.copy(source, target)
        out.append(target)
    return out


def clear_readings(folder: Path) -> None:
    for reading in folder.glob("*.kingdom*"):
        reading.unlink()
