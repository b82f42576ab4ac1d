"""Folders of photos under faults (issue 16): --jobs gives the same results in the same order,
Ctrl-C keeps the readings finished, a file that cannot be written costs that file, not the scores."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import time

import pytest

from conftest import PROJECT
from conftest import run_kscore as run
from conftest import sigint_as_at_a_terminal
from kscore.game.textformat import read_game
from photo_helpers import MAT_PHOTO, SAMPLE_PHOTO

ALICE = PROJECT / "tests" / "data" / "alice.kingdom"


def sample_copy(folder, name: str = "table.jpg"):
    """sample_images/table_5x5.jpg (5x5, 16 points) copied into folder under name."""
    photo = folder / name
    shutil.copy(SAMPLE_PHOTO, photo)
    return photo


def folder_of_photos(tmp_path, broken: bool = True):
    folder = tmp_path / "photos"
    folder.mkdir()
    shutil.copy(SAMPLE_PHOTO, folder / "a.jpg")
    shutil.copy(MAT_PHOTO, folder / "b.jpg")
    if broken:
        (folder / "c.jpg").write_bytes(SAMPLE_PHOTO.read_bytes()[:5000])  # cut short
    shutil.copy(SAMPLE_PHOTO, folder / "d.jpg")
    return folder


def test_jobs_2_gives_what_jobs_1_gives_in_the_same_order(capsys, tmp_path):
    folder = folder_of_photos(tmp_path)
    outputs = []
    for jobs in ("1", "2"):
        for reading in folder.glob("*.kingdom"):
            reading.unlink()
        outputs.append(run(capsys, folder, ALICE, "--json", "--jobs", jobs))
    (code1, out1, err1), (code2, out2, err2) = outputs
    assert code1 == code2 == 2
    assert out1 == out2 and err1 == err2
    document = json.loads(out2)
    assert [k["source"] for k in document["kingdoms"]] == [str(folder / n) for n in ("a.jpg", "b.jpg", "d.jpg")] + [str(ALICE)]
    assert [f["source"] for f in document["failures"]] == [str(folder / "c.jpg")]
    assert sorted(p.name for p in folder.glob("*.kingdom")) == ["a.kingdom", "b.kingdom", "d.kingdom"]
    notes = [line for line in err2.splitlines() if "wrote" in line]
    assert [n.split()[2] for n in notes] == [f"{folder / n}.kingdom:" for n in ("a", "b", "d")]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_during_a_folder_keeps_every_reading_finished(tmp_path, jobs):
    folder = tmp_path / "photos"
    folder.mkdir()
    for i in range(30):
        shutil.copy(SAMPLE_PHOTO, folder / f"p{i:02}.jpg")
    process = subprocess.Popen([sys.executable, "-m", "kscore.app.entry", str(folder), "--jobs", jobs],
                               cwd=PROJECT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=sigint_as_at_a_terminal)
    deadline = time.time() + 60
    # Readings finished: "p*", not the ".kscore-part-PID.kingdom" being written (pathlib's glob matches
    # dot files), which a Ctrl-C rightly takes away: counted, it let the interrupt come after one reading.
    while len(list(folder.glob("p*.kingdom"))) < 2 and time.time() < deadline:
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "Traceback" not in err and err.endswith("kscore: interrupted\n"), err
    kept = sorted(folder.glob("p*.kingdom"))
    assert 2 <= len(kept) < 30
    for reading in kept:
        assert read_game(reading).kingdoms[0].name == reading.stem  # whole files, each scoring
        assert f"wrote {reading}" in err
    assert not [p for p in folder.iterdir() if "part" in p.name]


def test_a_csv_that_cannot_be_written_costs_the_file_not_the_scores(capsys, tmp_path):
    photo = sample_copy(tmp_path, "table.jpg")
    code, out, err = run(capsys, photo, "--json", "--csv", "/dev/full")
    assert code == 2
    assert json.loads(out)["kingdoms"][0]["score"] == 16  # the results were printed
    assert f"wrote {tmp_path / 'table.kingdom'}" in err
    assert err.splitlines()[-1] == "kscore: cannot write /dev/full: No space left on device"


@pytest.fixture
def small_disk(tmp_path):
    """A 300 KB tmpfs: a real full disk (needs root to mount; skipped, saying so, otherwise)."""
    disk = tmp_path / "disk"
    disk.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=300k", "tmpfs", str(disk)], capture_output=True)
    if done.returncode:
        pytest.skip(f"cannot mount a small tmpfs here ({done.stderr.decode().strip()}): no full disk to test on")
    yield disk
    subprocess.run(["umount", str(disk)])


def test_an_overlay_on_a_full_disk_names_the_users_file_after_the_scores(capsys, small_disk):
    photo = small_disk / "table.jpg"
    shutil.copy(SAMPLE_PHOTO, photo)  # 230 KB of the 300
    overlay = small_disk / "checked.png"
    code, out, err = run(capsys, photo, "--overlay", overlay)
    assert code == 2
    assert "16 points" in out
    assert err.splitlines()[-1].startswith(f"kscore: cannot write the overlay {overlay}:"), err
    assert "part" not in err.splitlines()[-1]
    assert sorted(p.name for p in small_disk.iterdir()) == ["table.jpg", "table.kingdom"]


def test_force_on_a_full_disk_leaves_no_empty_backup(capsys, small_disk):
    photo = sample_copy(small_disk, "table.jpg")
    reading = small_disk / "table.kingdom"
    reading.write_text("# the player's corrections\n" + "#" * 60_000 + "\n" + ALICE.read_text())
    (small_disk / "filler").write_bytes(b"x" * (300_000 - 230_000 - 62_000 - 6_000))
    code, out, err = run(capsys, photo, "--force")
    assert "cannot write" in err
    assert reading.read_text().startswith("# the player's corrections")
    for backup in small_disk.glob("*.bak"):
        assert backup.read_bytes() == reading.read_bytes()  # whole, or not there at all
    assert not [p for p in small_disk.iterdir() if "part" in p.name]


def test_one_photos_work_as_a_plain_function_gives_the_commands_document(capsys, tmp_path):
    from kscore.app.work import score_photo_bytes

    photo = sample_copy(tmp_path, "table.jpg")
    code, out, _ = run(capsys, photo, "--json", "-v", "harmony")
    assert code == 0
    document = score_photo_bytes(photo.read_bytes(), str(photo), {"variants": ["harmony"]})
    assert document == json.loads(out)
    failed = score_photo_bytes(b"\xff\xd8\xff\xe0 cut", "uploads/x.jpg")
    assert failed["kingdoms"] == [] and failed["failures"][0]["source"] == "uploads/x.jpg"
    assert failed["failures"][0]["error"].startswith("uploads/x.jpg ")


@pytest.mark.parametrize("odd", ["\n", "\r", "\x0b", "\x85", "\u2028"])
def test_a_reading_written_for_a_photo_with_an_odd_name_reads_back(capsys, tmp_path, odd):
    photo = sample_copy(tmp_path, f"table{odd}x.jpg")
    code, out, err = run(capsys, photo, "--json")
    assert code == 0, err
    reading = photo.with_suffix(".kingdom")
    game = read_game(reading)
    assert game.kingdoms[0].name == json.loads(out)["kingdoms"][0]["name"]
    code, out, err = run(capsys, reading, "--json")
    assert code == 0 and json.loads(out)["kingdoms"][0]["score"] == 16, err
