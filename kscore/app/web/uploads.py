"""What a photo upload may be, decided from its bytes before anything decodes it.

The client's file name and content type are never trusted: the first bytes
say the format (HEIC/HEIF, an iPhone's default, by its `ftyp` brand, as the
command line does), the header says the size in pixels. A file that is too big,
not an image, or an image too large to decode safely is refused with the HTTP
status and one line that tells the player what to do.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

#: One photo: a 12 MP phone JPEG is 3-6 MB, so this leaves room for 50 MP ones.
MAX_PHOTO_BYTES = 25 * 1024 * 1024
#: One request (several photos): python-multipart spools them to disk, so this bounds the disk, not memory.
MAX_REQUEST_BYTES = 4 * MAX_PHOTO_BYTES
#: Photos in one request.
MAX_PHOTOS = 10
#: Refused before decoding: a PNG or WebP decodes whole (3 bytes a pixel), and kscore needs ~2 MP.
MAX_PIXELS = 50_000_000


@dataclass(frozen=True)
class UploadRefused(Exception):
    """An upload the server will not read: `status` is the HTTP status, `message` the one line to show."""

    status: int
    message: str

    def __str__(self) -> str:
        return self.message


def photo_kind(data: bytes) -> str | None:
    """The file suffix of the image format the bytes start with (.jpg .heic .png .webp .bmp), None otherwise."""
    if data[:3] == b"\xff\xd8\xff":
        return ".jpg"
    from kscore.vision.load import is_heif  # the brands the command line reads, said once

    if is_heif(data):
        return ".heic"
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return ".png"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return ".webp"
    if data[:2] == b"BM" and len(data) >= 26:
        return ".bmp"
    return None


def pixel_size(data: bytes, kind: str) -> tuple[int, int] | None:
    """(width, height) from the header of a .jpg/.heic/.png/.webp/.bmp, None when the header cannot be read."""
    try:
        if kind == ".jpg":
            from kscore.vision.load import read_jpeg_header

            header = read_jpeg_header(data)
            return (header.width, header.height) if header else None
        if kind == ".png":
            return struct.unpack(">II", data[16:24]) if data[12:16] == b"IHDR" else None
        if kind == ".bmp":
            width, height = struct.unpack("<ii", data[18:26])
            return abs(width), abs(height)
        if kind == ".webp":
            return _webp_size(data)
        if kind == ".heic":
            return _heif_size(data)
    except struct.error:  # a header cut short
        return None
    return None


def _heif_size(data: bytes) -> tuple[int, int] | None:
    """A HEIC/HEIF's size from its boxes (pillow-heif opens lazily: nothing is decoded)."""
    import io

    import pillow_heif
    from PIL import Image

    pillow_heif.register_heif_opener()
    try:
        with Image.open(io.BytesIO(data)) as image:
            return image.size
    except Exception:  # damaged or cut short: libheif's own words would not help the player
        return None


def _webp_size(data: bytes) -> tuple[int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8X":  # extended: 24-bit width-1, height-1
        return 1 + int.from_bytes(data[24:27], "little"), 1 + int.from_bytes(data[27:30], "little")
    if chunk == b"VP8 ":  # lossy: 14-bit sizes after the start code
        width, height = struct.unpack("<HH", data[26:30])
        return width & 0x3FFF, height & 0x3FFF
    if chunk == b"VP8L":  # lossless: 14 bits each, packed after the signature byte
        bits = int.from_bytes(data[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    return None


def upload_label(filename: str | None, fallback: str) -> str:
    r"""The player's own name for an upload, for messages only (files are stored under the folder's names).

    Only the base name is kept, without control characters, and at most 60 characters of it:

    >>> upload_label("C:\\DCIM\\IMG_2031.JPG", "photo 1")
    'IMG_2031.JPG'
    >>> upload_label("../../etc/\x1b[31mx.jpg", "photo 2")
    '[31mx.jpg'
    >>> upload_label("", "photo 3")
    'photo 3'
    """
    base = (filename or "").replace("\\", "/").rsplit("/", 1)[-1]
    shown = "".join(c for c in base if c.isprintable()).strip()[:60]
    return shown or fallback


def upload_labels(filenames: list[str | None]) -> list[str]:
    """Each upload's name in messages: the player's file name, told apart by its place when two are alike
    (a phone may call every photo image.jpg).

    >>> upload_labels(["IMG_1.jpg", "image.jpg", "image.jpg", None])
    ['IMG_1.jpg', 'image.jpg (photo 2)', 'image.jpg (photo 3)', 'photo 4']
    >>> upload_labels([None])
    ['the photo']
    """
    names = [upload_label(f, f"photo {n}" if len(filenames) > 1 else "the photo")
             for n, f in enumerate(filenames, start=1)]
    return [f"{name} (photo {n})" if names.count(name) > 1 else name for n, name in enumerate(names, start=1)]


def check_size(size: int, name: str = "the photo") -> None:
    """Raise UploadRefused (413) for a photo of more than MAX_PHOTO_BYTES: said before its bytes are read."""
    if size > MAX_PHOTO_BYTES:
        raise UploadRefused(413, f"{name}: {size / 2**20:.0f} MB, over the {MAX_PHOTO_BYTES // 2**20} MB "
                                 "a photo may be; send a smaller photo (12 MP is plenty)")


def check_photo(data: bytes, name: str = "the photo") -> str:
    """The suffix to store `data` under; raises UploadRefused (413 too big, 415 not a photo, 400 unreadable)."""
    check_size(len(data), name)
    if not data:
        raise UploadRefused(400, f"{name}: empty (0 bytes): not a photo")
    kind = photo_kind(data)
    if kind is None:
        raise UploadRefused(415, f"{name}: not a photo (JPEG, HEIC, PNG, WebP or BMP expected)")
    if kind == ".heic" and not _heif_decodable():
        raise UploadRefused(415, f"{name}: a HEIC/HEIF photo, which this server cannot decode (pillow-heif is "
                                 "missing); send it as JPEG (iPhone: Settings > Camera > Formats > Most Compatible)")
    size = pixel_size(data, kind)
    if size is None or min(size) <= 0:
        raise UploadRefused(400, f"{name}: its {kind[1:].upper()} header cannot be read: the file is damaged "
                                 "or cut short; take or send it again")
    width, height = size
    if width * height > MAX_PIXELS:
        raise UploadRefused(413, f"{name}: {width}x{height} is {width * height / 1e6:.0f} MP, over the "
                                 f"{MAX_PIXELS // 1_000_000} MP this server decodes; take it at a lower resolution")
    return kind


def _heif_decodable() -> bool:
    try:
        import pillow_heif  # noqa: F401  (a kscore dependency; a trimmed install may lack it)
    except ImportError:
        return False
    return True
