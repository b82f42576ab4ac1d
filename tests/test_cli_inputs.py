"""A hostile user's inputs to `kscore`: every bad input one clear line (never a traceback),
nothing of the user's overwritten or lost, output that stays right when files look alike."""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
import sys

import cv2
import pytest

from conftest import PROJECT
from conftest import run_kscore as run
from conftest import sigint_as_at_a_terminal
from photo_helpers import MAT_PHOTO, SAMPLE_PHOTO

ALICE = PROJECT / "tests" / "data" / "alice.kingdom"


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


@pytest.mark.parametrize(
    "options, words",
    [
        (["--csv", "{photo}"], "--csv {photo}: that is one of the files to score"),
        (["--csv", "{text}"], "--csv {text}: that is one of the files to score"),
        (["--overlay", "{reading}"], "that is where the reading of {photo} is written"),
        (["--overlay", "{dir}/same.jpg", "--csv", "{dir}/same.jpg"], "name the same file"),
        (["--overlay", "{dir}/checked.txt"], "not an image file type"),
        (["--overlay", "{dir}"], "is a folder"),
        (["--csv", "{dir}/no/such/folder/r.csv"], "does not exist"),
    ],
)
def test_outputs_that_would_replace_an_input_or_cannot_be_written_are_refused_before_any_work(
        capsys, tmp_path, options, words):
    photo, text = tmp_path / "table.jpg", tmp_path / "alice.kingdom"
    shutil.copy(SAMPLE_PHOTO, photo)
    shutil.copy(ALICE, text)
    names = {"photo": photo, "text": text, "reading": tmp_path / "table.kingdom", "dir": tmp_path}
    before = {p: p.read_bytes() for p in (photo, text)}
    code, out, err = run(capsys, photo, text, *[o.format(**names) for o in options])
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and words.format(**names) in err, err
    assert {p: p.read_bytes() for p in (photo, text)} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["alice.kingdom", "table.jpg"]  # nothing written


def test_a_reading_that_cannot_be_written_beside_the_photo_still_shows_the_score(capsys, tmp_path):
    photo = tmp_path / ("t" * 250 + ".jpg")  # fits; "<name>.kingdom" is over the 255-byte limit
    shutil.copy(SAMPLE_PHOTO, photo)
    code, out, err = run(capsys, photo, "--json")
    assert code == 0
    assert json.loads(out)["kingdoms"][0]["score"] == 16
    assert "cannot write" in err and "the reading is not saved" in err and "internal error" not in err


def test_force_twice_never_loses_the_corrections_an_earlier_force_kept(capsys, tmp_path):
    photo = tmp_path / "table.jpg"
    shutil.copy(SAMPLE_PHOTO, photo)
    reading = tmp_path / "table.kingdom"
    run(capsys, photo)
    read = reading.read_text()
    reading.write_text(read.replace("[table]", "[Alice]"))  # the player's corrections
    code, _, err = run(capsys, photo, "--force")
    assert code == 0 and "table.kingdom.bak" in err
    code, _, err = run(capsys, photo, "--force")  # again: the .bak holds the corrections
    assert code == 0 and "table.kingdom.2.bak" in err
    assert "[Alice]" in (tmp_path / "table.kingdom.bak").read_text()
    assert (tmp_path / "table.kingdom.2.bak").read_text() == read
    code, _, err = run(capsys, photo, "--force")  # the same reading again: nothing new to keep
    assert not (tmp_path / "table.kingdom.3.bak").exists()


def test_csv_replaced_twice_keeps_every_older_result(capsys, tmp_path):
    results = tmp_path / "results.csv"
    results.write_text("last week\n")
    run(capsys, ALICE, "--csv", results)
    first = results.read_text()
    (tmp_path / "bob.kingdom").write_text(ALICE.read_text())
    run(capsys, tmp_path / "bob.kingdom", "--csv", results)
    assert (tmp_path / "results.csv.bak").read_text() == "last week\n"
    assert (tmp_path / "results.csv.2.bak").read_text() == first


def test_a_file_given_twice_is_scored_once(capsys, tmp_path):
    code, out, err = run(capsys, ALICE, ALICE, "--json")
    assert code == 0 and [k["name"] for k in json.loads(out)["kingdoms"]] == ["alice"]
    assert "given twice: scored once" in err
    photo = tmp_path / "table.jpg"
    shutil.copy(SAMPLE_PHOTO, photo)
    code, out, err = run(capsys, photo, tmp_path, "--json")  # the photo, and again through its folder
    assert code == 0 and [k["name"] for k in json.loads(out)["kingdoms"]] == ["table"]
    assert "not overwritten" not in err  # its reading was written once, not refused the second time


