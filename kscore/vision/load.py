"""Read a photo as the player saw it, at no more resolution than kscore needs.

Decoding a 12 MP JPEG at full size costs more than all the rest of the
pipeline, and localising and reading squares need far less (a 7x7 board read
at 100 px per square needs ~700 px across the board). So the JPEG header is
read first and libjpeg decodes directly at 1/2, 1/4 or 1/8 scale
(cv2.IMREAD_REDUCED_COLOR_*), which is much cheaper than decoding and resizing.
OpenCV applies the EXIF orientation in every mode; the header reader applies it
to the reported size as well, so coordinates always mean the photo as shown.

Before anything is decoded the header's size is checked (MAX_PIXELS): a 2.7 MB PNG
can declare 30000x30000 and take 5 GB to decode. A JPEG with no end marker is cut
short and is refused unread. HEIC/HEIF (an iPhone's default) is decoded with
pillow-heif, told by its content, not its name. Decoder libraries print warnings
on the process's stderr; they are kept off the user's terminal.
"""

from __future__ import annotations

import io
import os
import struct
import sys
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from kscore.filetypes import HEIF_SUFFIXES

#: Decode so that the long side keeps at least this many pixels.
DEFAULT_MIN_LONG_SIDE = 1600

HEIF_ADVICE = ("HEIC/HEIF photos cannot be decoded here (pillow-heif is not installed: pip install pillow-heif); "
               "or save or export it as JPEG (iPhone: Settings > Camera > Formats > Most Compatible takes JPEGs)")
#: The largest phone cameras take 200 MP; more is a damaged header or a decompression bomb.
MAX_PIXELS = 200_000_000
#: ISO-BMFF brands of HEIF stills (the `ftyp` box at byte 4).
HEIF_BRANDS = frozenset({b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"mif1", b"msf1", b"avif"})
#: A photo shorter than this cannot give a kingdom the ~30 px per square reading needs.
MIN_SHORT_SIDE = 150

_REDUCED = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4, 8: cv2.IMREAD_REDUCED_COLOR_8}


class PhotoError(Exception):
    """The file is not a photo kscore can read."""


@dataclass(frozen=True)
class Photo:
    """A decoded photo: `image` (BGR) is the original scaled by 1/`scale`.

    `size` is the original (width, height) as displayed (EXIF applied); multiply
    image coordinates by `scale` to get original pixel coordinates.
    """

    path: Path
    image: np.ndarray
    size: tuple[int, int]

    @property
    def scale(self) -> float:
        return self.size[0] / self.image.shape[1]


@dataclass(frozen=True)
class JpegHeader:
    width: int  # as stored, before EXIF orientation
    height: int
    orientation: int  # EXIF 1..8 (1 when absent)
    complete: bool = True  # an end-of-image marker follows the frame (False: the file was cut short)

    @property
    def shown_size(self) -> tuple[int, int]:
        """(width, height) as displayed: orientations 5-8 swap the axes."""
        return (self.height, self.width) if self.orientation >= 5 else (self.width, self.height)


def read_jpeg_header(data: bytes) -> JpegHeader | None:
    """Frame size and EXIF orientation from a JPEG's markers; None if not a JPEG."""
    if data[:2] != b"\xff\xd8":
        return None
    pos, orientation = 2, 1
    while pos + 4 <= len(data):
        if data[pos] != 0xFF:
            return None
        marker = data[pos + 1]
        if marker == 0xFF:  # fill byte
            pos += 1
            continue
        length = struct.unpack(">H", data[pos + 2 : pos + 4])[0]
        body = data[pos + 4 : pos + 2 + length]
        if marker == 0xE1 and body[:6] == b"Exif\x00\x00":
            orientation = _exif_orientation(body[6:]) or orientation
        # SOF markers (C0-CF except DHT C4, JPG C8, DAC CC) carry the frame size.
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height, width = struct.unpack(">HH", body[1:5])
            # After the frame header 0xFF is byte-stuffed (FF00) in the coded data, so FFD9 is the end marker.
            # Looked for from the end, where a whole file has it: searching 12 MP of coded data took ~3 ms.
            return JpegHeader(width, height, orientation, data.rfind(b"\xff\xd9", pos) != -1)
        pos += 2 + length
    return None


