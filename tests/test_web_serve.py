"""`kscore serve` as a command: its help, its start-up refusals, and the web extra missing."""

from __future__ import annotations

import socket
import subprocess
import sys

import pytest

from conftest import PROJECT, run_kscore


def test_help_says_phones_need_host_0000(capsys):
    code, out, _ = run_kscore(capsys, "serve", "--help")
    assert code == 0 and "0.0.0.0" in out and "phones" in out and "FOLDER" in out


def test_without_the_web_extra_it_says_how_to_install_it_in_one_line():
    # A real interpreter in which starlette and uvicorn cannot be imported.
    code = ("import sys; sys.modules['uvicorn'] = None; sys.modules['starlette'] = None\n"
            "from kscore.app.cli import main; main(['serve'])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=PROJECT)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "kscore serve needs the web extra: pip install 'kscore[web]' (Starlette, uvicorn, python-multipart, segno)"]


def test_a_port_in_use_and_a_file_for_folder_are_one_line_and_exit_2(capsys, tmp_path):
    pytest.importorskip("uvicorn", reason="kscore[web] is not installed")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, _, err = run_kscore(capsys, "serve", "--port", port, tmp_path / "game")
    assert code == 2 and err.count("\n") == 1 and f"cannot listen on 127.0.0.1:{port}" in err and "--port" in err
    a_file = tmp_path / "notes.txt"
    a_file.write_text("x")
    code, _, err = run_kscore(capsys, "serve", a_file)
    assert code == 2 and err == f"kscore: {a_file}: a file, not a folder; name a folder to keep the game's photos in\n"
    assert a_file.read_text() == "x"


def test_a_folder_whose_game_does_not_parse_is_refused_and_kept(capsys, tmp_path):
    pytest.importorskip("uvicorn", reason="kscore[web] is not installed")
    (tmp_path / "game.kingdom").write_text("[A]\nW0 X\n")
    code, _, err = run_kscore(capsys, "serve", tmp_path)
    assert code == 2 and "game.kingdom:2:4: unknown terrain 'X'" in err
    assert (tmp_path / "game.kingdom").read_text() == "[A]\nW0 X\n"