def test_a_folder_skips_hidden_files_and_says_it_does_not_enter_sub_folders(capsys, tmp_path):
    shutil.copy(SAMPLE_PHOTO, tmp_path / "table.jpg")
    (tmp_path / "._table.jpg").write_bytes(b"\x00\x05\x16\x07 macOS resource fork")  # copied from a Mac
    (tmp_path / "round2").mkdir()
    shutil.copy(MAT_PHOTO, tmp_path / "round2" / "mat.jpg")
    code, out, err = run(capsys, tmp_path, "--json")
    assert code == 0 and [k["name"] for k in json.loads(out)["kingdoms"]] == ["table"]
    assert "sub-folders not read (round2)" in err


def test_a_missing_or_broken_file_among_good_ones_is_reported_and_the_others_scored(capsys, tmp_path):
    broken = tmp_path / "bob.kingdom"
    broken.write_text("W1 W0\nW1\n")
    missing = tmp_path / "carol.kingdom"
    for photo_too in (False, True):
        files = [ALICE, missing, broken]
        if photo_too:  # photos read before a text typo are not thrown away
            files.insert(0, tmp_path / "table.jpg")
            shutil.copy(SAMPLE_PHOTO, files[0])
        code, out, err = run(capsys, *files, "--json")
        assert code == 2
        doc = json.loads(out)  # still one JSON document, naming what was not scored
        assert [k["name"] for k in doc["kingdoms"]] == ["table", "alice"][1 - photo_too:]
        assert [(f["source"], f["exit_code"]) for f in doc["failures"]] == [(str(missing), 2), (str(broken), 2)]
        assert f"kscore: {missing}: no such file" in err and f"kscore: {broken}:2:" in err
    assert (tmp_path / "table.kingdom").exists()


@pytest.mark.parametrize("name, words", [("table.kingdom", "a JPEG image"), ("table.gif", "a GIF image")])
def test_a_photo_named_like_a_text_file_says_it_is_an_image(capsys, tmp_path, name, words):
    path = tmp_path / name
    data = SAMPLE_PHOTO.read_bytes() if name.endswith(".kingdom") else b"GIF89a\x10\x00\x10\x00\x80\x00\x00" + bytes(40)
    path.write_bytes(data)
    code, out, err = run(capsys, path)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and words in err and "rename or convert" in err
    assert path.read_bytes() == data


def test_overlay_with_only_text_files_says_nothing_was_drawn(capsys, tmp_path):
    code, out, err = run(capsys, ALICE, "--overlay", tmp_path / "checked.jpg")
    assert code == 0 and "26 points" in out
    assert "no photo was read" in err and not (tmp_path / "checked.jpg").exists()


