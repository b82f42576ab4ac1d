"""A hostile user's inputs to `kscore`: every bad input one clear line (never a traceback),
nothing of the user's overwritten or lost, output that stays right when files look alike."""

from __future__ import annotations

import csv
import json
import shutil

import pytest

from conftest import PROJECT
from kscore.cli import main
from photo_helpers import PHOTO_DATA

SAMPLE_PHOTO = PROJECT / "sample_images" / "table_5x5.jpg"
MAT_PHOTO = PHOTO_DATA / "mat_7x7.jpg"
ALICE = PROJECT / "tests" / "data" / "alice.kingdom"


def run(capsys, *args) -> tuple[int, str, str]:
    try:
        main([str(a) for a in args])
        code = 0
    except SystemExit as done:
        code = done.code or 0
    out, err = capsys.readouterr()
    return code, out, err


def test_photos_with_the_same_name_in_two_folders_keep_their_own_source_corners_and_overlay(capsys, tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a, b = tmp_path / "a" / "game.jpg", tmp_path / "b" / "game.jpg"
    shutil.copy(SAMPLE_PHOTO, a)  # 5x5, 16 points
    shutil.copy(MAT_PHOTO, b)  # 7x7
    out_csv, overlay = tmp_path / "r.csv", tmp_path / "ov.jpg"
    code, out, err = run(capsys, a, b, "--each", "--json", "--csv", out_csv, "--overlay", overlay)
    assert code == 0
    kingdoms = [k for g in json.loads(out)["games"] for k in g["kingdoms"]]
    assert [(k["source"], k["size"]) for k in kingdoms] == [(str(a), 5), (str(b), 7)]
    assert kingdoms[0]["corners"] != kingdoms[1]["corners"]
    rows = list(csv.DictReader(out_csv.open()))
    assert [(r["source"], r["size"], r["place"]) for r in rows] == [(str(a), "5", "1"), (str(b), "7", "1")]
    assert rows[0]["corners"] != rows[1]["corners"]
    # one picture per photo: the second does not replace the first
    assert (tmp_path / "ov-game.jpg").exists() and (tmp_path / "ov-game-2.jpg").exists()
    assert not (tmp_path / "ov-game.jpg.bak").exists()