def _exif_orientation(tiff: bytes) -> int | None:
    try:
        endian = "<" if tiff[:2] == b"II" else ">"
        (ifd,) = struct.unpack(endian + "I", tiff[4:8])
        (count,) = struct.unpack(endian + "H", tiff[ifd : ifd + 2])
        for i in range(count):
            entry = tiff[ifd + 2 + 12 * i : ifd + 14 + 12 * i]
            tag, _type, _n = struct.unpack(endian + "HHI", entry[:8])
            if tag == 0x0112:
                value = struct.unpack(endian + "H", entry[8:10])[0]
                return value if 1 <= value <= 8 else None
    except struct.error:
        return None
    return None


def choose_reduction(shown_size: tuple[int, int], min_long_side: int = DEFAULT_MIN_LONG_SIDE) -> int:
    """The largest of 1, 2, 4, 8 that keeps the long side >= min_long_side."""
    return largest_reduction(max(shown_size), min_long_side)


def largest_reduction(pixels: float, needed: float) -> int:
    """The largest JPEG decode reduction (1, 2, 4, 8) that keeps `pixels` at `needed` or more."""
    factor = 1
    while factor < 8 and pixels / (factor * 2) >= needed:
        factor *= 2
    return factor


def load_photo(path: Path | str, min_long_side: int = DEFAULT_MIN_LONG_SIDE, reduction: int | None = None) -> Photo:
    """Decode `path` (EXIF orientation applied) at the cheapest adequate scale.

    reduction: decode a JPEG at exactly 1/1, 1/2, 1/4 or 1/8 instead (for the
    detail of a kingdom that came out small; other formats always decode whole).
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as err:
        raise PhotoError(f"cannot read {path}: {err.strerror or err}") from err
    if not data:
        raise PhotoError(f"{path} is empty (0 bytes): not a photo")
    header = read_jpeg_header(data)
    buffer = np.frombuffer(data, np.uint8)
    if header is None and is_heif(data):  # by content: a HEIC named .jpg, or a JPEG named .heic, both work
        image = decode_heif(data, path)
        return Photo(path, image, (image.shape[1], image.shape[0]))
    if header is None:
        _check_pixels(path, _declared_size(data))
        image = _quietly(cv2.imdecode, buffer, cv2.IMREAD_COLOR)
        if image is None:
            if path.suffix.lower() in HEIF_SUFFIXES:
                raise PhotoError(f"{path}: named like a HEIC photo but it is not one, nor another image kscore decodes")
            if _is_text(data):
                raise PhotoError(f"{path} is a text file, not an image; a kingdom typed as text is read "
                                 "when its name does not end in an image type (like game.kingdom)")
            raise PhotoError(f"{path} is not an image OpenCV can decode")
        return Photo(path, image, (image.shape[1], image.shape[0]))
    if not header.complete:  # never decoded: libjpeg would pad it with grey and warn on stderr
        raise PhotoError(_damaged(path))
    _check_pixels(path, header.shown_size)
    factor = reduction if reduction in _REDUCED else choose_reduction(header.shown_size, min_long_side)
    image = _quietly(cv2.imdecode, buffer, _REDUCED[factor])
    if image is None:
        raise PhotoError(_damaged(path))
    return Photo(path, image, header.shown_size)


def _damaged(path: Path) -> str:
    return (f"{path} looks like a JPEG but does not decode: the file is damaged or cut short "
            "(an interrupted copy or download?); copy it from the camera again")


def _check_pixels(path: Path, size: tuple[int, int] | None) -> None:
    """Refuse, before decoding, a header declaring more than MAX_PIXELS."""
    if size and size[0] * size[1] > MAX_PIXELS:
        raise PhotoError(f"{path} declares {size[0]}x{size[1]} pixels ({size[0] * size[1] / 1e6:,.0f} MP), more than "
                         f"kscore decodes ({MAX_PIXELS / 1e6:.0f} MP, the largest camera photos): a damaged file or "
                         "not a photo; scale it down if it is one")


def _declared_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from an image header, nothing decoded (Pillow reads headers lazily); None if unknown."""
    try:
        from PIL import Image
    except ImportError:  # OpenCV's own limit (2^30 pixels) is then the only one
        return None
    Image.MAX_IMAGE_PIXELS = None  # our limit, our message
    try:
        with Image.open(io.BytesIO(data)) as image:
            return image.size
    except Exception:  # not an image Pillow knows: OpenCV decides
        return None