def test_help_shows_flags_as_flags_and_version_prints(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0
    for flag in ("--json", "--no-tileset", "--each", "--force"):
        line = next(line for line in out.splitlines() if f"{flag} " in line and "│" in line)
        assert "<bool>" not in line, line  # a flag takes no value: `--json true` would name a file 'true'
    text = " ".join(out.replace("│", " ").split())
    assert "or folders of photos" in text and "the others are still scored" in text
    code, out, err = run(capsys, "--version")
    from kscore import __version__
    assert (code, out.strip(), err) == (0, f"kscore {__version__}", "")


def test_a_file_is_written_whole_or_not_at_all(tmp_path):
    from kscore.app.pipeline import write_whole

    target = tmp_path / "table.kingdom"
    target.write_text("the player's corrections\n")

    def half_then_ctrl_c(part):
        part.write_text("[tab")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_whole(target, half_then_ctrl_c)
    assert target.read_text() == "the player's corrections\n"
    assert [p.name for p in tmp_path.iterdir()] == ["table.kingdom"]  # no part file left
    write_whole(target, lambda part: part.write_text("new\n"))
    assert target.read_text() == "new\n" and [p.name for p in tmp_path.iterdir()] == ["table.kingdom"]


def test_ctrl_c_mid_batch_is_one_line_no_traceback(tmp_path):
    import signal
    import subprocess
    import sys

    for i in range(40):  # several seconds of reading: the interrupt lands mid-batch
        shutil.copy(SAMPLE_PHOTO, tmp_path / f"p{i:02}.jpg")
    probe = "import sys; from kscore.app.cli import main; print('ready', flush=True); main(sys.argv[1:])"
    process = subprocess.Popen([sys.executable, "-c", probe, str(tmp_path), "--csv", str(tmp_path / "r.csv")],
                               cwd=PROJECT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=sigint_as_at_a_terminal)
    assert process.stdout.readline() == "ready\n"
    import time
    time.sleep(1.0)  # reading the photos
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 130, err
    assert err.strip().endswith("kscore: interrupted") and "Traceback" not in err
    assert not [p for p in tmp_path.iterdir() if "part" in p.name]


def test_rescoring_a_photo_whose_reading_was_corrected_scores_the_corrected_file(capsys, tmp_path):
    photo = tmp_path / "table.jpg"
    shutil.copy(SAMPLE_PHOTO, photo)
    run(capsys, photo)
    reading = tmp_path / "table.kingdom"
    read = reading.read_text()
    assert "rename a player" in read and "--names" in read  # the file says how
    # The player renames the kingdom and fixes a square (the first row's first square becomes a lake, 1 crown).
    lines = read.splitlines()
    first_row = next(i for i, line in enumerate(lines) if line.startswith("[table]")) + 1
    lines[first_row] = "L1 " + lines[first_row].split(" ", 1)[1]
    reading.write_text("\n".join(lines).replace("[table]", "[Alice]") + "\n")
    code, out, err = run(capsys, photo, "--json")
    assert code == 0 and "[Alice]" in reading.read_text()
    document = json.loads(out)
    assert [k["name"] for k in document["kingdoms"]] == ["Alice"]
    assert document["kingdoms"][0]["terrain"][0][0] == "lake" and document["kingdoms"][0]["crowns"][0][0] == 1
    said = [line for line in err.splitlines() if "your corrections" in line]
    assert len(said) == 1 and f"scored {reading} (your corrections)" in said[0]
    assert "[table] renamed [Alice]" in said[0] and "Alice row 1, column 1: " in said[0] and "-> L1" in said[0]
    assert "--reread scores the photo" in said[0]
    # --reread: the photo's reading again, the player's file untouched.
    code, out, err = run(capsys, photo, "--json", "--reread")
    assert code == 0 and [k["name"] for k in json.loads(out)["kingdoms"]] == ["table"]
    assert "[Alice]" in reading.read_text() and "not the photo's reading" not in err and "not overwritten" in err


def test_names_name_a_photos_kingdoms_and_a_wrong_count_is_refused(capsys, tmp_path):
    photo = tmp_path / "table.jpg"
    shutil.copy(SAMPLE_PHOTO, photo)
    code, out, err = run(capsys, photo, "--names", "Anna", "--json")
    assert code == 0 and [k["name"] for k in json.loads(out)["kingdoms"]] == ["Anna"]
    assert "[Anna]" in (tmp_path / "table.kingdom").read_text()  # the reading is written with the name
    (tmp_path / "table.kingdom").unlink()
    code, out, err = run(capsys, photo, "--names", "Anna,Ben")
    assert code == 2 and out == ""
    assert err.splitlines()[-1] == ("kscore: --names gives 2 names but the photos hold 1 kingdom "
                                    "(photo order: top to bottom, left to right)")
    assert "[table]" in (tmp_path / "table.kingdom").read_text()  # the reading is still saved
    code, out, err = run(capsys, photo, "--names", "Anna,anna")
    assert code == 2 and "given twice" in err


def test_a_folder_of_kingdom_files_says_how_to_score_them(capsys, tmp_path):
    shutil.copy(ALICE, tmp_path / "alice.kingdom")
    code, out, err = run(capsys, tmp_path)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and f"for its 1 kingdom files: kscore {tmp_path / '*.kingdom'}" in err


def test_a_photo_with_game_origins_is_refused_by_name_and_the_others_scored(capsys, tmp_path):
    photo = tmp_path / "table.jpg"
    shutil.copy(SAMPLE_PHOTO, photo)
    origins = PROJECT / "tests" / "data" / "expansions" / "origins_totem.kingdom"
    code, out, err = run(capsys, photo, origins, "--game", "origins", "--json")
    assert code == 2
    assert [f["source"] for f in json.loads(out)["failures"]] == [str(photo)]
    assert f"{photo}: photos are read as Kingdomino tiles, not origins" in err


def test_an_empty_argument_is_refused_not_read_as_the_current_folder(capsys, tmp_path, monkeypatch):
    shutil.copy(SAMPLE_PHOTO, tmp_path / "table.jpg")
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "", "--json")
    assert (code, out) == (2, "")
    assert "an empty argument" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["table.jpg"]  # no reading written


