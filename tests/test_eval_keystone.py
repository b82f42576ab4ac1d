"""benchmarks/eval_keystone.py: flat boards photographed from a chair, counted by the extent read."""

from __future__ import annotations

import importlib.util
import re

from conftest import PROJECT

_spec = importlib.util.spec_from_file_location("eval_keystone", PROJECT / "benchmarks" / "eval_keystone.py")
keystone_bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(keystone_bench)


def test_the_bench_counts_the_boards_read_at_their_extent(capsys):
    # Straight down a 5x5 is read 5x5 whatever its squares' colours.
    assert keystone_bench.main(["--tilts", "0", "--seeds", "1", "2", "--turns", "0", "--sizes", "5"]) == 0
    out = capsys.readouterr().out
    assert "5x5 at 0 degrees: 2/2 read 5x5" in out
    assert "boards read at their extent: 2/2" in out


def test_the_bench_lists_each_board_read_at_another_extent(capsys):
    # 7x7s at 35 degrees: some are read 6x7 (README); whatever the count, each board not read 7x7 is listed.
    keystone_bench.main(["--tilts", "35", "--seeds", "1", "3", "--turns", "-10", "0", "--sizes", "7", "--list"])
    out = capsys.readouterr().out
    read = int(re.search(r"7x7 at 35 degrees: (\d)/4 read 7x7", out)[1])
    listed = re.findall(r"^    seed [13] turn (?:-10|0): (?:\d+x\d+|none)", out, re.MULTILINE)
    assert len(listed) == 4 - read
    assert f"boards read at their extent: {read}/4" in out
