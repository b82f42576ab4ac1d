"""Faults around the command line (issue 16): usage errors, symlink loops, Ctrl-C at any
moment: one line on stderr and the right exit code, never a traceback or a framed box."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest

from conftest import PROJECT
from conftest import run_kscore as run
from conftest import sigint_as_at_a_terminal

ALICE = PROJECT / "tests" / "data" / "alice.kingdom"
DYNASTY = [PROJECT / "tests" / "data" / f"dynasty{i}.kingdom" for i in (1, 2)]


@pytest.mark.parametrize("args, words", [
    (["--jsno", ALICE], "no such option: --jsno"),
    ([], "missing argument"),
    ([ALICE, "-v"], "requires an argument"),
    (["dynasty", "--foo", ALICE], "no such option: --foo"),
])
def test_usage_errors_are_one_line_with_a_hint(capsys, args, words):
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and words in err and "--help" in err, err
    assert "╭" not in err and "Usage:" not in err


def test_symlink_loops_are_one_line_each_and_the_others_are_scored(capsys, tmp_path):
    (tmp_path / "a.kingdom").symlink_to(tmp_path / "b.kingdom")
    (tmp_path / "b.kingdom").symlink_to(tmp_path / "a.kingdom")
    (tmp_path / "folder").symlink_to(tmp_path / "folder")
    code, out, err = run(capsys, tmp_path / "a.kingdom", tmp_path / "folder", ALICE, "--json")
    assert code == 2
    document = json.loads(out)
    assert [k["name"] for k in document["kingdoms"]] == ["alice"]
    assert [f["source"] for f in document["failures"]] == [str(tmp_path / "a.kingdom"), str(tmp_path / "folder")]
    assert err.count("\n") == 2 and "symbolic links" in err and "Traceback" not in err, err


def test_dynasty_json_names_the_failures(capsys, tmp_path):
    code, out, err = run(capsys, "dynasty", "--json", *DYNASTY, tmp_path / "missing.kingdom")
    assert code == 2
    document = json.loads(out)
    assert document["failures"] == [{"source": str(tmp_path / "missing.kingdom"),
                                     "error": f"{tmp_path / 'missing.kingdom'}: no such file", "exit_code": 2}]
    assert err == f"kscore: {tmp_path / 'missing.kingdom'}: no such file\n"


def test_ctrl_c_at_any_moment_of_start_up_is_one_line_never_a_traceback():
    script = PROJECT / ".venv" / "bin" / "kscore"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "kscore.app.entry"]
    seen = set()
    # The first tens of milliseconds (more on a loaded machine) belong to the interpreter: its `site`
    # import, then the console script importing kscore.app.entry. A Ctrl-C there is Python's own
    # traceback, before any code of kscore's runs. From entry.main() on, none may escape.
    # The moments are searched, not fixed: the whole run takes ~0.13 s here, and a fixed ladder of
    # delays stepped over kscore's window on CI (every try landed before it or after the end). A try
    # that lands in the interpreter moves the next later; one after the end moves it earlier.
    # On a loaded machine one start-up can take longer than another whole run: the search may then close
    # on a moment with no window left (still starting there, finished a hair later; seen on CI at 0.25 s).
    # It starts again then, over a longer span each time (other moments, and the runs' noise differs).
    early, late, restarts = 0.0, 1.0, 0
    for _ in range(40):
        if late - early < 0.005:
            restarts += 1
            early, late = 0.0, 1.0 + 0.3 * restarts
        delay = (early + late) / 2
        process = subprocess.Popen([*command, str(ALICE)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                   cwd=PROJECT, preexec_fn=sigint_as_at_a_terminal)
        time.sleep(delay)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=30)
        text = err.decode()
        frames = re.findall(r'File "([^"]+)", line \d+, in (\S+)', text)
        running = [f for f in frames if "/kscore/" in f[0] and f[1] != "<module>"]
        assert not running, (delay, text)  # a traceback out of kscore's own functions
        # Still the interpreter starting: a traceback of its own frames, a fatal error, a bare
        # "KeyboardInterrupt" with exit 1 printed with no Python frame at all (seen under load at
        # 0.09 s), or killed by the signal before Python set its handler.
        starting = frames or "Fatal Python error" in text or text.strip() == "KeyboardInterrupt"
        if starting or (process.returncode == -signal.SIGINT and text == ""):
            early = delay
            continue
        assert process.returncode in (0, 130), (delay, process.returncode, text)
        if process.returncode == 130:
            assert text == "kscore: interrupted\n", text
            early = delay  # then look later, for the end of the run
        else:
            late = delay
        seen.add(process.returncode)
        if seen == {0, 130}:
            break
    assert 130 in seen, (early, late)  # some tries did land while kscore ran


def test_ctrl_c_while_a_class_is_made_is_one_line_never_a_traceback():
    # Python 3.11 wraps a Ctrl-C landing in a dataclass field's __set_name__ in a RuntimeError
    # (seen once in the test above at 0.27 s). The command below makes that happen every time:
    # entry.main runs a "command line" that defines such a class while the Ctrl-C arrives.
    program = (
        "import sys\n"
        "from kscore.app import cli, entry\n"
        "class Field:\n"
        "    def __set_name__(self, owner, name):\n"
        "        raise KeyboardInterrupt\n"
        "def start_up():\n"
        "    class Kingdom:\n"
        "        size = Field()\n"
        "cli.main = start_up\n"
        "entry.main()\n"
    )
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, cwd=PROJECT, timeout=60)
    assert (done.returncode, done.stderr) == (130, "kscore: interrupted\n")


def test_other_errors_at_start_up_are_not_called_an_interruption():
    program = "from kscore.app import cli, entry\ndef broken():\n    raise ValueError('a bug')\ncli.main = broken\nentry.main()\n"
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, cwd=PROJECT, timeout=60)
    assert done.returncode == 1 and "ValueError: a bug" in done.stderr and "interrupted" not in done.stderr
