"""Finding kingdoms in photos: real photo, synthetic scenes, full-frame boards, edge cases."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from kscore.vision.geometry import corner_error, photo_order
from kscore.vision.load import Photo, load_photo
from kscore.vision.find.lattice import edge_maps
from kscore.vision.find.localise import _tight_crop, _whole_frame, localise, working_image
from kscore.vision.find.rectify import rectify
from kscore.lab.synth import background, make_scene, scene_with_quads
from photo_helpers import PHOTO_DATA, encode_jpeg, labelled_boards, with_orientation


def _photo(image: np.ndarray, name: str = "scene.jpg") -> Photo:
    return Photo(Path(name), image, (image.shape[1], image.shape[0]))


def _best_match(found, truth_corners):
    errors = [corner_error(b.corners, truth_corners) for b in found]
    i = int(np.argmin(errors))
    return found[i], errors[i]


def test_real_photo_on_cutting_mat():
    """tpacko_game4, downscaled: a 7x7 kingdom, oblique, on a mat with a printed grid."""
    entry = json.loads((PHOTO_DATA / "labels.json").read_text())["items"]["mat_7x7.jpg"][0]
    found = localise(load_photo(PHOTO_DATA / "mat_7x7.jpg")).boards
    assert len(found) == 1
    board, error = _best_match(found, np.array(entry["corners"]))
    assert board.size == 7 and not board.partial
    assert error < 0.02


def test_exif_rotated_photo_reports_corners_as_shown(tmp_path):
    """Orientation 8 (turn 90 degrees anticlockwise): corners come back in the shown frame."""
    entry = json.loads((PHOTO_DATA / "labels.json").read_text())["items"]["mat_7x7.jpg"][0]
    stored = cv2.imread(str(PHOTO_DATA / "mat_7x7.jpg"))
    path = tmp_path / "turned.jpg"
    path.write_bytes(with_orientation(encode_jpeg(stored, 92), 8))
    photo = load_photo(path)
    h, w = stored.shape[:2]
    assert photo.size == (h, w)
    # Orientation 8 shows stored (x, y) at (y, w - 1 - x).
    shown = np.array([[y, w - 1 - x] for x, y in entry["corners"]])
    truth, _ = photo_order(shown)
    board, error = _best_match(localise(photo).boards, truth)
    assert board.size == 7 and error < 0.02


def test_two_synthetic_kingdoms_found_in_photo_order():
    rng = np.random.default_rng(7)
    boards = labelled_boards()
    scene = make_scene(boards, rng, size=(1400, 1000), background_kind="cloth", max_tilt_deg=35)
    assert len(scene.kingdoms) == 2
    found = localise(_photo(scene.image)).boards
    assert len(found) == 2
    for truth in scene.kingdoms:
        board, error = _best_match(found, truth.corners)
        assert board.size == 5 and error < 0.02
        # Cut out with the found corners, the board shows the source turned as
        # the truth says: the truth's rows are the photo's rows.
        cut = rectify(_photo(scene.image), board.corners, 5)
        source = next(b for b in boards if b.name == truth.name)
        turned = [np.rot90(source.image, -k) for k in range(4)]  # k quarter turns clockwise
        best = int(np.argmin([np.abs(cut.astype(int) - t.astype(int)).mean() for t in turned]))
        kingdom = source.kingdom
        for _ in range(best):
            kingdom = kingdom.rotated()
        assert kingdom.rows == truth.kingdom.rows


@pytest.mark.parametrize("which", [0, 1])
def test_board_filling_the_whole_image_is_found(which):
    """A cropped top-down board (like the 500x500 labelled boards) is a photo too, found whole:
    never one of its parts taken for a kingdom."""
    image = labelled_boards()[which].image
    found = localise(_photo(image)).boards
    assert len(found) == 1
    assert found[0].size == 5
    assert corner_error(found[0].corners, np.array([[0, 0], [500, 0], [500, 500], [0, 500]])) < 0.02


@pytest.mark.parametrize("which", [0, 1])
def test_tight_crop_is_read_as_the_whole_frame_before_any_blob(which):
    """A board cut to its grid is known as one from its lattice alone (no colour blob examined),
    and that shortcut finds exactly what examining every blob first finds."""
    image = labelled_boards()[which].image
    work, factor = working_image(image)
    frame = _whole_frame(work, edge_maps(work), factor)
    assert frame is not None and _tight_crop(work, frame)
    first = localise(_photo(image)).boards
    last = localise(_photo(image), frame_first=False).boards
    assert [(b.size, b.corners.tolist(), b.seams) for b in first] == [(b.size, b.corners.tolist(), b.seams) for b in last]
    assert first[0].corners.tolist() == frame.corners.tolist()


def test_board_cut_inside_its_grid_is_not_a_tight_crop():
    """Board 1 cut a quarter of a square inside its grid on two sides still shows a whole-frame
    lattice, but the other grid size fits it nearly as well: its blobs are examined."""
    work, factor = working_image(labelled_boards()[0].image[25:, 25:])
    frame = _whole_frame(work, edge_maps(work), factor)
    assert frame is not None and not _tight_crop(work, frame)


def test_kingdom_photographed_on_a_mat_is_no_whole_frame():
    work, factor = working_image(cv2.imread(str(PHOTO_DATA / "mat_7x7.jpg")))
    assert _whole_frame(work, edge_maps(work), factor) is None


def test_empty_table_finds_nothing_and_says_what_it_saw():
    rng = np.random.default_rng(3)
    table = np.clip(background("wood", rng, 900, 1200), 0, 255).astype(np.uint8)
    result = localise(_photo(table))
    assert result.boards == ()
    assert result.seen


def test_board_cut_by_the_photo_edge_is_partial():
    rng = np.random.default_rng(5)
    whole, cut = labelled_boards()
    quads = [
        np.array([[150, 200], [550, 220], [530, 620], [130, 600]], float),
        np.array([[900, 250], [1300, 260], [1290, 660], [890, 650]], float),  # runs off the right edge
    ]
    scene = scene_with_quads([whole, cut], quads, rng, size=(1200, 900), background_kind="table")
    found = localise(_photo(scene.image)).boards
    complete = [b for b in found if not b.partial]
    partial = [b for b in found if b.partial]
    assert len(complete) == 1 and corner_error(complete[0].corners, scene.kingdoms[0].corners) < 0.02
    assert len(partial) == 1 and "right" in partial[0].missing


def _side_by_side(gap: float, kind: str = "wood"):
    rng = np.random.default_rng(5)
    left = np.array([[100, 200], [500, 210], [495, 610], [95, 600]], float)
    right = left + [400 + gap, 0]
    return scene_with_quads(labelled_boards(), [left, right], rng, size=(1100, 800), background_kind=kind)


@pytest.mark.parametrize("kind", ["wood", "table", "cloth"])
def test_kingdoms_close_together_are_found_apart(kind):
    scene = _side_by_side(gap=30, kind=kind)  # under a tenth of a kingdom's side
    found = localise(_photo(scene.image)).boards
    assert len(found) == 2
    for truth in scene.kingdoms:
        assert _best_match(found, truth.corners)[1] < 0.02


def test_touching_kingdoms_are_refused_not_guessed():
    result = localise(_photo(_side_by_side(gap=0).image))
    assert result.boards == ()
    assert "touching" in result.seen and "gap" in result.seen


_SEVEN_TRUTH = np.array([[310.0, 180.0], [905.0, 235.0], [960.0, 780.0], [255.0, 720.0]])
_SEVEN_PITCH = 600 / 7


def _seven_scene():
    """A 7x7 board of exact 100 px squares under perspective, on a plain table."""
    from kscore.lab.synth import compose_board

    sources = labelled_boards()
    squares = [(s.image[r * 100 : (r + 1) * 100, c * 100 : (c + 1) * 100], s.kingdom[(r, c)])
               for s in sources for r in range(5) for c in range(5)][:49]
    board = compose_board(squares, 7, "seven")
    return scene_with_quads([board], [_SEVEN_TRUTH], np.random.default_rng(3), size=(1200, 900), background_kind="table")


def test_seam_fit_pulls_a_rough_grid_onto_the_seams():
    """Corners a sixth of a square off come back to within a few tenths of a percent of the side."""
    from kscore.vision.find.lattice import fit_seam_homography

    scene = _seven_scene()
    rough = _SEVEN_TRUTH + np.array([[1, -1], [-1, -1], [1, 1], [-1, 1]]) * _SEVEN_PITCH / 6
    assert corner_error(rough, _SEVEN_TRUTH) > 0.03
    fitted = fit_seam_homography(scene.image, rough, 7)
    assert corner_error(fitted, _SEVEN_TRUTH) < 0.004


def test_seam_fit_walks_a_misplaced_corner_back_only_when_allowed():
    """One corner most of a square off (a castle's bulge): one fit refuses so big a move;
    refits allowed a square each walk the grid back onto the seams."""
    from kscore.vision.find.lattice import fit_seam_homography

    scene = _seven_scene()
    off = _SEVEN_TRUTH.copy()
    off[3] += np.array([1.0, -0.5]) * _SEVEN_PITCH * 0.7
    assert np.array_equal(fit_seam_homography(scene.image, off, 7), off)
    walked = off
    for _ in range(4):
        walked = fit_seam_homography(scene.image, walked, 7, max_move=1.0)
    assert corner_error(off, _SEVEN_TRUTH) > 0.025
    assert corner_error(walked, _SEVEN_TRUTH) < 0.004


def test_seam_fit_leaves_a_quad_without_seams_alone():
    from kscore.vision.find.lattice import fit_seam_homography

    plain = background("table", np.random.default_rng(1), 600, 800).clip(0, 255).astype(np.uint8)
    quad = np.array([[200.0, 100.0], [600.0, 120.0], [580.0, 500.0], [210.0, 480.0]])
    assert np.array_equal(fit_seam_homography(plain, quad, 5), quad)


def test_grid_one_square_off_settles_back_on_the_board():
    """Shifted by a square (a row of table taken, a row of tiles lost), the seams inside look
    just as good; the board's outline on the outer lines brings the grid back."""
    from kscore.vision.find.lattice import edge_maps, shifted
    from kscore.vision.find.localise import _polish

    scene = _seven_scene()
    off = shifted(_SEVEN_TRUTH, 7, 1, 0)
    assert corner_error(off, _SEVEN_TRUTH) > 0.1
    quad, fit = _polish(scene.image, edge_maps(scene.image), off, 7)
    assert fit.size == 7
    assert corner_error(quad, _SEVEN_TRUTH) < 0.01


def test_outline_missing_a_column_and_lying_across_the_grid_still_gives_the_board():
    """The colours missed the last column (tiles like the table) and the ragged edge left the
    outline's far side a third of a square across the grid: counting squares can't read the
    period, and the grid polished on that outline was a 5x5 at 16%. Grids adding the column
    back on either side settle on their seams and the one showing most (and most outline) wins."""
    from kscore.vision.find.lattice import edge_maps
    from kscore.vision.find.localise import _examine, foreground

    scene = _seven_scene()
    to_photo = cv2.getPerspectiveTransform(np.float32([[0, 0], [7, 0], [7, 7], [0, 7]]), np.float32(_SEVEN_TRUTH))
    grid = np.float32([[0, 0], [6.35, 0], [5.65, 7], [0, 7]])  # 6 of 7 columns, far side tilted
    outline = cv2.perspectiveTransform(grid.reshape(-1, 1, 2), to_photo).reshape(4, 2).astype(np.float64)
    blob = np.zeros(scene.image.shape[:2], np.uint8)
    cv2.fillConvexPoly(blob, outline.astype(np.int32), 1)
    board = _examine(scene.image, foreground(scene.image), edge_maps(scene.image), outline, blob, 1.0)
    assert board is not None and board.size == 7 and not board.partial
    assert corner_error(board.corners, _SEVEN_TRUTH) < 0.01


def _whole_board_near_the_top(rng):
    whole = labelled_boards()[0]
    quad = np.array([[400, 40], [800, 50], [790, 450], [390, 440]], float)
    return scene_with_quads([whole], [quad], rng, size=(1200, 900), background_kind="table")


def test_tiles_show_detail_that_flat_clutter_does_not():
    """What keeps cards cut by the photo's edge from being reported as partial kingdoms:
    a labelled board shows tile detail; two flat cards (with noise and JPEG) don't."""
    from kscore.vision.find.localise import _textured

    board = cv2.resize(labelled_boards()[0].image, (250, 250), interpolation=cv2.INTER_AREA)
    rng = np.random.default_rng(2)
    cards = np.zeros((250, 250, 3), np.float32)
    cards[:, :130], cards[:, 130:] = (40, 160, 40), (30, 200, 230)
    cards = (cards + rng.normal(0, 2, cards.shape)).clip(0, 255).astype(np.uint8)
    cards = cv2.imdecode(cv2.imencode(".jpg", cards, [cv2.IMWRITE_JPEG_QUALITY, 70])[1], cv2.IMREAD_COLOR)
    everywhere = np.ones((250, 250), np.uint8)
    assert _textured(board, everywhere)
    assert not _textured(cards, everywhere)


def test_castle_standing_past_the_photo_edge_leaves_the_board_whole():
    """A board near the top edge whose (drawn) castle pokes out of the photo: its colours reach
    the edge but its outline doesn't, so it is a whole board, polished like any other."""
    scene = _whole_board_near_the_top(np.random.default_rng(4))
    image = scene.image.copy()
    cv2.fillConvexPoly(image, np.int32([[560, 60], [640, 60], [650, -10], [550, -10]]), (200, 120, 220))
    cv2.fillConvexPoly(image, np.int32([[565, 20], [635, 20], [600, -10]]), (90, 60, 160))
    found = localise(_photo(image)).boards
    assert len(found) == 1 and not found[0].partial
    assert corner_error(found[0].corners, scene.kingdoms[0].corners) < 0.02


@pytest.mark.parametrize("kind", ["wood", "carpet"])
def test_kingdom_cut_by_a_corner_of_the_photo_is_not_taken_for_table(kind):
    """A kingdom cut by the photo's top-left corner fills both of those border strips past the
    corners they skip: its colours, on two sides, passed for table (the cut kingdom was missed,
    and with it, on wood, the whole one beside it). Pieces of the strip showing tiles teach nothing."""
    rng = np.random.default_rng(6)
    quads = [np.array([[600, 400], [1000, 420], [980, 820], [580, 800]], float),
             np.array([[-180, -120], [300, -140], [320, 340], [-160, 360]], float)]
    scene = scene_with_quads(labelled_boards(), quads, rng, size=(1200, 900), background_kind=kind)
    found = localise(_photo(scene.image)).boards
    complete = [b for b in found if not b.partial]
    partial = [b for b in found if b.partial]
    assert len(complete) == 1 and corner_error(complete[0].corners, scene.kingdoms[0].corners) < 0.02
    assert len(partial) == 1 and "left" in partial[0].missing and "top" in partial[0].missing
    # reported by its visible part: the outline's centre lies on the cut kingdom
    centre = tuple(float(v) for v in partial[0].corners.mean(axis=0))
    assert cv2.pointPolygonTest(np.float32(quads[1]).reshape(-1, 1, 2), centre, False) > 0


def test_strip_pieces_showing_tiles_are_left_out_and_flat_clutter_is_not():
    """The border strip's pieces: tiles cut by the edge differ from the table and show detail
    (left out); a flat card cut by the edge differs but shows none (kept, as table)."""
    from kscore.vision.find.localise import _tile_segments

    rng = np.random.default_rng(1)
    image = np.clip(background("wood", rng, 600, 800), 0, 255).astype(np.uint8)
    image[100:500, :200] = cv2.resize(labelled_boards()[0].image, (200, 400))  # tiles cut by the left edge
    image[150:450, -120:] = (40, 160, 40)  # a flat green card cut by the right edge
    image = cv2.GaussianBlur(image, (3, 3), 0)
    lab = cv2.cvtColor(cv2.GaussianBlur(image, (5, 5), 0), cv2.COLOR_BGR2Lab)
    grey = lab[..., 0].astype(np.float32)
    mean = cv2.blur(grey, (7, 7))
    std = np.sqrt(np.maximum(cv2.blur(grey * grey, (7, 7)) - mean * mean, 0))
    skip = _tile_segments(lab, std, 24)
    assert skip[100:500, :24].mean() > 0.6  # the tiles (a piece of plain wheat may show too little detail)
    assert not skip[300, -24:].any()  # the card
    assert not skip[:24, 400].any() and not skip[-24:, 400].any()  # the table


def test_colours_running_along_the_edge_make_a_board_cut_whatever_its_outline():
    """A kingdom whose corner the top edge cut: a four-sided outline may take the cut as its top
    side a square below the edge; the colours running along the edge for two squares still say
    'cut'. A castle's width (under a square) of colour at the edge does not."""
    from kscore.vision.find.localise import _partial

    pitch = 60.0
    quad = np.array([[300, 60], [600, 60], [600, 360], [300, 360]], float)  # top side a square below the edge
    blob = np.zeros((500, 800), np.uint8)
    blob[60:360, 300:600] = 1
    blob[:60, 380:500] = 1  # two squares of tiles up to the edge
    assert _partial(blob, quad, 800, 500, pitch) == (["top"], [])
    blob[:60] = 0
    blob[:60, 420:465] = 1  # a castle's width
    assert _partial(blob, quad, 800, 500, pitch) == ([], [])


def _turned_board_near_edge(gap: float):
    """A labelled board turned 45 degrees whose right corner lies `gap` px inside the photo's right edge."""
    rng = np.random.default_rng(2)
    w, h, r = 1000, 800, 230.0
    cx, cy = w - gap - r, 380.0
    quad = np.array([[cx - r, cy], [cx, cy - r], [cx + r, cy], [cx, cy + r]])  # TL, TR, BR, BL of the board
    return scene_with_quads(labelled_boards()[:1], [quad], rng, size=(w, h), background_kind="table")


@pytest.mark.parametrize("gap", [3, 8])
def test_board_corner_a_few_pixels_from_the_edge_is_whole(gap):
    """A whole board at 45 degrees whose corner nearly touches the photo's edge: its colours meet the
    edge over a few pixels at most (a closing once glued it to the edge, so it passed for cut)."""
    scene = _turned_board_near_edge(gap)
    assert not scene.kingdoms[0].partial
    found = localise(_photo(scene.image)).boards
    assert len(found) == 1 and not found[0].partial
    assert _best_match(found, scene.kingdoms[0].corners)[1] < 0.02


def test_board_corner_just_past_the_edge_is_partial():
    """The same board with its corner a little past the edge: the grid settled on its seams runs past it."""
    scene = _turned_board_near_edge(-12)
    assert scene.kingdoms[0].partial
    found = localise(_photo(scene.image)).boards
    assert len(found) == 1 and found[0].partial and "right" in found[0].missing


def test_closing_does_not_glue_a_blob_to_the_photo_edge():
    from kscore.vision.find.localise import _close

    mask = np.zeros((100, 100), np.uint8)
    mask[20:80, 4:60] = 1  # 4 px from the left edge
    closed = _close(mask, 15)
    assert not closed[:, :4].any()
    assert closed[20:80, 4:60].all()


def test_tile_colours_judged_on_the_region_not_its_box():
    """A kingdom at 45 degrees on a white table fills half its bounding box: the box is too
    little saturated to pass for tiles, the region's own pixels are not."""
    from kscore.vision.find.localise import _tile_colours

    board = cv2.resize(labelled_boards()[0].image, (200, 200), interpolation=cv2.INTER_AREA)
    box = np.full((284, 284, 3), 235, np.uint8)
    turn = cv2.getRotationMatrix2D((100, 100), 45, 1.0)
    turn[:, 2] += 42
    box = cv2.warpAffine(board, turn, (284, 284), dst=box, borderMode=cv2.BORDER_TRANSPARENT)
    region = cv2.warpAffine(np.ones((200, 200), np.uint8), turn, (284, 284))
    assert not _tile_colours(box)
    assert _tile_colours(box, region)
    assert not _tile_colours(box, 1 - region)  # the table alone


def test_soft_shadow_edge_is_table_not_tiles():
    """A cast shadow's soft edge is a ramp from lit table to shade, not texture: its rim once
    passed for tiles and joined the kingdom's blob (synthetic white tables, seed 5)."""
    from kscore.vision.find.localise import foreground

    rng = np.random.default_rng(4)
    table = np.clip(background("table", rng, 600, 800), 0, 255).astype(np.float32)
    shade = np.zeros((600, 800), np.float32)
    cv2.fillConvexPoly(shade, np.array([[150, 200], [600, 150], [650, 300], [200, 420]], np.int32), 1.0)
    shade = cv2.GaussianBlur(shade, (0, 0), 6.0)  # soft: a sharp edge (sigma 2-3 px) still shows
    image = np.clip(table * (1 - 0.45 * shade)[..., None], 0, 255).astype(np.uint8)
    fg = foreground(image)
    rim = (shade > 0.1) & (shade < 0.9)
    assert (fg[rim] > 0.5).mean() < 0.05



@pytest.mark.parametrize("missing", [3, 4])
def test_side_missing_part_of_its_outer_row_keeps_to_a_grid_line(missing):
    """Tiles the colour of the table (forest on a green cloth) end the foreground a row
    early along part of one side. That side follows the longer run, on the board's edge
    (3 of 7 squares missing) or a row in (4 of 7), parallel either way so counting squares
    can add the row back; a fit through all the samples tilted it across the grid."""
    from kscore.vision.find.localise import refine_quad

    fg = np.zeros((600, 700), np.float32)
    fg[100:500, 150:550] = 1.0  # a 7x7 board, 400 px across
    pitch = 400 / 7
    fg[int(500 - pitch) :, int(550 - missing * pitch) : 550] = 0.0  # the bottom row's last squares
    truth = np.array([[150, 100], [550, 100], [550, 500], [150, 500]], float)
    rough = truth + np.array([[6, 4], [-5, 6], [4, -6], [-6, -5]], float)
    refined = refine_quad(fg, rough)
    expected = truth.copy()
    if missing > 3.5:
        expected[2:, 1] -= pitch  # the bottom side a row in
    assert np.max(np.linalg.norm(refined - expected, axis=1)) < 3.0


@pytest.mark.parametrize("kind", ["cloth", "wood"])
def test_kingdom_joined_to_a_bright_patch_at_the_photo_edge_is_found_whole(kind):
    """Window light brightens the table from the photo's edge to just short of the board: the
    patch is unlike the border, joins the board's blob and made it 'cut by the left edge' (a
    partial find 30% off). The long blob at the edge is also tried in parts; the board, whole
    with clear seams, is found and the partial find centred on it dropped."""
    quad = np.array([[310, 300], [810, 290], [820, 790], [300, 800]], float)
    scene = scene_with_quads([labelled_boards()[0]], [quad], np.random.default_rng(2), size=(1200, 1000),
                             background_kind=kind)
    image = scene.image.astype(np.float32)
    image[350:750, :292] *= 1.5
    found = localise(_photo(np.clip(image, 0, 255).astype(np.uint8))).boards
    assert len(found) == 1 and not found[0].partial
    assert corner_error(found[0].corners, scene.kingdoms[0].corners) < 0.01


def test_grids_adding_back_a_missed_row_and_column_find_the_board_and_nothing_on_a_bare_mat():
    """When no grid settles on an outline (dark tiles on a dark mat left it a row and a column
    short and lying across the grid), the grids adding them back are tried; one counts only
    with its seams clear (SURE_SEAMS) and mostly found by the colours."""
    from kscore.vision.find.lattice import edge_maps
    from kscore.vision.find.localise import HALF, SURE_SEAMS, _missed_row_grids, _share_inside, foreground

    truth = np.array([[300, 200], [760, 230], [740, 690], [280, 660]], float)
    scene = scene_with_quads([labelled_boards()[0]], [truth], np.random.default_rng(4), size=(1100, 900),
                             background_kind="mat")
    corners = scene.kingdoms[0].corners
    to_photo = cv2.getPerspectiveTransform(np.float32([[0, 0], [5, 0], [5, 5], [0, 5]]), np.float32(corners))
    grid = np.float32([[1, 0], [5, 0], [5, 4.3], [1, 3.7]])  # left column and bottom row missed
    outline = cv2.perspectiveTransform(grid.reshape(-1, 1, 2), to_photo).reshape(4, 2).astype(np.float64)
    found = [q for q, fit in _missed_row_grids(scene.image, edge_maps(scene.image), outline, (5, 7))
             if fit.seams >= SURE_SEAMS and _share_inside(foreground(scene.image), q) > HALF]
    assert found and min(corner_error(q, corners) for q in found) < 0.01
    # A bare mat's printed lattice shows seams as clearly: the colours finding none of it keep it out.
    bare = background("mat", np.random.default_rng(4), 900, 1100).clip(0, 255).astype(np.uint8)
    on_mat = _missed_row_grids(bare, edge_maps(bare), outline, (5, 7))
    assert any(fit.seams >= SURE_SEAMS for _, fit in on_mat)
    assert not [q for q, fit in on_mat if fit.seams >= SURE_SEAMS and _share_inside(foreground(bare), q) > HALF]
