"""Reading photos: JPEG header, EXIF orientation, reduced-resolution decoding."""

from __future__ import annotations

import numpy as np
import pytest

from kscore.vision.load import PhotoError, check_usable, choose_reduction, load_photo, read_jpeg_header
from photo_helpers import encode_jpeg, with_orientation


def _marked_image(w=400, h=200):
    """White left quarter, so any rotation shows where the left edge went."""
    image = np.zeros((h, w, 3), np.uint8)
    image[:, : w // 4] = 255
    return image


def test_header_gives_stored_size_and_orientation():
    header = read_jpeg_header(with_orientation(encode_jpeg(_marked_image()), 6))
    assert (header.width, header.height, header.orientation) == (400, 200, 6)
    assert header.shown_size == (200, 400)


def test_header_without_exif_is_upright():
    header = read_jpeg_header(encode_jpeg(_marked_image()))
    assert header.orientation == 1 and header.shown_size == (400, 200)


def test_not_a_jpeg_has_no_header():
    assert read_jpeg_header(b"\x89PNG\r\n") is None


@pytest.mark.parametrize(
    "size, factor",
    [((4000, 3000), 2), ((6000, 4000), 2), ((8000, 6000), 4), ((1600, 1200), 1), ((640, 480), 1), ((20000, 15000), 8)],
)
def test_reduction_keeps_enough_pixels(size, factor):
    assert choose_reduction(size) == factor


def test_load_applies_exif_orientation(tmp_path):
    path = tmp_path / "rotated.jpg"
    path.write_bytes(with_orientation(encode_jpeg(_marked_image()), 6))  # 6: turn 90 degrees clockwise
    photo = load_photo(path)
    assert photo.size == (200, 400)
    assert photo.image.shape[:2] == (400, 200)
    # the white left edge is now the top edge
    assert photo.image[:50].mean() > 200 and photo.image[-50:].mean() < 50


def test_large_jpeg_decodes_reduced_with_scale(tmp_path):
    path = tmp_path / "big.jpg"
    path.write_bytes(encode_jpeg(_marked_image(4000, 3200)))
    photo = load_photo(path)
    assert photo.image.shape[:2] == (1600, 2000)
    assert photo.size == (4000, 3200) and photo.scale == 2.0


def test_png_is_read_whole(tmp_path):
    import cv2

    path = tmp_path / "board.png"
    cv2.imwrite(str(path), _marked_image())
    photo = load_photo(path)
    assert photo.size == (400, 200) and photo.scale == 1.0


def test_unreadable_files_say_why(tmp_path):
    bad = tmp_path / "notes.jpg"
    bad.write_text("not an image")
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    with pytest.raises(PhotoError, match="empty"):
        load_photo(empty)
    with pytest.raises(PhotoError, match="not an image"):
        load_photo(bad)
    with pytest.raises(PhotoError, match="cannot read"):
        load_photo(tmp_path / "missing.jpg")


def test_photos_that_cannot_hold_a_readable_kingdom_say_why(tmp_path):
    import cv2

    colour = _marked_image()
    colour[:, 100:200] = (40, 160, 60)  # a green stripe
    grey = cv2.cvtColor(cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    for name, image in [("grey.jpg", grey), ("tiny.png", cv2.resize(colour, (120, 60))), ("colour.jpg", colour)]:
        cv2.imwrite(str(tmp_path / name), image)
    with pytest.raises(PhotoError, match="black and white"):
        check_usable(load_photo(tmp_path / "grey.jpg"))
    with pytest.raises(PhotoError, match="120x60 pixels"):
        check_usable(load_photo(tmp_path / "tiny.png"))
    check_usable(load_photo(tmp_path / "colour.jpg"))


def test_an_iphone_heic_gets_export_advice(tmp_path):
    heic = tmp_path / "IMG_0001.HEIC"
    heic.write_bytes(b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic")
    with pytest.raises(PhotoError, match="export it as JPEG"):
        load_photo(heic)


def test_a_file_named_jpg_that_is_not_a_jpeg_says_what_it_is(tmp_path):
    text = tmp_path / "game.jpg"
    text.write_text("W1 W0 F0 F1 L0\n")
    with pytest.raises(PhotoError, match="is a text file, not an image.*like game.kingdom"):
        load_photo(text)
    heic = tmp_path / "IMG_0001.jpg"  # a HEIC the phone or a tool named .jpg
    heic.write_bytes(b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + bytes(64))
    with pytest.raises(PhotoError, match="export it as JPEG"):
        load_photo(heic)


def test_a_jpeg_cut_short_says_it_is_damaged(tmp_path):
    from conftest import PROJECT

    whole = (PROJECT / "sample_images" / "table_5x5.jpg").read_bytes()
    cut = tmp_path / "table.jpg"
    cut.write_bytes(whole[: len(whole) // 2])  # an interrupted copy
    with pytest.raises(PhotoError, match="damaged or cut short"):
        load_photo(cut)
