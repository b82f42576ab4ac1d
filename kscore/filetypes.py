"""What kscore reads a file as, told by its name alone (no image library is loaded to decide)."""

from __future__ import annotations

from pathlib import Path

#: iPhones save HEIC by default; OpenCV's wheels cannot decode it, pillow-heif does.
HEIF_SUFFIXES = frozenset({".heic", ".heif"})
#: Photo types kscore decodes (OpenCV, and HEIF with pillow-heif), in the order messages list them.
DECODABLE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp", ".heic", ".heif")
#: Files kscore reads as photos (anything else is read as a kingdom text file).
IMAGE_SUFFIXES = frozenset(DECODABLE_SUFFIXES) | HEIF_SUFFIXES


def is_image(path: Path) -> bool:
    return path.suffix.lower() in IMAGE_SUFFIXES


def resolved(path: Path) -> Path:
    """path.resolve(), or its absolute form when it cannot be resolved (a symlink loop: Python 3.11
    raises RuntimeError; reading the file then reports it as one line)."""
    try:
        return path.expanduser().resolve()
    except (OSError, RuntimeError):
        return path.expanduser().absolute()


def each_once(paths, repeated: list[str]) -> list[Path]:
    """The paths with any named twice (or also through its folder) kept once; the repeats noted in `repeated`."""
    out, seen = [], set()
    for path in paths:
        key = resolved(Path(path))
        if key in seen:
            repeated.append(f"{path} given twice: scored once")
            continue
        seen.add(key)
        out.append(path)
    return out
