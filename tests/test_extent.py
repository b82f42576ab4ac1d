"""The kingdom's extent (the rows x columns its tiles occupy) is reported in the JSON, the CSV
and the panel title, so a kingdom laid smaller than its frame says so."""

from __future__ import annotations

import csv
import json
import shutil

from conftest import TEST_DATA
from conftest import run_kscore as run

SMALLER = """\
[Ben]
W1 W0 F0 F0 .
L0 C  F1 G0 .
L0 L0 S0 G2 .
M1 M0 S0 G0 .
.  .  .  .  .
"""


def test_a_text_kingdom_smaller_than_its_frame_reports_its_extent(capsys, tmp_path):
    path = tmp_path / "ben.kingdom"
    path.write_text(SMALLER)
    out_csv = tmp_path / "r.csv"
    code, out, _ = run(capsys, path, "--json", "--csv", out_csv)
    assert code == 0
    (kingdom,) = json.loads(out)["kingdoms"]
    assert kingdom["size"] == 5 and kingdom["extent"] == [4, 4]
    (row,) = csv.DictReader(out_csv.open())
    assert row["extent"] == "4x4"
    code, out, _ = run(capsys, path)
    assert "Ben  4x4 in 5x5" in out


def test_a_full_kingdom_names_only_its_frame(capsys):
    code, out, _ = run(capsys, TEST_DATA / "alice.kingdom", "--json")
    assert json.loads(out)["kingdoms"][0]["extent"] == [5, 5]
    code, out, _ = run(capsys, TEST_DATA / "alice.kingdom")
    assert "5x5  " in out and " in 5x5" not in out


def test_a_row_of_five_laid_by_hand_is_reported_as_one_by_five(capsys, tmp_path):
    photo = tmp_path / "step2.jpg"
    shutil.copy(TEST_DATA / "loose" / "carpet_step2.jpg", photo)
    code, out, _ = run(capsys, photo, "--json")
    assert code == 0
    (kingdom,) = json.loads(out)["kingdoms"]
    assert kingdom["extent"] == [1, 5] and kingdom["size"] == 5
