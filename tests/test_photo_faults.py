"""Hostile photo files (issue 16): decompression bombs refused before decoding, damaged JPEGs
called damaged with nothing else on stderr, HEIC read by content with its orientation."""

from __future__ import annotations

import json
import struct
import zlib

import cv2
import numpy as np
import pytest

from conftest import PROJECT
from conftest import run_kscore as run
from kscore.vision.load import PhotoError, load_photo

SAMPLE = PROJECT / "sample_images" / "table_5x5.jpg"


def png_bomb(path, width=30000, height=30000, rows=200) -> None:
    """A PNG header of width x height (2.7 GB decoded) over its first `rows` black rows: the
    size check reads only the header (compressing all 30,000 rows takes half a minute)."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    squeeze = zlib.compressobj(9)
    row = b"\x00" * (1 + width * 3)
    data = b"".join(squeeze.compress(row) for _ in range(rows)) + squeeze.flush()
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", data) + chunk(b"IEND", b""))


def with_frame_size(jpeg: bytes, width: int, height: int) -> bytes:
    """The JPEG with its SOF0 frame header claiming another size."""
    at = jpeg.index(b"\xff\xc0")
    return jpeg[: at + 5] + struct.pack(">HH", height, width) + jpeg[at + 9 :]


def test_a_png_declaring_30000x30000_is_refused_before_decoding(tmp_path, capfd):
    bomb = tmp_path / "bomb.png"
    png_bomb(bomb)
    assert bomb.stat().st_size < 5_000_000
    code, out, err = run(capfd, bomb)
    assert code == 2 and out == ""
    assert err.startswith(f"kscore: {bomb} declares 30000x30000 pixels (900 MP)") and err.count("\n") == 1, err


def test_a_bmp_header_declaring_a_bomb_is_refused(tmp_path):
    bmp = tmp_path / "huge.bmp"
    header = b"BM" + struct.pack("<IHHI", 54, 0, 0, 54) + struct.pack("<IiiHHIIiiII", 40, 40000, 40000, 1, 24, 0, 0, 0, 0, 0, 0)
    bmp.write_bytes(header + bytes(64))
    with pytest.raises(PhotoError, match="declares 40000x40000"):
        load_photo(bmp)


def test_a_jpeg_claiming_60000x60000_cut_short_is_damaged_and_nothing_else_is_said(tmp_path, capfd):
    whole = SAMPLE.read_bytes()
    cut = tmp_path / "big.jpg"
    cut.write_bytes(with_frame_size(whole, 60000, 60000)[: len(whole) // 3])
    other = tmp_path / "half.jpg"
    other.write_bytes(whole[: len(whole) * 2 // 3])
    code, out, err = run(capfd, cut, other, "--json")
    assert code == 2
    assert [f["source"] for f in json.loads(out)["failures"]] == [str(cut), str(other)]
    assert err.count("\n") == 2 and err.count("damaged or cut short") == 2, err


def test_a_jpeg_cut_short_with_an_end_marker_is_damaged_and_libjpeg_says_nothing(tmp_path, capfd):
    whole = SAMPLE.read_bytes()
    mended = tmp_path / "mended.jpg"  # a tool "repaired" an interrupted copy by closing it
    mended.write_bytes(whole[: len(whole) // 2] + b"\xff\xd9")
    code, out, err = run(capfd, mended)
    assert code == 2 and out == ""
    assert err == f"kscore: {mended} looks like a JPEG but does not decode: the file is damaged or cut short " \
                  "(an interrupted copy or download?); copy it from the camera again\n"


def test_a_whole_jpeg_declaring_too_many_pixels_is_refused(tmp_path):
    big = tmp_path / "big.jpg"
    big.write_bytes(with_frame_size(SAMPLE.read_bytes(), 60000, 60000))
    with pytest.raises(PhotoError, match="declares 60000x60000 pixels"):
        load_photo(big)


def test_libpng_warnings_do_not_reach_the_terminal(tmp_path, capfd):
    image = cv2.imread(str(SAMPLE))
    ok, png = cv2.imencode(".png", image)
    data = png.tobytes()
    # a wrong-length iCCP chunk makes libpng warn ("iCCP: ...") and still decode the picture
    bad_chunk = struct.pack(">I", 5) + b"iCCPx\x00\x00\x00\x00" + struct.pack(">I", 0)
    at = data.index(b"IDAT") - 4
    warned = tmp_path / "warned.png"
    warned.write_bytes(data[:at] + bad_chunk + data[at:])
    capfd.readouterr()
    photo = load_photo(warned)
    assert photo.image.shape == image.shape
    assert capfd.readouterr().err == ""


HEIC = PROJECT / "tests" / "data" / "photo" / "table_5x5_turned.heic"


def test_a_heic_photo_is_read_as_shown_like_the_jpeg(capsys, tmp_path):
    heic = tmp_path / "IMG_0001.HEIC"
    heic.write_bytes(HEIC.read_bytes())
    photo = load_photo(heic)
    assert photo.image.shape == (750, 1000, 3)  # landscape, as the phone shows it
    code, out, err = run(capsys, heic, SAMPLE, "--json", "--each")
    assert code == 0, err
    heic_kingdom, jpeg_kingdom = (g["kingdoms"][0] for g in json.loads(out)["games"])
    assert heic_kingdom["terrain"] == jpeg_kingdom["terrain"] and heic_kingdom["score"] == 16
    assert (tmp_path / "IMG_0001.kingdom").exists()


def heif_box(data: bytes, kind: bytes) -> bytes:
    """The body of the first box of `kind` (after its 4-byte type)."""
    return data[data.index(kind) + 4:]


def test_the_heic_test_photo_is_stored_sideways_and_read_as_shown():
    """What a phone held sideways writes: portrait pixels and a turn to show them (HEIF's irot box;
    the EXIF orientation 6 beside it is the same turn, applied once)."""
    data = HEIC.read_bytes()
    assert struct.unpack(">II", heif_box(data, b"ispe")[4:12]) == (750, 1000)  # stored: 750 wide, 1000 high
    assert heif_box(data, b"irot")[0] & 3 == 3  # shown turned by 3 x 90 degrees anticlockwise
    shown = load_photo(HEIC).image.astype(int)
    jpeg = cv2.resize(cv2.imread(str(SAMPLE)), (1000, 750), interpolation=cv2.INTER_AREA).astype(int)
    assert np.abs(shown - jpeg).mean() < 5  # the same picture, upright (turned twice: 55)
    assert np.abs(shown - jpeg[::-1, ::-1]).mean() > 30


def test_photos_are_told_by_content_not_name(tmp_path):
    jpeg_named_heic = tmp_path / "a.heic"
    jpeg_named_heic.write_bytes(SAMPLE.read_bytes())
    assert load_photo(jpeg_named_heic).image.shape[:2] == (1200, 1600)
    heic_named_jpg = tmp_path / "b.jpg"
    heic_named_jpg.write_bytes(HEIC.read_bytes())
    assert load_photo(heic_named_jpg).image.shape == (750, 1000, 3)
    neither = tmp_path / "c.heic"
    neither.write_bytes(b"\x00\x01" * 100)
    with pytest.raises(PhotoError, match="named like a HEIC photo but it is not one"):
        load_photo(neither)
