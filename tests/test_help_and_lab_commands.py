"""What a new user meets first: the help screens, and `kscore train` finding its data from the checkout."""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import PROJECT, TEST_DATA
from conftest import run_kscore as run
from kscore.lab.commands import find_checkout


@pytest.mark.parametrize("command", [[], ["dynasty"], ["train"], ["eval"]])
def test_help_shows_no_python_types_or_braces(capsys, monkeypatch, command):
    monkeypatch.setenv("COLUMNS", "100")
    code, out, _ = run(capsys, *command, "-h")
    assert code == 0 and "Usage: kscore" in out
    for artefact in ("<bool>", "{FILE}", "{FOLDER}", "<list[Path]>", "<path>", "<int>", "<text>"):
        assert artefact not in out, artefact
    usage = next(line for line in out.splitlines() if "Usage:" in line).split()
    assert usage[-1] in ("FILE...", "FOLDER", "[BOARDS]")


def test_the_checkout_is_found_from_the_current_folder_not_the_installed_package(tmp_path, monkeypatch):
    installed = tmp_path / ".venv" / "lib" / "python3.11" / "site-packages" / "kscore" / "lab"
    installed.mkdir(parents=True)
    assert find_checkout((installed,)) is None  # `pip install .`: nothing near ../shared from there
    assert find_checkout((PROJECT / "tests" / "data", installed)) == PROJECT
    monkeypatch.chdir(tmp_path)
    from kscore.lab import commands

    monkeypatch.setattr(commands, "__file__", str(installed / "commands.py"))
    assert commands._defaults() == (None, None, None)


def test_train_outside_a_checkout_asks_for_the_folder(capsys, tmp_path, monkeypatch):
    installed = tmp_path / "site-packages" / "kscore" / "lab"
    installed.mkdir(parents=True)
    from kscore.lab import commands

    monkeypatch.setattr(commands, "__file__", str(installed / "commands.py"))  # as `pip install .` lays it out
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "train")
    assert (code, out) == (2, "")
    assert err == ("kscore: no kscore checkout above this folder, so no ../shared/data/kingdomino: "
                   "name the labelled boards folder (kscore train BOARDS --out DIR)\n")


def test_train_says_what_it_trains_on_and_shows_progress(tmp_path):
    done = subprocess.run([sys.executable, "-m", "kscore.app.cli", "train", str(TEST_DATA / "recognition"),
                           "--no-phone", "--out", str(tmp_path)], cwd=PROJECT, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert lines[0] == f"training on {TEST_DATA / 'recognition'} (no phone squares); the model goes to {tmp_path}"
    assert any(line.startswith("train: fitting the models on 4 samples") for line in lines)
    assert lines[-1].startswith("train: done (")
    assert (tmp_path / "recognition.npz").is_file()


def test_the_readme_links_the_rules_in_the_repository_not_outside_it():
    readme = (PROJECT / "README.md").read_text()
    assert "../shared/docs" not in readme  # a user of the repository has no ../shared
    assert "(docs/rules.md)" in readme
    rules = (PROJECT / "docs" / "rules.md").read_text()
    for section in ("Middle Kingdom: +10", "Harmony: +5", "largest property", "Queendomino", "Age of Giants",
                    "folie-des-grandeurs", "Origins"):
        assert section in rules
