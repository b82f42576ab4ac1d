"""`kscore` on photos, end to end with the shipped models: JSON fields, the correction file,
overlay, CSV, several photos with one failing, folders, --each."""

from __future__ import annotations

import csv
import json
import shutil

import cv2
import numpy as np
import pytest

from conftest import run_kscore as run
from photo_helpers import MAT_PHOTO, SAMPLE_PHOTO



@pytest.fixture()
def photos(tmp_path):
    """The sample (5x5, white table) and the mat photo (7x7), copied where files may be written."""
    a = tmp_path / "table.jpg"
    b = tmp_path / "mat.jpg"
    shutil.copy(SAMPLE_PHOTO, a)
    shutil.copy(MAT_PHOTO, b)
    return a, b


def test_photo_json_has_source_corners_and_photo_orientation(capsys, photos):
    table, _ = photos
    code, out, err = run(capsys, table, "--json")
    assert code == 0
    doc = json.loads(out)
    (kingdom,) = doc["kingdoms"]
    assert kingdom["name"] == "table" and kingdom["size"] == 5
    assert kingdom["source"] == str(table)
    corners = np.array(kingdom["corners"])
    assert corners.shape == (4, 2)
    # the labelled corners of this photo (blarc_test2.jpg scaled to 1600 px), TL TR BR BL
    truth = np.array([[763, 292], [3766, 282], [3832, 3150], [905, 3363]]) * (1600 / 4608)
    assert np.abs(corners - truth).max() < 0.04 * 1050
    assert kingdom["terrain"][2][2] == "castle"  # the castle square, in the photo's orientation


def test_reading_is_written_beside_the_photo_and_kept_unless_forced(capsys, photos):
    table, _ = photos
    target = table.with_suffix(".kingdom")
    code, out, err = run(capsys, table)
    assert code == 0 and f"wrote {target}" in err
    assert "[table]" in target.read_text()
    target.write_text(target.read_text().replace("[table]", "[mine]"))  # the player's correction
    code, out, err = run(capsys, table)
    assert "your corrections" in err and "[mine]" in target.read_text() and "mine  5x5" in out  # the file is scored
    code, out, err = run(capsys, table, "--reread")
    assert "not overwritten" in err and "[mine]" in target.read_text() and "table  5x5" in out
    code, out, err = run(capsys, target)  # rescoring the corrected file
    assert code == 0 and "mine" in out
    code, out, err = run(capsys, table, "--force")
    assert "[table]" in target.read_text()
    assert "[mine]" in target.with_name("table.kingdom.bak").read_text()


def test_overlay_and_csv(capsys, photos, tmp_path):
    table, mat = photos
    overlay, table_csv = tmp_path / "out.jpg", tmp_path / "results.csv"
    table_csv.write_text("last week's results\n")  # outputs replaced are kept, never lost
    (tmp_path / "out-table.jpg").write_bytes(b"an older picture")
    code, out, err = run(capsys, table, mat, "--overlay", overlay, "--csv", table_csv)
    assert code == 0
    assert (tmp_path / "results.csv.bak").read_text() == "last week's results\n"
    assert (tmp_path / "out-table.jpg.bak").read_bytes() == b"an older picture"
    assert "the old one is kept as results.csv.bak" in err + out
    for name in ("out-table.jpg", "out-mat.jpg"):  # several photos: one picture each
        drawn = cv2.imread(str(tmp_path / name))
        photo = cv2.imread(str(tmp_path / name.split("-")[1]))
        assert drawn is not None and drawn.shape[1] == photo.shape[1]
        assert photo.shape[0] < drawn.shape[0] < photo.shape[0] * 1.2  # the photo, and the legend's strip under it
    rows = list(csv.DictReader(table_csv.open()))
    assert [r["kingdom"] for r in rows] == ["table", "mat"]
    assert {r["size"] for r in rows} == {"5", "7"}
    assert sorted(r["place"] for r in rows) == ["1", "2"]  # ranked together: one game
    assert all(len(r["corners"].split()) == 4 for r in rows)


def test_a_failing_photo_never_stops_the_others(capsys, photos, tmp_path):
    table, _ = photos
    empty = tmp_path / "empty.jpg"
    cv2.imwrite(str(empty), np.full((600, 800, 3), (90, 130, 170), np.uint8))  # a bare wooden table
    code, out, err = run(capsys, empty, table, "--json")
    assert code == 3  # nothing recognised in one photo
    assert [k["name"] for k in json.loads(out)["kingdoms"]] == ["table"]
    assert f"kscore: {empty}: no kingdom found" in err and "closer" in err


def test_a_folder_with_each_photo_its_own_game(capsys, photos, tmp_path):
    code, out, err = run(capsys, tmp_path, "--each", "--json")
    assert code == 0
    games = json.loads(out)["games"]
    assert [[k["name"] for k in g["kingdoms"]] for g in games] == [["mat"], ["table"]]
    assert all(g["ranking"][0]["place"] == 1 for g in games)


def test_nothing_found_exits_3_with_advice(capsys, tmp_path):
    empty = tmp_path / "empty.jpg"
    cv2.imwrite(str(empty), np.full((600, 800, 3), (90, 130, 170), np.uint8))  # a bare wooden table
    code, out, err = run(capsys, empty)
    assert code == 3 and out == ""
    assert err.count("\n") == 1 and "from above" in err


def test_a_black_and_white_photo_is_nothing_recognised_and_says_why(capsys, photos, tmp_path):
    table, _ = photos
    grey = tmp_path / "grey.jpg"
    cv2.imwrite(str(grey), cv2.cvtColor(cv2.imread(str(table)), cv2.COLOR_BGR2GRAY))
    code, out, err = run(capsys, grey)
    assert code == 3 and out == ""
    assert "black and white" in err and "colour" in err


def test_a_kingdom_cut_by_the_edge_is_reported_not_scored(capsys, tmp_path):
    from kscore.lab.synth import scene_with_quads
    from photo_helpers import labelled_boards

    rng = np.random.default_rng(5)
    quads = [
        np.array([[150, 200], [550, 220], [530, 620], [130, 600]], float),
        np.array([[900, 250], [1300, 260], [1290, 660], [890, 650]], float),  # runs off the right edge
    ]
    scene = scene_with_quads(labelled_boards(), quads, rng, size=(1200, 900), background_kind="table")
    path = tmp_path / "two.jpg"
    cv2.imwrite(str(path), scene.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    code, out, err = run(capsys, path, "--json")
    assert code == 0
    doc = json.loads(out)
    assert [k["name"] for k in doc["kingdoms"]] == ["two"]
    assert len(doc["partial"]) == 1 and "right edge" in doc["partial"][0]["missing"]
    assert "not scored" in err