def is_heif(data: bytes) -> bool:
    return data[4:8] == b"ftyp" and data[8:12] in HEIF_BRANDS


def decode_heif(data: bytes, path: Path) -> np.ndarray:
    """A HEIC/HEIF photo as BGR, turned as shown (its EXIF orientation applied), size checked first."""
    try:
        import pillow_heif
        from PIL import Image, ImageOps
    except ImportError:
        raise PhotoError(f"{path}: {HEIF_ADVICE}") from None
    pillow_heif.register_heif_opener()
    Image.MAX_IMAGE_PIXELS = None
    try:
        with Image.open(io.BytesIO(data)) as image:
            _check_pixels(path, image.size)
            shown = ImageOps.exif_transpose(image).convert("RGB")
    except PhotoError:
        raise
    except Exception as error:  # a damaged file, a codec libheif lacks
        raise PhotoError(f"{path}: a HEIC/HEIF file that does not decode ({error}); export it as JPEG") from None
    return cv2.cvtColor(np.asarray(shown), cv2.COLOR_RGB2BGR)


@contextmanager
def _stderr_captured():
    """fd 2 pointed at a scratch file for the duration: libjpeg and libpng print their warnings
    there directly ("Corrupt JPEG data: premature end of data segment", "iCCP: ..."). Yields a
    list that receives what was written."""
    said: list[str] = []
    try:
        saved = os.dup(2)
    except OSError:  # no stderr at all
        yield said
        return
    sys.stderr.flush()  # what Python already wrote goes to the terminal, not the sink
    with tempfile.TemporaryFile() as sink:
        os.dup2(sink.fileno(), 2)
        try:
            yield said
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            sink.seek(0)
            said.append(sink.read(4096).decode("utf-8", "replace"))


#: libjpeg's words when the coded data ends early (the rest of the picture is then grey).
_CUT_SHORT = ("premature end", "Premature end")


def _quietly(decode, *args):
    """decode(*args) with the decoder libraries' warnings kept off the terminal; None (does not
    decode) when libjpeg said the data ended early: a grey half-picture is no photo to read."""
    with _stderr_captured() as said:
        image = decode(*args)
    return None if any(words in "".join(said) for words in _CUT_SHORT) else image


def _is_text(data: bytes) -> bool:
    try:
        return b"\x00" not in data and bool(data.decode("utf-8-sig").strip())
    except UnicodeDecodeError:
        return False


def check_usable(photo: Photo) -> None:
    """Refuse, with the reason, a photo no kingdom could be read from: too small, or without colour.

    Kept apart from load_photo, which decodes any image (tests and tools load grey ones)."""
    w, h = photo.size
    if min(w, h) < MIN_SHORT_SIDE:
        raise PhotoError(f"{photo.path} is only {w}x{h} pixels: too small to read a kingdom from; "
                         "use the photo at full size")
    if np.percentile(_colourfulness(photo.image), 99.9) < 6:
        raise PhotoError(f"{photo.path} is black and white: kscore tells terrains apart by colour; "
                         "take or save the photo in colour")


def _colourfulness(image: np.ndarray) -> np.ndarray:
    """How far each pixel of a ~200x200 sample of `image` (BGR) is from grey: its channels' largest
    distance from their mean. Grey pixels have equal channels; a kingdom of even 1% of the photo is far from that.

    Per channel plane: reducing over the 3-long colour axis took ~5 ms (the same numbers: the
    sum of three small integers is exact, and it is divided by 3 as numpy's mean does)."""
    sample = image[:: max(1, image.shape[0] // 200), :: max(1, image.shape[1] // 200)]
    b, g, r = (sample[..., k].astype(np.float64) for k in range(3))
    mean = (b + g + r) / 3
    return np.maximum(np.maximum(np.abs(b - mean), np.abs(g - mean)), np.abs(r - mean))
