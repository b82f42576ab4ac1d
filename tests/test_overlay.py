"""The overlay drawn on the photo: the title never over the squares, points that fit their circle, one colour per
property, unsure squares framed, a legend."""

from __future__ import annotations

import shutil

import cv2
import numpy as np

from conftest import PROJECT, TEST_DATA
from conftest import run_kscore as run
from kscore.app.overlay import UNSURE, bubble, colours_for, draw_kingdom
from kscore.game.scoring import score_kingdom
from kscore.game.textformat import parse_game, read_game

DUEL = read_game(TEST_DATA / "duel.kingdom")  # a 7x7 kingdom: 13 properties that score


def _kingdom(text: str):
    game = parse_game(text)
    return score_kingdom(game.kingdoms[0], game.rules)


def test_a_kingdom_filling_the_photo_keeps_its_title_off_the_grid():
    score = score_kingdom(DUEL.kingdoms[0], DUEL.rules)
    grey = np.full((700, 700, 3), 128, np.uint8)
    corners = np.array([[0, 0], [700, 0], [700, 700], [0, 700]], float)  # the grid fills the photo
    with_title, without = grey.copy(), grey.copy()
    left = draw_kingdom(with_title, corners, score, 1.0)
    draw_kingdom(without, corners, score, 1.0, title=False)
    assert left == "Duelist: 136 points"  # handed back for the strip under the photo
    assert np.array_equal(with_title, without)  # nothing drawn over the squares
    # With room above the grid, the title goes there, still off the grid.
    roomy = np.full((800, 700, 3), 128, np.uint8)
    shifted = corners + [0, 100]
    assert draw_kingdom(roomy, shifted, score, 1.0) is None
    plain = np.full((800, 700, 3), 128, np.uint8)
    draw_kingdom(plain, shifted, score, 1.0, title=False)
    assert np.array_equal(roomy[100:], plain[100:]) and not np.array_equal(roomy[:100], plain[:100])


def test_two_and_three_digit_points_fit_inside_their_circle():
    for cell in (40, 70, 120):
        for text in ("9", "12", "104"):
            canvas = np.full((300, 300, 3), 255, np.uint8)
            radius = bubble(canvas, (150, 150), text, (0, 215, 255), cell)
            pixels = canvas.astype(int)
            fill = np.abs(pixels - (0, 215, 255)).sum(axis=2) > 150
            paper = np.abs(pixels - 255).sum(axis=2) > 150
            ink = np.argwhere(fill & paper)  # the dark digits (and the circle's thin rim)
            distance = np.hypot(ink[:, 0] - 150, ink[:, 1] - 150)
            digits = distance[distance < radius - 1.5]
            assert len(digits) > 8
            outside = np.sum(distance > radius + 1.5)
            assert outside == 0, (cell, text, radius)


def test_no_two_properties_share_a_colour():
    score = score_kingdom(DUEL.kingdoms[0], DUEL.rules)
    colours = colours_for(score.properties)
    assert len(colours) == sum(1 for p in score.properties if p.points) >= 7
    assert len(set(colours.values())) == len(colours)
    for colour in colours.values():  # red is kept for the unsure squares
        assert np.abs(np.array(colour, int) - UNSURE).sum() > 120


def test_unsure_squares_are_framed_in_red():
    score = _kingdom("W1 W0 F0 F1 L0\nG0 G2 C  L0 L1\nG0 S0 S1? L0 L0\nM2 S0 W0 W0 .\nM0 W1 W0 F0 .")
    canvas = np.full((500, 500, 3), 128, np.uint8)
    draw_kingdom(canvas, np.array([[0, 0], [500, 0], [500, 500], [0, 500]], float), score, 1.0, title=False)
    # square (2, 2) spans 200..300: its frame runs 8 px inside its edges
    left_edge = canvas[230:270, 208]
    assert np.all(left_edge[:, 2] > 200) and np.all(left_edge[:, 1] < 80)  # red
    assert not np.all(canvas[130:170, 108][:, 2] > 200)  # a sure square is not framed


def test_an_unsure_square_keeps_its_print_visible():
    """Only a frame and the '?' mark an unsure square: the print inside is what the player checks, so it is not
    washed over (a red tint hid glared forests on photos-loose)."""
    rng = np.random.default_rng(0)
    photo = rng.integers(0, 256, (500, 500, 3), dtype=np.uint8)  # a busy print everywhere
    corners = np.array([[0, 0], [500, 0], [500, 500], [0, 500]], float)
    drawn = {}
    for mark in ("", "?"):
        score = _kingdom(f"W1 W0 F0 F1 L0\nG0 G2 C  L0 L1\nG0 S0 S1{mark} L0 L0\nM2 S0 W0 W0 .\nM0 W1 W0 F0 .")
        drawn[mark] = photo.copy()
        draw_kingdom(drawn[mark], corners, score, 1.0, title=False)
    square = (slice(200, 300), slice(200, 300))
    untouched = {mark: np.all(image[square] == photo[square], axis=2).mean() for mark, image in drawn.items()}
    # Read sure, half the square is the photo's own pixels (the rest: outline, points, letters); unsure, the frame
    # takes some more, but most of that print stays as it was (a wash over the square left none of it).
    assert untouched[""] > 0.4 and untouched["?"] > 0.6 * untouched[""], untouched


def test_the_overlay_has_a_legend_strip_and_the_title_when_the_kingdom_fills_the_photo(capsys, tmp_path):
    photo = tmp_path / "table.jpg"
    shutil.copy(PROJECT / "sample_images" / "table_5x5.jpg", photo)
    code, _, _ = run(capsys, photo, "--overlay", tmp_path / "out.png")
    assert code == 0
    drawn = cv2.imread(str(tmp_path / "out.png"))
    original = cv2.imread(str(photo))
    scale = drawn.shape[1] / original.shape[1]
    strip = drawn[int(round(original.shape[0] * scale)):]
    assert strip.shape[0] > 20 and np.all(strip[:3] == 30)  # a dark strip under the photo
    assert np.sum(strip > 150) > 500  # with text in it: the title that had no room, and the legend
