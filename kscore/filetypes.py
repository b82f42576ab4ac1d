"""What kscore reads a file as, told by its name alone (no image library is loaded to decide)."""

from __future__ import annotations

from pathlib import Path

#: Files kscore reads as photos (anything else is read as a kingdom text file).
IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp", ".heic", ".heif"})


def is_image(path: Path) -> bool:
    return path.suffix.lower() in IMAGE_SUFFIXES
