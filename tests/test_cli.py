"""The kscore command on real files: output, --json, exit codes, one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import PROJECT, TEST_DATA
from conftest import run_kscore as run
from kscore.app.cli import SUBCOMMANDS
from kscore.app.report import dumps

SAMPLE = PROJECT / "sample_images" / "two-player-game.kingdom"


def test_sample_human_output(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")  # no wrapping inside table cells
    code, out, err = run(capsys, SAMPLE)
    assert code == 0 and err == ""
    assert "Alice" in out and "Bob" in out and "67 points" in out
    assert "middle-kingdom" in out and "harmony" in out
    assert "Bob, unsure (scored as written, check them): row 4, column 4 (G2?)" in out
    assert "Alice wins with 67 points (tied on 67 points with Bob; largest property 11 vs 8)" in out
    assert "(from row" not in out  # the property tables only with --detail
    code, out, err = run(capsys, SAMPLE, "--detail")
    assert code == 0 and err == ""
    assert "forest (from row 1, column 3)" in out and "unsure squares" in out
    assert "largest property (tied on 67 points with Bob; largest property 11 vs 8)" in " ".join(out.split())


def test_json_is_one_document_with_the_schema(capsys):
    code, out, err = run(capsys, SAMPLE, "--json")
    assert code == 0 and err == ""
    doc = json.loads(out)  # the whole of stdout parses: nothing else was printed
    assert set(doc) == {"kingdoms", "ranking"}
    alice = doc["kingdoms"][0]
    for key in ("name", "size", "terrain", "crowns", "uncertain", "properties", "bonuses", "score", "warnings"):
        assert key in alice
    assert alice["name"] == "Alice" and alice["size"] == 5
    assert alice["terrain"][2] == ["mine", "wheat", "castle", "forest", "lake"]
    assert alice["crowns"][0] == [2, 1, 0, 0, 0]
    assert alice["bonuses"] == {"middle-kingdom": 10, "harmony": 5}
    assert alice["score"] == 67 == sum(p["points"] for p in alice["properties"]) + 15
    assert set(alice["properties"][0]) >= {"terrain", "squares", "crowns", "points"}
    assert doc["kingdoms"][1]["uncertain"] == [[3, 3]]
    assert [(r["place"], r["name"], r["score"], r["tiebreak"]) for r in doc["ranking"]] == [
        (1, "Alice", 67, "largest property"),
        (2, "Bob", 67, "largest property"),
    ]


def test_variant_flags_and_several_files_make_one_game(capsys):
    code, out, _ = run(capsys, TEST_DATA / "alice.kingdom", TEST_DATA / "duel.kingdom", "-v", "harmony", "--json")
    doc = json.loads(out)
    assert code == 0
    assert [k["name"] for k in doc["kingdoms"]] == ["alice", "Duelist"]
    assert doc["kingdoms"][0]["score"] == 26  # empty squares: no harmony
    assert doc["kingdoms"][1]["score"] == 136  # its file adds middle-kingdom to the flag's harmony
    assert [r["name"] for r in doc["ranking"]] == ["Duelist", "alice"]


def test_warnings_reach_both_outputs_and_no_tileset_silences_them(capsys, tmp_path):
    bad = tmp_path / "bad.kingdom"
    bad.write_text((TEST_DATA / "alice.kingdom").read_text().replace("W1 W0 F0", "W2 W0 F0", 1))
    _, out, _ = run(capsys, bad, "--json")
    warnings = json.loads(out)["kingdoms"][0]["warnings"]
    assert any("row 1, column 1: wheat with 2 crowns" in w for w in warnings)
    _, out, _ = run(capsys, bad, "--detail")
    assert "wheat with 2 crowns" in " ".join(out.split())
    _, out, _ = run(capsys, bad, "--json", "--no-tileset")
    assert json.loads(out)["kingdoms"][0]["warnings"] == []


@pytest.mark.parametrize(
    "make, words",
    [
        (lambda p: p.mkdir(), "a folder with no photos in it"),
        (lambda p: None, "no such file"),
        (lambda p: p.write_bytes(bytes(range(256))), "binary file"),
        (lambda p: p.write_text(""), "empty file"),
        (lambda p: p.write_bytes(b"W1 \xe9\xe9\n"), "not UTF-8"),
        (lambda p: p.write_text("W1 Q1 F0 F1 L0\n"), "k.kingdom:1:4: unknown terrain 'Q'"),
        (lambda p: p.write_text("W1 W0\nW1\n"), "k.kingdom:2:"),
    ],
)
def test_bad_input_is_one_line_on_stderr_and_exit_2(capsys, tmp_path, make, words):
    path = tmp_path / "k.kingdom"
    make(path)
    for extra in ([], ["--json"]):
        code, out, err = run(capsys, path, *extra)
        assert code == 2
        if extra:  # scripts still get one JSON document, naming the file that failed
            (failure,) = json.loads(out)["failures"]
            assert failure["source"] == str(path) and words in failure["error"] and failure["exit_code"] == 2
        else:
            assert out == ""
        assert err.count("\n") == 1 and words in err, err


def test_unknown_variant_flag(capsys):
    code, out, err = run(capsys, SAMPLE, "-v", "chaos")
    assert (code, out) == (2, "")
    assert "unknown variant 'chaos'" in err and err.count("\n") == 1


def test_photo_without_recognition_is_a_clear_error(capsys, tmp_path):
    photo = tmp_path / "table.jpg"
    photo.write_bytes(b"\xff\xd8\xff\xe0 not really a jpeg")
    try:
        import kscore.app.pipeline  # noqa: F401
    except ImportError:
        code, out, err = run(capsys, photo)
        assert (code, out) == (2, "")
        assert err.strip() == f"kscore: {photo}: photo recognition not available in this build"
    else:  # recognition landed: a broken photo is still one line and a non-zero exit
        code, out, err = run(capsys, photo)
        assert code in (2, 3) and err.count("\n") == 1


def test_help_teaches(capsys):
    code, out, _ = run(capsys, "--help")
    text = " ".join(out.split())
    assert code == 0
    for words in ("Examples", "--json", "--variant", "Exit codes: 0 scored; 2 bad input", "3 nothing recognisable",
                  "The kingdom text format", "kscore dynasty"):
        assert words in text, words


def test_dynasty_subcommand(capsys):
    files = [TEST_DATA / f"dynasty{i}.kingdom" for i in (1, 2, 3)]
    code, out, err = run(capsys, "dynasty", *files, "--json")
    assert code == 0 and err == ""
    doc = json.loads(out)
    assert [(p["name"], p["games"], p["score"]) for p in doc["players"]] == [
        ("Alice", [36, 48, 36], 120), ("Bob", [43, 41, None], 84), ("Carol", [None, None, 43], 43)]
    assert doc["ranking"][0]["name"] == "Alice"
    code, out, _ = run(capsys, "dynasty", *files)
    assert code == 0 and "dynasty ranking" in out and "Carol has no kingdom in dynasty1.kingdom" in " ".join(out.split())


def test_dynasty_names_every_bad_game_file_at_once(capsys, tmp_path):
    broken = tmp_path / "game2.kingdom"
    broken.write_text("[Alice]\nW1 W0 Q9\n", encoding="utf-8")
    missing = tmp_path / "game3.kingdom"
    code, out, err = run(capsys, "dynasty", TEST_DATA / "dynasty1.kingdom", broken, missing)
    assert (code, out) == (2, "")  # no totals without every game
    assert "game2.kingdom" in err and "game3.kingdom" in err and "Traceback" not in err


def test_subcommands_are_registered_in_one_table():
    assert SUBCOMMANDS["dynasty"][0] == "kscore.app.cli:dynasty_app"


def test_real_process_has_no_traceback_and_loads_no_models(tmp_path):
    bad = tmp_path / "x.kingdom"
    bad.write_text("[A]\nW9\n")
    probe = (
        "import sys; from kscore.app.cli import main\n"
        "try:\n    main(sys.argv[1:])\n"
        "finally:\n    print(sorted(m for m in sys.modules if m.startswith(('cv2', 'sklearn', 'kscore.vision.find'))),"
        " file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe, str(bad)], capture_output=True, text=True, cwd=PROJECT)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.splitlines()[0] == f"kscore: {bad}:2:1: 9 crowns on 'W9' (expected crowns 0-3)"
    ok = subprocess.run([sys.executable, "-c", probe, str(SAMPLE)], capture_output=True, text=True, cwd=PROJECT)
    assert ok.returncode == 0
    assert ok.stderr.strip() == "[]"  # text input never imports OpenCV, scikit-learn or the recogniser


@settings(max_examples=200, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=30),
                    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=4),
                    max_leaves=30))
def test_json_layout_is_still_exactly_json(value):
    assert json.loads(dumps(value)) == value


def test_json_layout_rows_on_one_line_small_records_on_one_line_the_rest_spread():
    document = {"kingdoms": [{"name": "Åsa", "terrain": [["W", "G"], ["C", "."]], "uncertain": [],
                              "properties": [{"terrain": "wheat", "squares": 2, "crowns": 1, "points": 2}],
                              "extras": {}, "note": None, "ok": True}],
                "long": {"k" * 60: "v" * 60}}
    assert dumps(document) == (
        '{\n  "kingdoms": [\n    {\n      "name": "Åsa",\n      "terrain": [\n        ["W", "G"],\n'
        '        ["C", "."]\n      ],\n      "uncertain": [],\n      "properties": [\n'
        '        {"terrain": "wheat", "squares": 2, "crowns": 1, "points": 2}\n      ],\n      "extras": {},\n'
        '      "note": null,\n      "ok": true\n    }\n  ],\n'
        f'  "long": {{\n    "{"k" * 60}": "{"v" * 60}"\n  }}\n}}')