def test_overlays_are_not_written_among_the_photos_of_a_folder_being_scored(capsys, tmp_path):
    shutil.copy(SAMPLE_PHOTO, tmp_path / "table.jpg")
    code, out, err = run(capsys, tmp_path, "--overlay", tmp_path / "checked.jpg")
    assert (code, out) == (2, "")
    assert "would score the pictures as photos" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["table.jpg"]
    (tmp_path / "checked").mkdir()
    code, out, err = run(capsys, tmp_path, "--overlay", tmp_path / "checked" / "checked.jpg")
    assert code == 0 and (tmp_path / "checked" / "checked.jpg").exists()


def test_two_players_of_the_same_name_from_two_files_are_pointed_out(capsys, tmp_path):
    (tmp_path / "a").mkdir()
    other = tmp_path / "a" / "alice.kingdom"
    shutil.copy(ALICE, other)
    code, out, err = run(capsys, ALICE, other, "--json")
    assert code == 0 and len(json.loads(out)["kingdoms"]) == 2
    assert f"two players named 'alice' ({ALICE}, {other})" in err


@pytest.mark.parametrize("suffix", [".jpg", ".kingdom", ""])
def test_a_name_too_long_for_the_file_system_is_that_files_failure(capsys, tmp_path, suffix):
    too_long = tmp_path / ("z" * 300 + suffix)
    code, out, err = run(capsys, too_long, ALICE, "--json")
    assert code == 2 and [k["name"] for k in json.loads(out)["kingdoms"]] == ["alice"]
    assert err.count("\n") == 1 and "File name too long" in err and "internal error" not in err
    code, out, err = run(capsys, ALICE, "--csv", too_long.with_suffix(".csv"))
    assert (code, out) == (2, "") and "File name too long" in err and "internal error" not in err


def test_json_when_every_photo_fails_is_still_one_document(capsys, tmp_path):
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(SAMPLE_PHOTO.read_bytes()[:300])  # a truncated download
    code, out, err = run(capsys, broken, tmp_path / "missing.jpg", "--json")
    assert code == 2
    doc = json.loads(out)
    assert (doc["kingdoms"], doc["ranking"]) == ([], [])
    assert [f["source"] for f in doc["failures"]] == [str(broken), str(tmp_path / "missing.jpg")]
    assert err.count("\n") == 2
    code, out, err = run(capsys, broken, "--json", "--each")
    assert code == 2 and json.loads(out)["games"] == []


def test_a_long_name_that_fits_is_written(tmp_path):
    from kscore.app.pipeline import write_whole

    target = tmp_path / ("r" * 245 + ".kingdom")  # 253 bytes: fits; a part file named after it would not
    write_whole(target, lambda part: part.write_text("[A]\n"))
    assert target.read_text() == "[A]\n" and [p.name for p in tmp_path.iterdir()] == [target.name]


def test_variants_may_be_given_as_a_comma_list_like_in_the_file_header(capsys, tmp_path):
    full = tmp_path / "full.kingdom"
    full.write_text("W1 W W W W\nW W W W W\nW W C W W\nW W W W W\nW W W W W\n")  # castle centred, no gap
    code, out, err = run(capsys, full, "-v", "harmony, middle-kingdom", "--json")
    assert code == 0, err
    assert json.loads(out)["kingdoms"][0]["bonuses"].keys() == {"harmony", "middle-kingdom"}


def test_a_photo_given_with_a_file_of_another_game_keeps_its_reading(capsys, tmp_path):
    photo = tmp_path / "table.jpg"
    shutil.copy(SAMPLE_PHOTO, photo)
    origins = PROJECT / "tests" / "data" / "expansions" / "origins_totem.kingdom"
    code, out, err = run(capsys, photo, origins)
    assert code == 2 and "different games" in err
    assert (tmp_path / "table.kingdom").exists() and f"wrote {tmp_path / 'table.kingdom'}" in err


