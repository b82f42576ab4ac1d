"""kscore.app.interrupt.say_interrupted: the line, exit 130, and what was printed before it kept."""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import PROJECT


@pytest.mark.parametrize("before", ["", "import multiprocessing\n"])
def test_the_line_exit_130_and_buffered_output_flushed(before):
    # stdout is a pipe here, so block-buffered: ending the process without a flush would lose the line.
    code = (f"{before}from kscore.app.interrupt import say_interrupted\n"
            "print('half a score table')\nsay_interrupted()\nprint('never printed')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=PROJECT, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (130, "half a score table\n", "kscore: interrupted\n")