def test_csv_into_a_pipe_is_written_to_not_replaced(tmp_path):
    """`--csv /dev/stdout` (or a named pipe) in a script: the CSV goes through it; kscore neither reads it
    to keep a .bak (that blocks) nor replaces it by a file."""
    import os
    import subprocess
    import sys
    import threading

    pipe = tmp_path / "results.csv"
    os.mkfifo(pipe)
    got = []
    reader = threading.Thread(target=lambda: got.append(pipe.read_text()), daemon=True)
    reader.start()
    done = subprocess.run([sys.executable, "-m", "kscore.app.cli", str(ALICE), "--csv", str(pipe)], cwd=PROJECT,
                          capture_output=True, text=True, timeout=30)
    reader.join(10)
    assert done.returncode == 0, done.stderr
    assert got and got[0].splitlines()[1].startswith(f"{ALICE},alice,1,26,points,6,6,2,5,3,4,5,")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results.csv"] and not pipe.is_file()


def test_dynasty_given_a_folder_of_photos_asks_for_the_files(capsys, tmp_path):
    shutil.copy(SAMPLE_PHOTO, tmp_path / "game1.jpg")
    code, out, err = run(capsys, "dynasty", tmp_path)
    assert (code, out) == (2, "")
    assert "one file per game" in err and "no photos" not in err


def test_a_folder_with_only_hidden_photos_is_a_folder_with_no_photos(capsys, tmp_path):
    shutil.copy(SAMPLE_PHOTO, tmp_path / "._table.jpg")
    code, out, err = run(capsys, tmp_path)
    assert (code, out) == (2, "") and "a folder with no photos in it" in err


@pytest.mark.parametrize("args", [["-h"], ["dynasty", "-h"]])
def test_dash_h_is_help(capsys, args):
    code, out, err = run(capsys, *args)
    assert code == 0 and "Usage: kscore" in out and err == ""


@pytest.mark.parametrize("command", ["train", "eval"])
def test_train_and_eval_help_show_their_defaults_and_flags_as_flags(capsys, command):
    code, out, _ = run(capsys, command, "--help")
    assert code == 0
    text = " ".join(out.replace("│", " ").split())
    # rich took "[default: ...]" written in a help text for markup and printed nothing of it
    assert "../shared/data/tiles-phone if present" in text
    flags = [line for line in out.splitlines() if "--no-phone" in line or "--cv " in line]
    assert flags and not any("<bool>" in line for line in flags), flags  # a flag takes no value


def test_two_photos_of_one_name_each_keep_their_reading(capsys, tmp_path):
    # table.jpg and table.png: both readings went to table.kingdom, so the second
    # took the first's for the player's corrections and was never written.
    shutil.copy(SAMPLE_PHOTO, tmp_path / "table.jpg")
    cv2.imwrite(str(tmp_path / "table.png"), cv2.imread(str(SAMPLE_PHOTO)))
    shutil.copy(SAMPLE_PHOTO, tmp_path / "alone.jpg")
    code, _, err = run(capsys, tmp_path, "--each")
    assert code == 0, err
    assert (tmp_path / "table.jpg.kingdom").is_file() and (tmp_path / "table.png.kingdom").is_file()
    assert (tmp_path / "alone.kingdom").is_file() and not (tmp_path / "table.kingdom").exists()
    assert "already exists" not in err


def test_a_kingdom_piped_in_is_read_from_standard_input():
    grid = "W1 W0 G0 G0 L0\nW0 F0 F0 G1 L0\nS0 S0 C F0 L1\nM0 M2 F0 F0 L0\nW0 W0 G0 G0 S0\n"
    done = subprocess.run([sys.executable, "-m", "kscore.app.cli", "-", "--json"], input=grid, cwd=PROJECT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    (kingdom,) = json.loads(done.stdout)["kingdoms"]
    # wheat 3 squares x 1 crown, grassland 3 x 1, lake 4 x 1, mine 2 x 2
    assert (kingdom["name"], kingdom["score"]) == ("stdin", 3 + 3 + 4 + 4)


def test_standard_input_with_nothing_piped_says_so():
    done = subprocess.run([sys.executable, "-m", "kscore.app.cli", "-"], input="", cwd=PROJECT,
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (2, "") and "-: empty file" in done.stderr
